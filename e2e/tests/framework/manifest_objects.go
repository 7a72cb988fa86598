package framework

// Rendered install artefacts as test data: what `helm template` and `kubectl kustomize` print,
// decoded into objects the checks in manifest_*.go read. Nothing here talks to the API server.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// ToolTimeout bounds one run of helm or kubectl on rendered files.
const ToolTimeout = 2 * time.Minute

// ManifestObject is one rendered object, with the JSON it was decoded from.
type ManifestObject struct {
	*unstructured.Unstructured
	JSON []byte
}

// Into decodes the object into a typed API struct.
func (o ManifestObject) Into(t testing.TB, v interface{}) {
	t.Helper()
	if err := json.Unmarshal(o.JSON, v); err != nil {
		t.Fatalf("decode %s %s: %v", o.GetKind(), o.GetName(), err)
	}
}

// DecodeManifests splits a multi-document YAML stream into objects, skipping empty documents.
func DecodeManifests(t testing.TB, data []byte) []ManifestObject {
	t.Helper()
	var out []ManifestObject
	reader := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	for {
		doc, err := reader.Read()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("split YAML: %v", err)
		}
		js, err := utilyaml.ToJSON(doc)
		if err != nil {
			t.Fatalf("YAML to JSON: %v", err)
		}
		if len(bytes.TrimSpace(js)) == 0 || string(bytes.TrimSpace(js)) == "null" {
			continue
		}
		u := &unstructured.Unstructured{}
		if err := u.UnmarshalJSON(js); err != nil {
			t.Fatalf("decode object: %v\n%s", err, doc)
		}
		out = append(out, ManifestObject{Unstructured: u, JSON: js})
	}
}

// FindManifest returns the object of that kind and name, failing t if there is none.
func FindManifest(t testing.TB, objs []ManifestObject, kind, name string) ManifestObject {
	t.Helper()
	for _, o := range objs {
		if o.GetKind() == kind && o.GetName() == name {
			return o
		}
	}
	t.Fatalf("no %s %s rendered", kind, name)
	return ManifestObject{}
}

// ManifestsOfKind returns the objects of one kind, keyed by name.
func ManifestsOfKind(objs []ManifestObject, kind string) map[string]ManifestObject {
	out := map[string]ManifestObject{}
	for _, o := range objs {
		if o.GetKind() == kind {
			out[o.GetName()] = o
		}
	}
	return out
}

// DeploymentFlag returns the value of --name=value among the first container's args, failing t
// if the flag is not passed.
func DeploymentFlag(t testing.TB, d appsv1.Deployment, name string) string {
	t.Helper()
	v, ok := LookupDeploymentFlag(d, name)
	if !ok {
		t.Fatalf("Deployment %s passes no %s", d.Name, name)
	}
	return v
}

// LookupDeploymentFlag is DeploymentFlag without failing: ok is false when the flag is absent.
func LookupDeploymentFlag(d appsv1.Deployment, name string) (string, bool) {
	for _, a := range d.Spec.Template.Spec.Containers[0].Args {
		if v, ok := strings.CutPrefix(a, name+"="); ok {
			return v, true
		}
	}
	return "", false
}

// RunTool runs bin with args and returns its stdout; a non-zero exit fails t with stderr.
func RunTool(t testing.TB, bin string, args ...string) string {
	t.Helper()
	stdout, stderr, err := TryTool(bin, args...)
	if err != nil {
		t.Fatalf("%s %s: %v\nstdout:\n%s\nstderr:\n%s", filepath.Base(bin), strings.Join(args, " "), err, stdout, stderr)
	}
	return stdout
}

// TryTool runs bin with args and returns what it printed and how it ended, for runs that are
// expected to fail.
func TryTool(bin string, args ...string) (stdout, stderr string, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), ToolTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	return out.String(), errOut.String(), err
}

// RenderKustomize renders a kustomization with `kubectl kustomize`.
func RenderKustomize(t testing.TB, dir string) []ManifestObject {
	t.Helper()
	kubectl, err := KubectlPath()
	if err != nil {
		t.Fatalf("%v", err)
	}
	objs := DecodeManifests(t, []byte(RunTool(t, kubectl, "kustomize", dir)))
	if len(objs) == 0 {
		t.Fatalf("kubectl kustomize %s rendered nothing", dir)
	}
	return objs
}

// HelmPath finds helm: $HELM (run-e2e.sh exports the cluster harness's), else the copy the
// cluster scripts cache under ~/.cache/vc-cpp/bin/helm-*/, else helm on PATH.
func HelmPath() (string, error) { return findTool("HELM", "helm", "helm") }

// Helm is HelmPath, failing t when there is no helm.
func Helm(t testing.TB) string {
	t.Helper()
	h, err := HelmPath()
	if err != nil {
		t.Fatalf("%v", err)
	}
	return h
}

// RenderHelmChart renders a chart as `helm template RELEASE CHART --namespace NS ARGS...`
// prints it, and returns the objects with the printed text.
func RenderHelmChart(t testing.TB, chart, release, ns string, args ...string) ([]ManifestObject, string) {
	t.Helper()
	out := RunTool(t, Helm(t), append([]string{"template", release, chart, "--namespace", ns}, args...)...)
	return DecodeManifests(t, []byte(out)), out
}

// Deref is *p, or T's zero value for nil.
func Deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// ToJSON is v as compact JSON, for messages.
func ToJSON(v interface{}) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return string(b)
}

// SortedKeys is m's keys in order.
func SortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// SortedCopy is a sorted copy of s.
func SortedCopy(s []string) []string {
	c := slices.Clone(s)
	sort.Strings(c)
	return c
}

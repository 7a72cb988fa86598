package tests

// The install artefacts of issue 4: the kustomize base manifests/webhook, its cert-manager
// overlay and the certificate tooling in certs/. They are checked against the live API server
// with server-side dry runs, which validate every object as a real apply would and store
// nothing: the cluster's own webhook configurations (URL mode) must come out untouched.

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"

	"vc-cpp.local/e2e/tests/framework"
)

const (
	mfNamespace      = "volcano-system"
	mfService        = "volcano-admission-service"
	mfSecret         = "volcano-admission-secret"
	mfInjectCAFrom   = "cert-manager.io/inject-ca-from"
	mfCommandTimeout = 2 * time.Minute
)

// mfRegistration is one row of Volcano's chart (spec/webhook.md §1.2).
type mfRegistration struct {
	path, kind, webhook, group, version, resource string
	ops                                           []admissionv1.OperationType
}

func (r mfRegistration) configName() string {
	return mfService + strings.ReplaceAll(r.path, "/", "-")
}

// The hypernodes entry is the odd one: no selectors, no scope, sideEffects None.
func (r mfRegistration) isHyperNodes() bool { return r.resource == "hypernodes" }

const (
	mfMutating   = "MutatingWebhookConfiguration"
	mfValidating = "ValidatingWebhookConfiguration"
)

var (
	mfCreate = admissionv1.Create
	mfUpdate = admissionv1.Update
	mfDelete = admissionv1.Delete
)

var mfRegistrations = []mfRegistration{
	{"/pods/mutate", mfMutating, "mutatepod.volcano.sh", "", "v1", "pods", []admissionv1.OperationType{mfCreate}},
	{"/queues/mutate", mfMutating, "mutatequeue.volcano.sh", "scheduling.volcano.sh", "v1beta1", "queues", []admissionv1.OperationType{mfCreate}},
	{"/podgroups/mutate", mfMutating, "mutatepodgroup.volcano.sh", "scheduling.volcano.sh", "v1beta1", "podgroups", []admissionv1.OperationType{mfCreate}},
	{"/jobs/mutate", mfMutating, "mutatejob.volcano.sh", "batch.volcano.sh", "v1alpha1", "jobs", []admissionv1.OperationType{mfCreate}},
	{"/jobs/validate", mfValidating, "validatejob.volcano.sh", "batch.volcano.sh", "v1alpha1", "jobs", []admissionv1.OperationType{mfCreate, mfUpdate}},
	// Volcano's chart reuses the job webhook's name for jobflows.
	{"/jobflows/validate", mfValidating, "validatejob.volcano.sh", "flow.volcano.sh", "v1alpha1", "jobflows", []admissionv1.OperationType{mfCreate, mfUpdate}},
	{"/pods/validate", mfValidating, "validatepod.volcano.sh", "", "v1", "pods", []admissionv1.OperationType{mfCreate}},
	{"/queues/validate", mfValidating, "validatequeue.volcano.sh", "scheduling.volcano.sh", "v1beta1", "queues", []admissionv1.OperationType{mfCreate, mfUpdate, mfDelete}},
	{"/podgroups/validate", mfValidating, "validatepodgroup.volcano.sh", "scheduling.volcano.sh", "v1beta1", "podgroups", []admissionv1.OperationType{mfCreate}},
	{"/hypernodes/validate", mfValidating, "validatehypernodes.volcano.sh", "topology.volcano.sh", "v1alpha1", "hypernodes", []admissionv1.OperationType{mfCreate, mfUpdate}},
	{"/cronjobs/validate", mfValidating, "validatecronjob.volcano.sh", "batch.volcano.sh", "v1alpha1", "cronjobs", []admissionv1.OperationType{mfCreate, mfUpdate}},
}

// The service DNS names the serving certificate must carry, plus 127.0.0.1 (checked apart).
var mfServiceDNSNames = []string{
	mfService,
	mfService + "." + mfNamespace,
	mfService + "." + mfNamespace + ".svc",
	mfService + "." + mfNamespace + ".svc.cluster.local",
}

// TestManifestsWebhookConfigurationsMatchVolcano: the base registers exactly Volcano's eleven
// webhook configurations, in service mode, and everything that must agree with them does: the
// Deployment serves every registered path (an unserved path with failurePolicy Fail rejects
// every matching request) and the ClusterRole's resourceNames are exactly these names.
func TestManifestsWebhookConfigurationsMatchVolcano(t *testing.T) {
	objs := mfRenderKustomize(t, filepath.Join(mfRepoRoot(t), "manifests", "webhook"))

	configs := map[string]mfObject{} // config name -> object
	for _, o := range objs {
		if o.GetKind() == mfMutating || o.GetKind() == mfValidating {
			configs[o.GetName()] = o
		}
	}
	if len(configs) != len(mfRegistrations) {
		t.Errorf("base holds %d webhook configurations %v, want %d", len(configs), mfSortedKeys(configs), len(mfRegistrations))
	}
	for _, reg := range mfRegistrations {
		o, ok := configs[reg.configName()]
		if !ok {
			t.Errorf("%s: no configuration named %s", reg.path, reg.configName())
			continue
		}
		if o.GetKind() != reg.kind {
			t.Errorf("%s: kind %s, want %s", reg.configName(), o.GetKind(), reg.kind)
			continue
		}
		mfCheckRegistration(t, reg, o)
	}

	var paths []string
	for _, reg := range mfRegistrations {
		paths = append(paths, reg.path)
	}
	deploy := mfFindObject(t, objs, "Deployment", "volcano-admission")
	var d appsv1.Deployment
	deploy.into(t, &d)
	if got := mfSortedCopy(strings.Split(mfFlagValue(t, d, "--enabled-admission"), ",")); !slices.Equal(got, mfSortedCopy(paths)) {
		t.Errorf("--enabled-admission serves %v, want exactly the registered paths %v", got, mfSortedCopy(paths))
	}
	if got := mfFlagValue(t, d, "--port"); got != "8443" {
		t.Errorf("--port=%s, want 8443 (the Service's targetPort)", got)
	}
	mfCheckDeployment(t, d)
	var svc corev1.Service
	mfFindObject(t, objs, "Service", mfService).into(t, &svc)
	if len(svc.Spec.Ports) != 1 || svc.Spec.Ports[0].Port != 443 || svc.Spec.Ports[0].TargetPort.IntValue() != 8443 {
		t.Errorf("Service ports %+v, want exactly 443 -> 8443", svc.Spec.Ports)
	}

	var role rbacv1.ClusterRole
	mfFindObject(t, objs, "ClusterRole", "volcano-admission").into(t, &role)
	for kind, resource := range map[string]string{mfMutating: "mutatingwebhookconfigurations", mfValidating: "validatingwebhookconfigurations"} {
		var want, got []string
		for _, reg := range mfRegistrations {
			if reg.kind == kind {
				want = append(want, reg.configName())
			}
		}
		for _, rule := range role.Rules {
			if slices.Contains(rule.Resources, resource) {
				got = append(got, rule.ResourceNames...)
				if !slices.Equal(mfSortedCopy(rule.Verbs), []string{"get", "update"}) {
					t.Errorf("ClusterRole grants %v on %s, want exactly get and update", rule.Verbs, resource)
				}
			}
		}
		if !slices.Equal(mfSortedCopy(got), mfSortedCopy(want)) {
			t.Errorf("ClusterRole resourceNames for %s are %v, want %v", resource, mfSortedCopy(got), mfSortedCopy(want))
		}
	}
}

// mfCheckDeployment checks what the issue asks of the Deployment: 2 replicas spread over
// nodes, probes on the plain-HTTP health port, requests, non-root with a read-only root
// filesystem, and the certificate Secret mounted where the TLS flags point.
func mfCheckDeployment(t *testing.T, d appsv1.Deployment) {
	t.Helper()
	if n := mfDeref(d.Spec.Replicas); n != 2 {
		t.Errorf("Deployment replicas %d, want 2", n)
	}
	pod := d.Spec.Template.Spec
	if pod.Affinity == nil || pod.Affinity.PodAntiAffinity == nil {
		t.Errorf("Deployment has no pod anti-affinity")
	}
	if pod.SecurityContext == nil || !mfDeref(pod.SecurityContext.RunAsNonRoot) || mfDeref(pod.SecurityContext.RunAsUser) == 0 {
		t.Errorf("pod securityContext %s, want runAsNonRoot and a non-zero runAsUser", mfToJSON(pod.SecurityContext))
	}
	if len(pod.Containers) != 1 {
		t.Fatalf("Deployment has %d containers, want 1", len(pod.Containers))
	}
	c := pod.Containers[0]
	if sc := c.SecurityContext; sc == nil || !mfDeref(sc.ReadOnlyRootFilesystem) || mfDeref(sc.AllowPrivilegeEscalation) {
		t.Errorf("container securityContext %s, want readOnlyRootFilesystem and no privilege escalation", mfToJSON(sc))
	}
	if c.Resources.Requests.Cpu().IsZero() || c.Resources.Requests.Memory().IsZero() {
		t.Errorf("container requests %v, want cpu and memory", c.Resources.Requests)
	}
	if got := mfFlagValue(t, d, "--healthz-address"); got != ":11251" {
		t.Errorf("--healthz-address=%s, want :11251", got)
	}
	healthPort := map[string]int32{}
	for _, p := range c.Ports {
		healthPort[p.Name] = p.ContainerPort
	}
	for name, probe := range map[string]*corev1.Probe{"/readyz": c.ReadinessProbe, "/healthz": c.LivenessProbe} {
		if probe == nil || probe.HTTPGet == nil {
			t.Errorf("no HTTP probe for %s", name)
			continue
		}
		g := probe.HTTPGet
		port := g.Port.IntVal
		if g.Port.StrVal != "" {
			port = healthPort[g.Port.StrVal]
		}
		if g.Path != name || port != 11251 || g.Scheme != corev1.URISchemeHTTP {
			t.Errorf("probe for %s is %s %s port %d, want HTTP on 11251", name, g.Scheme, g.Path, port)
		}
	}
	certDir := filepath.Dir(mfFlagValue(t, d, "--tls-cert-file"))
	mounted := false
	for _, m := range c.VolumeMounts {
		for _, v := range pod.Volumes {
			if v.Name == m.Name && v.Secret != nil && v.Secret.SecretName == mfSecret && m.MountPath == certDir && m.SubPath == "" {
				mounted = true
			}
		}
	}
	if !mounted {
		t.Errorf("Secret %s is not mounted whole at %s, where --tls-cert-file points", mfSecret, certDir)
	}
}

// mfCheckRegistration compares one rendered configuration with Volcano's chart.
func mfCheckRegistration(t *testing.T, reg mfRegistration, o mfObject) {
	t.Helper()
	var hooks []admissionv1.ValidatingWebhook // the fields checked here are common to both kinds
	var reinvocation *admissionv1.ReinvocationPolicyType
	if reg.kind == mfMutating {
		var m admissionv1.MutatingWebhookConfiguration
		o.into(t, &m)
		for _, h := range m.Webhooks {
			reinvocation = h.ReinvocationPolicy
			hooks = append(hooks, admissionv1.ValidatingWebhook{Name: h.Name, ClientConfig: h.ClientConfig, Rules: h.Rules,
				FailurePolicy: h.FailurePolicy, MatchPolicy: h.MatchPolicy, NamespaceSelector: h.NamespaceSelector,
				ObjectSelector: h.ObjectSelector, SideEffects: h.SideEffects, TimeoutSeconds: h.TimeoutSeconds,
				AdmissionReviewVersions: h.AdmissionReviewVersions})
		}
		if reinvocation == nil || *reinvocation != admissionv1.NeverReinvocationPolicy {
			t.Errorf("%s: reinvocationPolicy %v, want Never", o.GetName(), mfDeref(reinvocation))
		}
	} else {
		var v admissionv1.ValidatingWebhookConfiguration
		o.into(t, &v)
		hooks = v.Webhooks
	}
	name := o.GetName()
	if len(hooks) != 1 {
		t.Errorf("%s: %d webhooks, want 1", name, len(hooks))
		return
	}
	h := hooks[0]
	if h.Name != reg.webhook {
		t.Errorf("%s: webhook name %q, want Volcano's %q", name, h.Name, reg.webhook)
	}
	cc := h.ClientConfig
	if cc.URL != nil || cc.Service == nil || cc.Service.Name != mfService || cc.Service.Namespace != mfNamespace ||
		mfDeref(cc.Service.Path) != reg.path || mfDeref(cc.Service.Port) != 443 {
		t.Errorf("%s: clientConfig %s, want service %s/%s port 443 path %s", name, mfToJSON(cc), mfNamespace, mfService, reg.path)
	}
	if len(cc.CABundle) != 0 {
		t.Errorf("%s: the base sets a caBundle; it must not (re-applying would overwrite the one the webhook writes)", name)
	}
	if mfDeref(h.FailurePolicy) != admissionv1.Fail || mfDeref(h.MatchPolicy) != admissionv1.Equivalent || mfDeref(h.TimeoutSeconds) != 10 {
		t.Errorf("%s: failurePolicy %v matchPolicy %v timeoutSeconds %v, want Fail, Equivalent, 10",
			name, mfDeref(h.FailurePolicy), mfDeref(h.MatchPolicy), mfDeref(h.TimeoutSeconds))
	}
	if !slices.Equal(h.AdmissionReviewVersions, []string{"v1"}) {
		t.Errorf("%s: admissionReviewVersions %v, want [v1]", name, h.AdmissionReviewVersions)
	}
	wantSide, wantScope := admissionv1.SideEffectClassNoneOnDryRun, admissionv1.AllScopes
	var wantNS *metav1.LabelSelector
	if !reg.isHyperNodes() {
		wantNS = &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{
			Key: "kubernetes.io/metadata.name", Operator: metav1.LabelSelectorOpNotIn, Values: []string{mfNamespace, "kube-system"}}}}
		if h.ObjectSelector == nil || !reflect.DeepEqual(*h.ObjectSelector, metav1.LabelSelector{}) {
			t.Errorf("%s: objectSelector %s, want {}", name, mfToJSON(h.ObjectSelector))
		}
	} else {
		wantSide = admissionv1.SideEffectClassNone
	}
	if mfDeref(h.SideEffects) != wantSide {
		t.Errorf("%s: sideEffects %v, want %v", name, mfDeref(h.SideEffects), wantSide)
	}
	if !reflect.DeepEqual(h.NamespaceSelector, wantNS) {
		t.Errorf("%s: namespaceSelector %s, want %s", name, mfToJSON(h.NamespaceSelector), mfToJSON(wantNS))
	}
	if len(h.Rules) != 1 {
		t.Errorf("%s: %d rules, want 1", name, len(h.Rules))
		return
	}
	r := h.Rules[0]
	if !slices.Equal(r.APIGroups, []string{reg.group}) || !slices.Equal(r.APIVersions, []string{reg.version}) ||
		!slices.Equal(r.Resources, []string{reg.resource}) || !slices.Equal(r.Operations, reg.ops) {
		t.Errorf("%s: rule %s, want %s/%s %s %v", name, mfToJSON(r), reg.group, reg.version, reg.resource, reg.ops)
	}
	if reg.isHyperNodes() && r.Scope != nil {
		t.Errorf("%s: scope %v, want none (Volcano's chart sets none for hypernodes)", name, *r.Scope)
	}
	if !reg.isHyperNodes() && mfDeref(r.Scope) != wantScope {
		t.Errorf("%s: scope %v, want *", name, mfDeref(r.Scope))
	}
}

// TestManifestsWebhookBaseServerDryRun: `kubectl apply --dry-run=server -k manifests/webhook`
// is accepted by the API server for every object of the base, and stores nothing.
func TestManifestsWebhookBaseServerDryRun(t *testing.T) {
	clients := mfLoadClients(t)
	mfEnsureWebhookNamespace(t, clients)
	before := mfSnapshotWebhookConfigs(t, clients)

	out := mfKubectl(t, "apply", "--dry-run=server", "-k", filepath.Join(mfRepoRoot(t), "manifests", "webhook"))
	want := []string{
		"namespace/" + mfNamespace,
		"serviceaccount/volcano-admission",
		"clusterrole.rbac.authorization.k8s.io/volcano-admission",
		"clusterrolebinding.rbac.authorization.k8s.io/volcano-admission-role",
		"configmap/volcano-admission-configmap",
		"service/" + mfService,
		"deployment.apps/volcano-admission",
		"poddisruptionbudget.policy/volcano-admission",
	}
	for _, reg := range mfRegistrations {
		want = append(want, strings.ToLower(reg.kind)+".admissionregistration.k8s.io/"+reg.configName())
	}
	created := mfCheckDryRunReport(t, out, want)

	// Nothing the dry run reported as created may exist now.
	for _, ref := range created {
		if got := strings.TrimSpace(mfKubectl(t, "get", ref, "-n", mfNamespace, "--ignore-not-found", "-o", "name")); got != "" {
			t.Errorf("%s exists after a dry run reported it created", got)
		}
	}
	mfCheckWebhookConfigsUnchanged(t, clients, before)
}

// TestManifestsCertManagerOverlay: the cert-manager overlay issues the Secret the Deployment
// mounts from a CA chain, and asks cainjector to fill every caBundle from that certificate. A
// server dry run of the cert-manager objects is impossible (no cert-manager CRDs here), so
// those are checked as rendered and the rest of the overlay is dry-run against the server.
func TestManifestsCertManagerOverlay(t *testing.T) {
	root := mfRepoRoot(t)
	base := mfRenderKustomize(t, filepath.Join(root, "manifests", "webhook"))
	objs := mfRenderKustomize(t, filepath.Join(root, "manifests", "overlays", "webhook-cert-manager"))

	issuers := map[string]*unstructured.Unstructured{}
	certs := map[string]*unstructured.Unstructured{}
	var rest []mfObject
	for _, o := range objs {
		switch {
		case o.GetAPIVersion() == "cert-manager.io/v1" && o.GetKind() == "Issuer":
			issuers[o.GetName()] = o.Unstructured
		case o.GetAPIVersion() == "cert-manager.io/v1" && o.GetKind() == "Certificate":
			certs[o.GetName()] = o.Unstructured
		default:
			rest = append(rest, o)
		}
		if strings.HasPrefix(o.GetAPIVersion(), "cert-manager.io/") && o.GetNamespace() != mfNamespace {
			t.Errorf("%s %s is in namespace %q, want %s", o.GetKind(), o.GetName(), o.GetNamespace(), mfNamespace)
		}
	}
	if len(rest) != len(base) {
		t.Errorf("overlay holds %d non-cert-manager objects, the base %d: the overlay must keep the whole base", len(rest), len(base))
	}

	// The serving Certificate: the one that writes the Secret the Deployment mounts.
	var serving *unstructured.Unstructured
	for _, c := range certs {
		if mfStr(c, "spec", "secretName") == mfSecret {
			if serving != nil {
				t.Fatalf("Certificates %s and %s both write %s", serving.GetName(), c.GetName(), mfSecret)
			}
			serving = c
		}
	}
	if serving == nil {
		t.Fatalf("no Certificate writes Secret %s; Certificates: %v", mfSecret, mfSortedKeys(certs))
	}
	dns, _, _ := unstructured.NestedStringSlice(serving.Object, "spec", "dnsNames")
	ips, _, _ := unstructured.NestedStringSlice(serving.Object, "spec", "ipAddresses")
	for _, n := range mfServiceDNSNames {
		if !slices.Contains(dns, n) {
			t.Errorf("Certificate %s dnsNames %v lack %s", serving.GetName(), dns, n)
		}
	}
	if !slices.Contains(ips, "127.0.0.1") {
		t.Errorf("Certificate %s ipAddresses %v lack 127.0.0.1", serving.GetName(), ips)
	}

	// Its issuer is a CA Issuer of this overlay whose CA is itself a Certificate here (isCA),
	// issued by a self-signed Issuer: renewing the serving certificate keeps the CA.
	issuerName := mfStr(serving, "spec", "issuerRef", "name")
	caIssuer, ok := issuers[issuerName]
	if !ok || mfStr(serving, "spec", "issuerRef", "kind") != "Issuer" {
		t.Fatalf("serving Certificate's issuerRef %v names no Issuer of the overlay (%v)",
			serving.Object["spec"].(map[string]interface{})["issuerRef"], mfSortedKeys(issuers))
	}
	caSecret := mfStr(caIssuer, "spec", "ca", "secretName")
	var ca *unstructured.Unstructured
	for _, c := range certs {
		if mfStr(c, "spec", "secretName") == caSecret && caSecret != "" {
			ca = c
		}
	}
	if ca == nil {
		t.Fatalf("Issuer %s is not a CA issuer backed by a Certificate of the overlay (spec.ca.secretName %q)", issuerName, caSecret)
	}
	if isCA, _, _ := unstructured.NestedBool(ca.Object, "spec", "isCA"); !isCA {
		t.Errorf("CA Certificate %s lacks isCA: true", ca.GetName())
	}
	if root, ok := issuers[mfStr(ca, "spec", "issuerRef", "name")]; !ok {
		t.Errorf("CA Certificate %s is issued by %q, not an Issuer of the overlay", ca.GetName(), mfStr(ca, "spec", "issuerRef", "name"))
	} else if _, self, _ := unstructured.NestedMap(root.Object, "spec", "selfSigned"); !self {
		t.Errorf("Issuer %s of the CA is not selfSigned", root.GetName())
	}

	// Every webhook configuration points cainjector at the serving Certificate.
	wantRef := mfNamespace + "/" + serving.GetName()
	n := 0
	for _, o := range rest {
		if o.GetKind() != mfMutating && o.GetKind() != mfValidating {
			continue
		}
		n++
		if got := o.GetAnnotations()[mfInjectCAFrom]; got != wantRef {
			t.Errorf("%s %s: %s = %q, want %q", o.GetKind(), o.GetName(), mfInjectCAFrom, got, wantRef)
		}
	}
	if n != len(mfRegistrations) {
		t.Errorf("overlay holds %d webhook configurations, want %d", n, len(mfRegistrations))
	}

	// The API server accepts the rest of the overlay, annotations included.
	clients := mfLoadClients(t)
	mfEnsureWebhookNamespace(t, clients)
	before := mfSnapshotWebhookConfigs(t, clients)
	var list struct {
		APIVersion string            `json:"apiVersion"`
		Kind       string            `json:"kind"`
		Items      []json.RawMessage `json:"items"`
	}
	list.APIVersion, list.Kind = "v1", "List"
	for _, o := range rest {
		list.Items = append(list.Items, o.json)
	}
	file := filepath.Join(t.TempDir(), "overlay-without-cert-manager.json")
	mfWriteFile(t, file, []byte(mfToJSON(list)))
	out := mfKubectl(t, "apply", "--dry-run=server", "-f", file)
	if got, want := len(mfParseDryRunReport(t, out)), len(rest); got != want {
		t.Errorf("server dry run reported %d objects, want %d:\n%s", got, want, out)
	}
	mfCheckWebhookConfigsUnchanged(t, clients, before)
}

// TestManifestsCertsSecretAndRotation exercises certs/gen-certs.sh in a directory of its own:
// the Secret it prints is valid for the API server and carries a serving certificate for every
// service name and 127.0.0.1; re-issuing the serving certificate keeps the CA; a CA rotation
// keeps every step's serving certificate trusted by that step's published bundle. The bundle
// publishing script is dry-run against the cluster's real configurations.
func TestManifestsCertsSecretAndRotation(t *testing.T) {
	root := mfRepoRoot(t)
	gen := filepath.Join(root, "certs", "gen-certs.sh")
	dir := t.TempDir()
	clients := mfLoadClients(t)
	mfEnsureWebhookNamespace(t, clients)

	secret := mfSecretFromGenerator(t, gen, dir)
	leaf := mfCheckServingPair(t, secret, "initial")
	if n := len(mfPemCerts(t, secret.Data["ca.crt"])); n != 1 {
		t.Errorf("initial ca.crt holds %d certificates, want 1", n)
	}
	secretFile := filepath.Join(dir, "secret.yaml")
	mfWriteFile(t, secretFile, []byte(mfRun(t, gen, dir, "secret")))
	report := mfParseDryRunReport(t, mfKubectl(t, "apply", "--dry-run=server", "-f", secretFile))
	if _, ok := report["secret/"+mfSecret]; !ok || len(report) != 1 {
		t.Errorf("server dry run of the Secret reported %v, want secret/%s only", report, mfSecret)
	}

	// (a) The serving certificate re-issued by the same CA.
	oldCA := secret.Data["ca.crt"]
	mfRun(t, gen, dir, "webhook")
	secret = mfSecretFromGenerator(t, gen, dir)
	reissued := mfCheckServingPair(t, secret, "re-issued")
	if reissued.SerialNumber.Cmp(leaf.SerialNumber) == 0 || !bytes.Equal(secret.Data["ca.crt"], oldCA) {
		t.Errorf("re-issue: want a new serial (old %v, new %v) under the unchanged CA", leaf.SerialNumber, reissued.SerialNumber)
	}

	// (b) CA rotation, step 1: publish old+new CA while the old CA's certificate is served.
	mfRun(t, gen, dir, "ca-rotate-begin")
	secret = mfSecretFromGenerator(t, gen, dir)
	bundle := secret.Data["ca.crt"]
	if n := len(mfPemCerts(t, bundle)); n != 2 || !bytes.HasPrefix(bundle, oldCA) {
		t.Errorf("begin: ca.crt holds %d certificates, want the old CA followed by the new one", n)
	}
	if served := mfCheckServingPair(t, secret, "begin"); served.SerialNumber.Cmp(reissued.SerialNumber) != 0 {
		t.Errorf("begin changed the serving certificate; it must only add the new CA")
	}
	mfPublishBundleDryRun(t, clients, filepath.Join(root, "certs", "publish-ca-bundle.sh"), filepath.Join(dir, "ca-bundle.crt"))

	// Step 2: serve a certificate of the new CA; the bundle still trusts both.
	mfRun(t, gen, dir, "ca-rotate-switch")
	secret = mfSecretFromGenerator(t, gen, dir)
	switched := mfCheckServingPair(t, secret, "switch")
	newCA := mfPemCerts(t, bundle)[1]
	if err := mfVerifyLeaf(switched, newCA); err != nil {
		t.Errorf("switch: serving certificate is not issued by the new CA: %v", err)
	}
	if err := mfVerifyLeaf(switched, mfPemCerts(t, oldCA)[0]); err == nil {
		t.Errorf("switch: serving certificate still verifies against the old CA alone")
	}
	if n := len(mfPemCerts(t, secret.Data["ca.crt"])); n != 2 {
		t.Errorf("switch: ca.crt holds %d certificates, want 2 (the old CA stays until finish)", n)
	}

	// Step 3: drop the old CA.
	mfRun(t, gen, dir, "ca-rotate-finish")
	secret = mfSecretFromGenerator(t, gen, dir)
	mfCheckServingPair(t, secret, "finish")
	if cas := mfPemCerts(t, secret.Data["ca.crt"]); len(cas) != 1 || !cas[0].Equal(newCA) {
		t.Errorf("finish: ca.crt holds %d certificates, want only the new CA", len(cas))
	}

	// The cluster's own PKI (its CA signs the API server's certificate) is never rotated.
	clusterDir := t.TempDir()
	mfRun(t, gen, clusterDir, "webhook")
	mfWriteFile(t, filepath.Join(clusterDir, "apiserver.crt"), nil)
	cmd := exec.Command(gen, clusterDir, "ca-rotate-begin")
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "apiserver.crt") {
		t.Errorf("ca-rotate-begin in a cluster PKI directory: err=%v output=%q; want a refusal naming apiserver.crt", err, out)
	}
}

// ---- certificates

func mfSecretFromGenerator(t *testing.T, gen, dir string) corev1.Secret {
	t.Helper()
	objs := mfDecodeObjects(t, []byte(mfRun(t, gen, dir, "secret")))
	if len(objs) != 1 || objs[0].GetKind() != "Secret" {
		t.Fatalf("gen-certs.sh secret printed %d objects, want one Secret", len(objs))
	}
	var s corev1.Secret
	objs[0].into(t, &s)
	if s.Name != mfSecret || s.Namespace != mfNamespace {
		t.Errorf("Secret is %s/%s, want %s/%s", s.Namespace, s.Name, mfNamespace, mfSecret)
	}
	return s
}

// mfCheckServingPair asserts that tls.crt and tls.key form a pair, that the certificate is for
// server auth, names every service DNS name and 127.0.0.1, and is trusted by ca.crt for each.
func mfCheckServingPair(t *testing.T, s corev1.Secret, step string) *x509.Certificate {
	t.Helper()
	for _, k := range []string{"tls.crt", "tls.key", "ca.crt"} {
		if len(s.Data[k]) == 0 {
			t.Fatalf("%s: Secret has no %s", step, k)
		}
	}
	if _, err := tls.X509KeyPair(s.Data["tls.crt"], s.Data["tls.key"]); err != nil {
		t.Fatalf("%s: tls.crt and tls.key are not a pair: %v", step, err)
	}
	leaf := mfPemCerts(t, s.Data["tls.crt"])[0]
	if !slices.Contains(leaf.ExtKeyUsage, x509.ExtKeyUsageServerAuth) {
		t.Errorf("%s: serving certificate lacks extended key usage serverAuth", step)
	}
	roots := x509.NewCertPool()
	for _, c := range mfPemCerts(t, s.Data["ca.crt"]) {
		roots.AddCert(c)
	}
	for _, name := range append(slices.Clone(mfServiceDNSNames), "127.0.0.1") {
		if _, err := leaf.Verify(x509.VerifyOptions{DNSName: name, Roots: roots}); err != nil {
			t.Errorf("%s: serving certificate not valid for %s under ca.crt: %v", step, name, err)
		}
	}
	return leaf
}

func mfVerifyLeaf(leaf, ca *x509.Certificate) error {
	roots := x509.NewCertPool()
	roots.AddCert(ca)
	_, err := leaf.Verify(x509.VerifyOptions{Roots: roots})
	return err
}

func mfPemCerts(t *testing.T, data []byte) []*x509.Certificate {
	t.Helper()
	var out []*x509.Certificate
	for rest := data; ; {
		var block *pem.Block
		if block, rest = pem.Decode(rest); block == nil {
			break
		}
		c, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			t.Fatalf("parse certificate: %v", err)
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		t.Fatalf("no PEM certificate in %q", data)
	}
	return out
}

// mfPublishBundleDryRun runs publish-ca-bundle.sh with --dry-run=server against the cluster's
// configurations, if it has any (none when the cluster runs without a webhook).
func mfPublishBundleDryRun(t *testing.T, clients *framework.Clients, script, bundle string) {
	t.Helper()
	before := mfSnapshotWebhookConfigs(t, clients)
	if len(before) == 0 {
		t.Logf("no volcano-admission-service-* configurations in the cluster: publish-ca-bundle.sh not exercised")
		return
	}
	cmd := exec.Command(script, bundle, "--dry-run=server")
	cmd.Env = append(os.Environ(), "KUBECTL="+mfKubectlPath(t))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("publish-ca-bundle.sh --dry-run=server: %v\n%s", err, out)
	}
	if n := strings.Count(string(out), " patched\n"); n != len(before) {
		t.Errorf("publish-ca-bundle.sh patched %d configurations, want %d:\n%s", n, len(before), out)
	}
	mfCheckWebhookConfigsUnchanged(t, clients, before)
}

// ---- the cluster's webhook configurations

// mfSnapshotWebhookConfigs returns the clientConfig of every volcano-admission-service-*
// configuration in the cluster, as JSON, keyed by kind/name.
func mfSnapshotWebhookConfigs(t *testing.T, clients *framework.Clients) map[string]string {
	t.Helper()
	snap := map[string]string{}
	ctx := context.Background()
	muts, err := clients.Kube.AdmissionregistrationV1().MutatingWebhookConfigurations().List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatalf("list mutating webhook configurations: %v", err)
	}
	for _, c := range muts.Items {
		if strings.HasPrefix(c.Name, mfService+"-") {
			for _, h := range c.Webhooks {
				snap[mfMutating+"/"+c.Name] += mfToJSON(h.ClientConfig)
			}
		}
	}
	vals, err := clients.Kube.AdmissionregistrationV1().ValidatingWebhookConfigurations().List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatalf("list validating webhook configurations: %v", err)
	}
	for _, c := range vals.Items {
		if strings.HasPrefix(c.Name, mfService+"-") {
			for _, h := range c.Webhooks {
				snap[mfValidating+"/"+c.Name] += mfToJSON(h.ClientConfig)
			}
		}
	}
	return snap
}

func mfCheckWebhookConfigsUnchanged(t *testing.T, clients *framework.Clients, before map[string]string) {
	t.Helper()
	after := mfSnapshotWebhookConfigs(t, clients)
	if !reflect.DeepEqual(before, after) {
		for k := range before {
			if before[k] != after[k] {
				t.Errorf("%s changed by a dry run:\n before %s\n after  %s", k, before[k], after[k])
			}
		}
		t.Errorf("webhook configurations before %v, after %v", mfSortedKeys(before), mfSortedKeys(after))
	}
}

// mfEnsureWebhookNamespace creates volcano-system if it is missing (namespaced objects cannot be
// dry-run into a namespace that does not exist), and deletes it at the end only if it did.
func mfEnsureWebhookNamespace(t *testing.T, clients *framework.Clients) {
	t.Helper()
	nss := clients.Kube.CoreV1().Namespaces()
	_, err := nss.Get(context.Background(), mfNamespace, metav1.GetOptions{})
	if err == nil {
		return
	}
	if !apierrors.IsNotFound(err) {
		t.Fatalf("get namespace %s: %v", mfNamespace, err)
	}
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: mfNamespace}}
	if _, err := nss.Create(context.Background(), ns, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatalf("create namespace %s: %v", mfNamespace, err)
	}
	t.Logf("created namespace %s for the dry runs", mfNamespace)
	t.Cleanup(func() {
		if err := nss.Delete(context.Background(), mfNamespace, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("delete namespace %s: %v", mfNamespace, err)
			return
		}
		framework.WaitFor(t, "namespace "+mfNamespace+" gone", framework.NamespaceDeleteTimeout, func() (bool, string, error) {
			_, err := nss.Get(context.Background(), mfNamespace, metav1.GetOptions{})
			if apierrors.IsNotFound(err) {
				return true, "gone", nil
			}
			return false, "still present", err
		})
	})
}

// ---- kubectl and kustomize

var mfDryRunLine = regexp.MustCompile(`^(\S+) (created|configured|unchanged) \(server dry run\)$`)

// mfParseDryRunReport maps each object kubectl reported (resource/name) to its verb, and fails
// on any other line.
func mfParseDryRunReport(t *testing.T, out string) map[string]string {
	t.Helper()
	report := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		m := mfDryRunLine.FindStringSubmatch(line)
		if m == nil {
			t.Errorf("unexpected kubectl output line %q", line)
			continue
		}
		if _, dup := report[m[1]]; dup {
			t.Errorf("%s reported twice", m[1])
		}
		report[m[1]] = m[2]
	}
	return report
}

// mfCheckDryRunReport asserts that kubectl reported exactly the objects in want, and returns
// the ones it reported as created.
func mfCheckDryRunReport(t *testing.T, out string, want []string) []string {
	t.Helper()
	report := mfParseDryRunReport(t, out)
	var created []string
	for _, ref := range want {
		verb, ok := report[ref]
		if !ok {
			t.Errorf("%s was not reported by the server dry run", ref)
			continue
		}
		t.Logf("%s %s (server dry run)", ref, verb)
		if verb == "created" {
			created = append(created, ref)
		}
		delete(report, ref)
	}
	if len(report) != 0 {
		t.Errorf("server dry run reported objects this test does not expect: %v", report)
	}
	return created
}

type mfObject struct {
	*unstructured.Unstructured
	json []byte
}

func (o mfObject) into(t *testing.T, v interface{}) {
	t.Helper()
	if err := json.Unmarshal(o.json, v); err != nil {
		t.Fatalf("decode %s %s: %v", o.GetKind(), o.GetName(), err)
	}
}

func mfRenderKustomize(t *testing.T, dir string) []mfObject {
	t.Helper()
	objs := mfDecodeObjects(t, []byte(mfKubectl(t, "kustomize", dir)))
	if len(objs) == 0 {
		t.Fatalf("kubectl kustomize %s rendered nothing", dir)
	}
	return objs
}

func mfDecodeObjects(t *testing.T, data []byte) []mfObject {
	t.Helper()
	var out []mfObject
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
		out = append(out, mfObject{Unstructured: u, json: js})
	}
}

func mfFindObject(t *testing.T, objs []mfObject, kind, name string) mfObject {
	t.Helper()
	for _, o := range objs {
		if o.GetKind() == kind && o.GetName() == name {
			return o
		}
	}
	t.Fatalf("no %s %s rendered", kind, name)
	return mfObject{}
}

// mfFlagValue returns the value of --name=value among the first container's args.
func mfFlagValue(t *testing.T, d appsv1.Deployment, name string) string {
	t.Helper()
	for _, a := range d.Spec.Template.Spec.Containers[0].Args {
		if v, ok := strings.CutPrefix(a, name+"="); ok {
			return v
		}
	}
	t.Fatalf("Deployment %s passes no %s", d.Name, name)
	return ""
}

// mfKubectl runs kubectl (KUBECONFIG from the environment) and returns its stdout; a non-zero
// exit fails the test with stderr.
func mfKubectl(t *testing.T, args ...string) string {
	t.Helper()
	return mfRun(t, mfKubectlPath(t), args...)
}

func mfRun(t *testing.T, bin string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), mfCommandTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\nstdout:\n%s\nstderr:\n%s", filepath.Base(bin), strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	return stdout.String()
}

// mfKubectlPath is $KUBECTL (run-e2e.sh exports the cluster's own), else kubectl on PATH.
func mfKubectlPath(t *testing.T) string {
	t.Helper()
	if k := os.Getenv("KUBECTL"); k != "" {
		return k
	}
	k, err := exec.LookPath("kubectl")
	if err != nil {
		t.Fatalf("no kubectl: set KUBECTL or put kubectl on PATH")
	}
	return k
}

// mfRepoRoot is $VC_REPO, else the repository two levels above this package.
func mfRepoRoot(t *testing.T) string {
	t.Helper()
	root := os.Getenv("VC_REPO")
	if root == "" {
		var err error
		if root, err = filepath.Abs(filepath.Join("..", "..")); err != nil {
			t.Fatalf("repository root: %v", err)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "manifests", "webhook", "kustomization.yaml")); err != nil {
		t.Fatalf("%s is not the repository root (set VC_REPO): %v", root, err)
	}
	return root
}

func mfLoadClients(t *testing.T) *framework.Clients {
	t.Helper()
	c, err := framework.LoadClients()
	if err != nil {
		t.Fatalf("%v", err)
	}
	return c
}

// ---- small helpers

func mfWriteFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatalf("write %s: %v", path, err)
	}
}

func mfStr(u *unstructured.Unstructured, fields ...string) string {
	s, _, _ := unstructured.NestedString(u.Object, fields...)
	return s
}

func mfDeref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

func mfToJSON(v interface{}) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return string(b)
}

func mfSortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func mfSortedCopy(s []string) []string {
	c := slices.Clone(s)
	sort.Strings(c)
	return c
}

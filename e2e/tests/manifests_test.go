package tests

// The webhook's install artefacts: the kustomize base manifests/webhook (rendered from
// charts/vc-cpp, see chart_test.go), its cert-manager overlay and the certificate tooling in
// certs/. They are checked against the live API server
// with server-side dry runs, which validate every object as a real apply would and store
// nothing: the cluster's own webhook configurations (URL mode) must come out untouched.

import (
	"bytes"
	"context"
	"crypto/x509"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"vc-cpp.local/e2e/tests/framework"
)

const mfNamespace = "volcano-system"

// TestManifestsWebhookConfigurationsMatchVolcano: the base registers all eleven of Volcano's
// webhook configurations, in service mode and without a caBundle (the webhook writes it), and
// everything that must agree with them does: the Deployment serves every registered path and
// the ClusterRole's resourceNames are exactly these names. The Deployment is the one the chart
// renders for our binary (framework.CheckWebhookDeployment).
func TestManifestsWebhookConfigurationsMatchVolcano(t *testing.T) {
	objs := framework.RenderKustomize(t, filepath.Join(mfRepoRoot(t), "manifests", "webhook"))
	framework.CheckAdmissionAgreement(t, objs, mfNamespace, framework.AllAdmissionPaths(), nil, false)
	var d appsv1.Deployment
	framework.FindManifest(t, objs, "Deployment", "volcano-admission").Into(t, &d)
	framework.CheckWebhookDeployment(t, d, framework.WebhookImplOurs)
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
		"service/" + framework.WebhookService,
		"deployment.apps/volcano-admission",
		"poddisruptionbudget.policy/volcano-admission",
	}
	for _, reg := range framework.AdmissionRegistrations {
		want = append(want, strings.ToLower(reg.Kind)+".admissionregistration.k8s.io/"+reg.ConfigName())
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
	base := framework.RenderKustomize(t, filepath.Join(root, "manifests", "webhook"))
	objs := framework.RenderKustomize(t, filepath.Join(root, "manifests", "overlays", "webhook-cert-manager"))
	rest := framework.CheckCertManagerIssuance(t, objs, mfNamespace)
	if len(rest) != len(base) {
		t.Errorf("overlay holds %d non-cert-manager objects, the base %d: the overlay must keep the whole base", len(rest), len(base))
	}
	configs := len(framework.ManifestsOfKind(rest, framework.WebhookMutating)) + len(framework.ManifestsOfKind(rest, framework.WebhookValidating))
	if configs != len(framework.AdmissionRegistrations) {
		t.Errorf("overlay holds %d webhook configurations, want %d", configs, len(framework.AdmissionRegistrations))
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
		list.Items = append(list.Items, o.JSON)
	}
	file := filepath.Join(t.TempDir(), "overlay-without-cert-manager.json")
	mfWriteFile(t, file, []byte(framework.ToJSON(list)))
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
	if n := len(framework.PEMCertificates(t, secret.Data["ca.crt"])); n != 1 {
		t.Errorf("initial ca.crt holds %d certificates, want 1", n)
	}
	secretFile := filepath.Join(dir, "secret.yaml")
	mfWriteFile(t, secretFile, []byte(framework.RunTool(t, gen, dir, "secret")))
	report := mfParseDryRunReport(t, mfKubectl(t, "apply", "--dry-run=server", "-f", secretFile))
	if _, ok := report["secret/"+framework.WebhookSecret]; !ok || len(report) != 1 {
		t.Errorf("server dry run of the Secret reported %v, want secret/%s only", report, framework.WebhookSecret)
	}

	// (a) The serving certificate re-issued by the same CA.
	oldCA := secret.Data["ca.crt"]
	framework.RunTool(t, gen, dir, "webhook")
	secret = mfSecretFromGenerator(t, gen, dir)
	reissued := mfCheckServingPair(t, secret, "re-issued")
	if reissued.SerialNumber.Cmp(leaf.SerialNumber) == 0 || !bytes.Equal(secret.Data["ca.crt"], oldCA) {
		t.Errorf("re-issue: want a new serial (old %v, new %v) under the unchanged CA", leaf.SerialNumber, reissued.SerialNumber)
	}

	// (b) CA rotation, step 1: publish old+new CA while the old CA's certificate is served.
	framework.RunTool(t, gen, dir, "ca-rotate-begin")
	secret = mfSecretFromGenerator(t, gen, dir)
	bundle := secret.Data["ca.crt"]
	if n := len(framework.PEMCertificates(t, bundle)); n != 2 || !bytes.HasPrefix(bundle, oldCA) {
		t.Errorf("begin: ca.crt holds %d certificates, want the old CA followed by the new one", n)
	}
	if served := mfCheckServingPair(t, secret, "begin"); served.SerialNumber.Cmp(reissued.SerialNumber) != 0 {
		t.Errorf("begin changed the serving certificate; it must only add the new CA")
	}
	mfPublishBundleDryRun(t, clients, filepath.Join(root, "certs", "publish-ca-bundle.sh"), filepath.Join(dir, "ca-bundle.crt"))

	// Step 2: serve a certificate of the new CA; the bundle still trusts both.
	framework.RunTool(t, gen, dir, "ca-rotate-switch")
	secret = mfSecretFromGenerator(t, gen, dir)
	switched := mfCheckServingPair(t, secret, "switch")
	newCA := framework.PEMCertificates(t, bundle)[1]
	if err := mfVerifyLeaf(switched, newCA); err != nil {
		t.Errorf("switch: serving certificate is not issued by the new CA: %v", err)
	}
	if err := mfVerifyLeaf(switched, framework.PEMCertificates(t, oldCA)[0]); err == nil {
		t.Errorf("switch: serving certificate still verifies against the old CA alone")
	}
	if n := len(framework.PEMCertificates(t, secret.Data["ca.crt"])); n != 2 {
		t.Errorf("switch: ca.crt holds %d certificates, want 2 (the old CA stays until finish)", n)
	}

	// Step 3: drop the old CA.
	framework.RunTool(t, gen, dir, "ca-rotate-finish")
	secret = mfSecretFromGenerator(t, gen, dir)
	mfCheckServingPair(t, secret, "finish")
	if cas := framework.PEMCertificates(t, secret.Data["ca.crt"]); len(cas) != 1 || !cas[0].Equal(newCA) {
		t.Errorf("finish: ca.crt holds %d certificates, want only the new CA", len(cas))
	}

	// The cluster's own PKI (its CA signs the API server's certificate) is never rotated.
	clusterDir := t.TempDir()
	framework.RunTool(t, gen, clusterDir, "webhook")
	mfWriteFile(t, filepath.Join(clusterDir, "apiserver.crt"), nil)
	cmd := exec.Command(gen, clusterDir, "ca-rotate-begin")
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "apiserver.crt") {
		t.Errorf("ca-rotate-begin in a cluster PKI directory: err=%v output=%q; want a refusal naming apiserver.crt", err, out)
	}
}

// ---- certificates

func mfSecretFromGenerator(t *testing.T, gen, dir string) corev1.Secret {
	t.Helper()
	objs := framework.DecodeManifests(t, []byte(framework.RunTool(t, gen, dir, "secret")))
	if len(objs) != 1 || objs[0].GetKind() != "Secret" {
		t.Fatalf("gen-certs.sh secret printed %d objects, want one Secret", len(objs))
	}
	var s corev1.Secret
	objs[0].Into(t, &s)
	if s.Name != framework.WebhookSecret || s.Namespace != mfNamespace {
		t.Errorf("Secret is %s/%s, want %s/%s", s.Namespace, s.Name, mfNamespace, framework.WebhookSecret)
	}
	return s
}

// mfCheckServingPair checks the Secret's serving certificate (framework.CheckServingCertificate).
func mfCheckServingPair(t *testing.T, s corev1.Secret, step string) *x509.Certificate {
	t.Helper()
	return framework.CheckServingCertificate(t, s.Data["tls.crt"], s.Data["tls.key"], s.Data["ca.crt"], mfNamespace, step)
}

func mfVerifyLeaf(leaf, ca *x509.Certificate) error {
	roots := x509.NewCertPool()
	roots.AddCert(ca)
	_, err := leaf.Verify(x509.VerifyOptions{Roots: roots})
	return err
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
		if strings.HasPrefix(c.Name, framework.WebhookService+"-") {
			for _, h := range c.Webhooks {
				snap[framework.WebhookMutating+"/"+c.Name] += framework.ToJSON(h.ClientConfig)
			}
		}
	}
	vals, err := clients.Kube.AdmissionregistrationV1().ValidatingWebhookConfigurations().List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatalf("list validating webhook configurations: %v", err)
	}
	for _, c := range vals.Items {
		if strings.HasPrefix(c.Name, framework.WebhookService+"-") {
			for _, h := range c.Webhooks {
				snap[framework.WebhookValidating+"/"+c.Name] += framework.ToJSON(h.ClientConfig)
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
		t.Errorf("webhook configurations before %v, after %v", framework.SortedKeys(before), framework.SortedKeys(after))
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

// mfKubectl runs kubectl (KUBECONFIG from the environment) and returns its stdout; a non-zero
// exit fails the test with stderr.
func mfKubectl(t *testing.T, args ...string) string {
	t.Helper()
	return framework.RunTool(t, mfKubectlPath(t), args...)
}

// mfKubectlPath is the kubectl of framework.KubectlPath ($KUBECTL first).
func mfKubectlPath(t *testing.T) string {
	t.Helper()
	k, err := framework.KubectlPath()
	if err != nil {
		t.Fatalf("%v", err)
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

package deployed

import (
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"vc-cpp.local/e2e/tests/framework"
)

// caRotationAnnotation is the chart's record of certificate.rotation on the helm-made Secret
// (charts/vc-cpp/templates/webhook/registration.yaml).
const caRotationAnnotation = "vc-cpp.volcano.sh/rotation"

// TestDeployedWebhookCARotation: a rotation to a new CA under a steady stream of Job creates
// (one every 0.25 s) fails no admission, for each certificate source this harness can run:
//   - helm: `helm upgrade` with a new certificate.rotation (the chart README's procedure), which
//     makes a new CA and pair and keeps the previous CA in ca.crt and every caBundle;
//   - existing: a new Secret from `certs/gen-certs.sh` (a new CA only in ca.crt) applied over the
//     running one, as a user of certificate.source=existing would; the webhook adds the new CA
//     to every caBundle, next to the previous one, before it serves the new pair.
//
// cert-manager is not installed by the harness; its renewal reaches the webhook the same way as
// the existing-Secret case (a new ca.crt, tls.crt and tls.key in the Secret).
//
// Each rotation waits until every webhook pod has logged the new serving certificate, then a
// little longer, and checks that the caBundles hold the new CA and the previous one.
func TestDeployedWebhookCARotation(t *testing.T) {
	f := framework.New(t, "e2e-deployed-ca-rotation")
	ns := framework.DeployedNamespace()

	t.Run("helm", func(t *testing.T) {
		rotateUnderLoad(t, f, ns, func() {
			framework.InstallScript(t, nil, "install", "--set", "certificate.rotation=e2e-"+f.Suffix)
		})
		// Later installs (other tests) pass no certificate.rotation: record "" as the value the
		// Secret was made with, so that they keep this CA instead of rotating again (Volcano's
		// image, which the switch test installs, would not follow a rotation).
		res := framework.Kubectl(t, "", "-n", ns, "annotate", "--overwrite", "secret", framework.WebhookSecret,
			caRotationAnnotation+"=")
		if res.ExitCode != 0 {
			t.Fatalf("resetting the rotation annotation: %s", res)
		}
	})

	t.Run("existing", func(t *testing.T) {
		dir := t.TempDir()
		repo, err := framework.RepoRoot()
		if err != nil {
			t.Fatalf("%v", err)
		}
		cmd := exec.CommandContext(t.Context(), filepath.Join(repo, "certs", "gen-certs.sh"), dir, "secret")
		cmd.Env = append(os.Environ(), "WEBHOOK_NAMESPACE="+ns)
		secret, err := cmd.Output()
		if err != nil {
			t.Fatalf("gen-certs.sh secret: %v", err)
		}
		rotateUnderLoad(t, f, ns, func() {
			if res := framework.Kubectl(t, string(secret), "apply", "-f", "-"); res.ExitCode != 0 {
				t.Fatalf("kubectl apply of the new Secret: %s", res)
			}
		})
	})
}

// rotateUnderLoad runs rotate under a stream of admissions and fails t for any failed one. It
// waits until the Secret holds a new CA, every caBundle holds it and the previous one, and every
// webhook pod has loaded the Secret's new serving certificate.
func rotateUnderLoad(t *testing.T, f *framework.Framework, ns string, rotate func()) {
	t.Helper()
	oldCA, _ := secretCerts(t, f, ns)
	stream := f.StartAdmissionStream(250 * time.Millisecond)
	defer stream.Stop()
	f.WaitFor("the admission stream to flow", 30*time.Second, func() (bool, string, error) {
		n := stream.Sent()
		return n >= 8, fmt.Sprintf("%d sent", n), nil
	})
	started := metav1.Now()
	rotate()

	var newCA, leaf *x509.Certificate
	f.WaitFor("the Secret to hold a new CA", time.Minute, func() (bool, string, error) {
		newCA, leaf = secretCerts(t, f, ns)
		return !newCA.Equal(oldCA), "CA " + newCA.Subject.String() + " serial " + newCA.SerialNumber.String(), nil
	})
	f.WaitFor("every caBundle to hold the new CA and the previous one", 3*time.Minute, func() (bool, string, error) {
		return caBundlesHold(t, f, newCA, oldCA)
	})
	serial := fmt.Sprintf("%X", leaf.SerialNumber)
	// The kubelet delivers the Secret within its sync period (about a minute); each pod then adds
	// the CA to the caBundles, waits --ca-bundle-settle and swaps the pair in.
	f.WaitFor("every webhook pod to serve serial "+serial, 4*time.Minute, func() (bool, string, error) {
		_, pods, err := f.DeploymentPods(ns, framework.WebhookDeployment)
		if err != nil {
			return false, "", err
		}
		var missing []string
		for _, p := range pods {
			if !podLogged(t, f, ns, p, started, "serving certificate loaded", serial) {
				missing = append(missing, p.Name)
			}
		}
		return len(missing) == 0, "not yet: " + strings.Join(missing, " "), nil
	})
	finishStream(t, f, stream, 40, "during the CA rotation")
}

// secretCerts returns the first CA of the webhook Secret's ca.crt and its serving certificate.
func secretCerts(t *testing.T, f *framework.Framework, ns string) (ca, leaf *x509.Certificate) {
	t.Helper()
	s, err := f.Kube.CoreV1().Secrets(ns).Get(t.Context(), framework.WebhookSecret, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("secret %s: %v", framework.WebhookSecret, err)
	}
	cas := pemCerts(t, s.Data["ca.crt"])
	leaves := pemCerts(t, s.Data["tls.crt"])
	if len(cas) == 0 || len(leaves) == 0 {
		t.Fatalf("secret %s lacks ca.crt or tls.crt certificates", framework.WebhookSecret)
	}
	return cas[0], leaves[0]
}

func pemCerts(t *testing.T, data []byte) []*x509.Certificate {
	t.Helper()
	var out []*x509.Certificate
	for {
		var block *pem.Block
		block, data = pem.Decode(data)
		if block == nil {
			return out
		}
		if block.Type != "CERTIFICATE" {
			continue
		}
		c, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			t.Fatalf("parsing a certificate: %v", err)
		}
		out = append(out, c)
	}
}

// caBundlesHold reports whether every webhook of every Volcano webhook configuration trusts
// each of cas.
func caBundlesHold(t *testing.T, f *framework.Framework, cas ...*x509.Certificate) (bool, string, error) {
	t.Helper()
	var bundles [][]byte
	mut, err := f.Kube.AdmissionregistrationV1().MutatingWebhookConfigurations().List(t.Context(), metav1.ListOptions{})
	if err != nil {
		return false, "", err
	}
	for _, c := range mut.Items {
		if strings.HasPrefix(c.Name, "volcano-admission-service-") {
			for _, w := range c.Webhooks {
				bundles = append(bundles, w.ClientConfig.CABundle)
			}
		}
	}
	val, err := f.Kube.AdmissionregistrationV1().ValidatingWebhookConfigurations().List(t.Context(), metav1.ListOptions{})
	if err != nil {
		return false, "", err
	}
	for _, c := range val.Items {
		if strings.HasPrefix(c.Name, "volcano-admission-service-") {
			for _, w := range c.Webhooks {
				bundles = append(bundles, w.ClientConfig.CABundle)
			}
		}
	}
	if len(bundles) == 0 {
		return false, "no Volcano webhook configuration", nil
	}
	for i, b := range bundles {
		held := pemCerts(t, b)
		for _, want := range cas {
			found := false
			for _, h := range held {
				found = found || h.Equal(want)
			}
			if !found {
				return false, fmt.Sprintf("bundle %d of %d (%d CAs) lacks %s serial %s", i+1, len(bundles), len(held),
					want.Subject, want.SerialNumber), nil
			}
		}
	}
	return true, fmt.Sprintf("%d bundles", len(bundles)), nil
}

// podLogged reports whether pod p has logged a line holding every one of words since since.
func podLogged(t *testing.T, f *framework.Framework, ns string, p corev1.Pod, since metav1.Time, words ...string) bool {
	t.Helper()
	raw, err := f.Kube.CoreV1().Pods(ns).GetLogs(p.Name, &corev1.PodLogOptions{SinceTime: &since}).DoRaw(t.Context())
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(raw), "\n") {
		all := true
		for _, w := range words {
			all = all && strings.Contains(strings.ToUpper(line), strings.ToUpper(w))
		}
		if all {
			return true
		}
	}
	return false
}

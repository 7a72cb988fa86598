package framework

// The webhook's serving certificate as the chart makes it, certs/gen-certs.sh writes it, or
// cert-manager is asked to issue it.

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// CheckServingCertificate asserts that crt and key form a pair, that the certificate is for
// server auth, names every service DNS name of ns and 127.0.0.1, and is trusted by ca for each.
func CheckServingCertificate(t testing.TB, crt, key, ca []byte, ns, step string) *x509.Certificate {
	t.Helper()
	for name, b := range map[string][]byte{"tls.crt": crt, "tls.key": key, "ca.crt": ca} {
		if len(b) == 0 {
			t.Fatalf("%s: no %s", step, name)
		}
	}
	if _, err := tls.X509KeyPair(crt, key); err != nil {
		t.Fatalf("%s: tls.crt and tls.key are not a pair: %v", step, err)
	}
	leaf := PEMCertificates(t, crt)[0]
	if !slices.Contains(leaf.ExtKeyUsage, x509.ExtKeyUsageServerAuth) {
		t.Errorf("%s: serving certificate lacks extended key usage serverAuth", step)
	}
	roots := x509.NewCertPool()
	for _, c := range PEMCertificates(t, ca) {
		roots.AddCert(c)
	}
	for _, name := range append(ServiceDNSNames(ns), "127.0.0.1") {
		if _, err := leaf.Verify(x509.VerifyOptions{DNSName: name, Roots: roots}); err != nil {
			t.Errorf("%s: serving certificate not valid for %s under ca.crt: %v", step, name, err)
		}
	}
	return leaf
}

// PEMCertificates parses every certificate of a PEM bundle, failing t if there is none.
func PEMCertificates(t testing.TB, data []byte) []*x509.Certificate {
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

// CheckCertManagerIssuance checks the cert-manager objects among objs: a Certificate writes the
// Secret the webhook mounts, for every service name of ns and 127.0.0.1, issued by a CA Issuer
// whose CA is a Certificate here (isCA) from a self-signed Issuer, so renewing the serving
// certificate keeps the CA; and no webhook configuration sets a caBundle or asks cainjector for
// one: the webhook writes ca.crt there and keeps the previous CA through a CA renewal, which
// cainjector would drop. Returns the objects that are not cert-manager's.
func CheckCertManagerIssuance(t testing.TB, objs []ManifestObject, ns string) []ManifestObject {
	t.Helper()
	issuers := map[string]*unstructured.Unstructured{}
	certs := map[string]*unstructured.Unstructured{}
	var rest []ManifestObject
	for _, o := range objs {
		switch {
		case o.GetAPIVersion() == "cert-manager.io/v1" && o.GetKind() == "Issuer":
			issuers[o.GetName()] = o.Unstructured
		case o.GetAPIVersion() == "cert-manager.io/v1" && o.GetKind() == "Certificate":
			certs[o.GetName()] = o.Unstructured
		default:
			rest = append(rest, o)
		}
		if strings.HasPrefix(o.GetAPIVersion(), "cert-manager.io/") && o.GetNamespace() != ns {
			t.Errorf("%s %s is in namespace %q, want %s", o.GetKind(), o.GetName(), o.GetNamespace(), ns)
		}
	}
	var serving *unstructured.Unstructured
	for _, c := range certs {
		if nestedString(c, "spec", "secretName") == WebhookSecret {
			if serving != nil {
				t.Fatalf("Certificates %s and %s both write %s", serving.GetName(), c.GetName(), WebhookSecret)
			}
			serving = c
		}
	}
	if serving == nil {
		t.Fatalf("no Certificate writes Secret %s; Certificates: %v", WebhookSecret, SortedKeys(certs))
	}
	dns, _, _ := unstructured.NestedStringSlice(serving.Object, "spec", "dnsNames")
	ips, _, _ := unstructured.NestedStringSlice(serving.Object, "spec", "ipAddresses")
	for _, n := range ServiceDNSNames(ns) {
		if !slices.Contains(dns, n) {
			t.Errorf("Certificate %s dnsNames %v lack %s", serving.GetName(), dns, n)
		}
	}
	if !slices.Contains(ips, "127.0.0.1") {
		t.Errorf("Certificate %s ipAddresses %v lack 127.0.0.1", serving.GetName(), ips)
	}

	issuerName := nestedString(serving, "spec", "issuerRef", "name")
	caIssuer, ok := issuers[issuerName]
	if !ok || nestedString(serving, "spec", "issuerRef", "kind") != "Issuer" {
		t.Fatalf("serving Certificate's issuerRef %q names no Issuer here (%v)", issuerName, SortedKeys(issuers))
	}
	caSecret := nestedString(caIssuer, "spec", "ca", "secretName")
	var ca *unstructured.Unstructured
	for _, c := range certs {
		if caSecret != "" && nestedString(c, "spec", "secretName") == caSecret {
			ca = c
		}
	}
	if ca == nil {
		t.Fatalf("Issuer %s is not a CA issuer backed by a Certificate here (spec.ca.secretName %q)", issuerName, caSecret)
	}
	if isCA, _, _ := unstructured.NestedBool(ca.Object, "spec", "isCA"); !isCA {
		t.Errorf("CA Certificate %s lacks isCA: true", ca.GetName())
	}
	if root, ok := issuers[nestedString(ca, "spec", "issuerRef", "name")]; !ok {
		t.Errorf("CA Certificate %s is issued by %q, not an Issuer here", ca.GetName(), nestedString(ca, "spec", "issuerRef", "name"))
	} else if _, self, _ := unstructured.NestedMap(root.Object, "spec", "selfSigned"); !self {
		t.Errorf("Issuer %s of the CA is not selfSigned", root.GetName())
	}

	for _, o := range rest {
		if o.GetKind() != WebhookMutating && o.GetKind() != WebhookValidating {
			continue
		}
		if got, ok := o.GetAnnotations()[InjectCAFrom]; ok {
			t.Errorf("%s %s: %s = %q; the webhook writes the caBundle, cainjector must not", o.GetKind(), o.GetName(), InjectCAFrom, got)
		}
		if bundle, _, _ := unstructured.NestedSlice(o.Object, "webhooks"); strings.Contains(ToJSON(bundle), `"caBundle"`) {
			t.Errorf("%s %s sets a caBundle; the webhook writes it", o.GetKind(), o.GetName())
		}
	}
	return rest
}

func nestedString(u *unstructured.Unstructured, fields ...string) string {
	s, _, _ := unstructured.NestedString(u.Object, fields...)
	return s
}

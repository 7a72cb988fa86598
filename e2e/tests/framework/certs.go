package framework

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// DefaultWebhookAddr is where e2e/cluster/lib.sh has the webhook listen (WEBHOOK_PORT).
const DefaultWebhookAddr = "127.0.0.1:28443"

// WebhookImpl names the webhook implementation under test: $IMPL_WEBHOOK, else $IMPL
// ("ours", "reference", or "" when neither is set).
func WebhookImpl() string {
	if v := os.Getenv("IMPL_WEBHOOK"); v != "" {
		return v
	}
	return os.Getenv("IMPL")
}

// ControllersImpl names the controller-manager under test: $IMPL_CONTROLLERS, else $IMPL.
func ControllersImpl() string {
	if v := os.Getenv("IMPL_CONTROLLERS"); v != "" {
		return v
	}
	return os.Getenv("IMPL")
}

// RepoRoot is $VC_REPO (run-e2e.sh exports it), else the nearest directory above the working
// directory that holds certs/gen-certs.sh.
func RepoRoot() (string, error) {
	if r := os.Getenv("VC_REPO"); r != "" {
		return r, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "certs", "gen-certs.sh")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("repository root not found above the working directory: set VC_REPO")
		}
		dir = parent
	}
}

// PKIDir is $VC_PKI_DIR (run-e2e.sh exports it), else <repo>/.state/pki, where
// e2e/cluster/up.sh keeps the cluster CA and the webhook's serving pair webhook.{crt,key}.
func PKIDir() (string, error) {
	if d := os.Getenv("VC_PKI_DIR"); d != "" {
		return d, nil
	}
	root, err := RepoRoot()
	if err != nil {
		return "", err
	}
	return filepath.Join(root, ".state", "pki"), nil
}

// WebhookAddr is $VC_WEBHOOK_ADDR, else DefaultWebhookAddr.
func WebhookAddr() string {
	if a := os.Getenv("VC_WEBHOOK_ADDR"); a != "" {
		return a
	}
	return DefaultWebhookAddr
}

// CertFileSerial returns the serial number of the first certificate in a PEM file.
func CertFileSerial(path string) (*big.Int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	block, _ := pem.Decode(data)
	if block == nil || block.Type != "CERTIFICATE" {
		return nil, fmt.Errorf("%s: no PEM certificate", path)
	}
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return cert.SerialNumber, nil
}

// ServedCertSerial connects to addr with TLS, verifying the server against the CA in caFile
// (as the API server does), and returns the serial number of the leaf certificate it serves.
func ServedCertSerial(addr, caFile string) (*big.Int, error) {
	ca, err := os.ReadFile(caFile)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(ca) {
		return nil, fmt.Errorf("%s: no PEM certificate", caFile)
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	dialer := &tls.Dialer{
		NetDialer: &net.Dialer{Timeout: 5 * time.Second},
		Config:    &tls.Config{RootCAs: pool, ServerName: host, MinVersion: tls.VersionTLS12},
	}
	c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, err := dialer.DialContext(c, "tcp", addr)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	certs := conn.(*tls.Conn).ConnectionState().PeerCertificates
	if len(certs) == 0 {
		return nil, fmt.Errorf("%s served no certificate", addr)
	}
	return certs[0].SerialNumber, nil
}

// RotateWebhookCert re-issues the webhook's serving certificate in pkiDir from the cluster CA
// with certs/gen-certs.sh (which replaces the pair atomically) and returns the new serial.
func RotateWebhookCert(t testing.TB, repo, pkiDir string) *big.Int {
	t.Helper()
	c, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	out, err := exec.CommandContext(c, filepath.Join(repo, "certs", "gen-certs.sh"), pkiDir, "webhook").CombinedOutput()
	if err != nil {
		t.Fatalf("gen-certs.sh %s webhook: %v\n%s", pkiDir, err, out)
	}
	serial, err := CertFileSerial(filepath.Join(pkiDir, "webhook.crt"))
	if err != nil {
		t.Fatalf("read the re-issued certificate: %v", err)
	}
	return serial
}

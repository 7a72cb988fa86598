package framework

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// kubectlTimeout bounds one kubectl run.
const kubectlTimeout = 60 * time.Second

// KubectlResult is what one kubectl run printed and how it exited.
type KubectlResult struct {
	Stdout, Stderr string
	ExitCode       int
}

func (r KubectlResult) String() string {
	return fmt.Sprintf("exit=%d stdout=%q stderr=%q", r.ExitCode, r.Stdout, r.Stderr)
}

// KubectlPath finds kubectl: $KUBECTL (run-e2e.sh exports the cluster's), else the copy the
// cluster scripts cache under ~/.cache/vc-cpp/bin/k8s-*/, else kubectl on PATH.
func KubectlPath() (string, error) { return findTool("KUBECTL", "k8s", "kubectl") }

// findTool finds a binary of the cluster harness: $envVar, else the newest copy the cluster
// scripts cache under ~/.cache/vc-cpp/bin/<harness>-*/, else the binary on PATH.
func findTool(envVar, harness, binary string) (string, error) {
	if p := os.Getenv(envVar); p != "" {
		return p, nil
	}
	if home, err := os.UserHomeDir(); err == nil {
		matches, _ := filepath.Glob(filepath.Join(home, ".cache", "vc-cpp", "bin", harness+"-*", binary))
		if len(matches) > 0 {
			return matches[len(matches)-1], nil
		}
	}
	if p, err := exec.LookPath(binary); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("%s not found: set %s", binary, envVar)
}

// Kubectl runs kubectl against the cluster of KUBECONFIG with stdin as its input (YAML for
// `apply -f -`) and returns its output and exit code. Failing to start kubectl fails t; a
// non-zero exit is returned for the test to judge.
func Kubectl(t testing.TB, stdin string, args ...string) KubectlResult {
	t.Helper()
	path, err := KubectlPath()
	if err != nil {
		t.Fatalf("%v", err)
	}
	c, cancel := context.WithTimeout(context.Background(), kubectlTimeout)
	defer cancel()
	cmd := exec.CommandContext(c, path, append([]string{"--kubeconfig=" + os.Getenv("KUBECONFIG")}, args...)...)
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	res := KubectlResult{Stdout: stdout.String(), Stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit) && c.Err() == nil:
		res.ExitCode = exit.ExitCode()
	default:
		t.Fatalf("kubectl %s: %v (%s)", strings.Join(args, " "), err, res)
	}
	shown := res
	if len(shown.Stdout) > 300 {
		shown.Stdout = shown.Stdout[:300] + "..."
	}
	t.Logf("kubectl %s: %s", strings.Join(args, " "), shown)
	return res
}

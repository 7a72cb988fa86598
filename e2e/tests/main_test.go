// Package tests holds the end-to-end scenarios. They run against a live cluster (KUBECONFIG)
// whose webhook and controller-manager are either Volcano's own (IMPL=reference) or ours
// (IMPL=ours), and assert only what Volcano users can observe, so both must pass them.
package tests

import (
	"fmt"
	"os"
	"testing"

	"vc-cpp.local/e2e/tests/framework"
)

func TestMain(m *testing.M) {
	clients, err := framework.LoadClients()
	if err != nil {
		fmt.Fprintf(os.Stderr, "e2e: %v\n", err)
		os.Exit(1)
	}
	v, err := clients.Kube.Discovery().ServerVersion()
	if err != nil {
		fmt.Fprintf(os.Stderr, "e2e: cannot reach the API server named by KUBECONFIG: %v\n", err)
		os.Exit(1)
	}
	fmt.Printf("e2e: impl=%s apiserver=%s\n", framework.Impl(), v.GitVersion)
	os.Exit(m.Run())
}

// Package tests holds the end-to-end scenarios. They run against a live cluster (KUBECONFIG)
// whose webhook and controller-manager are either Volcano's own (IMPL=reference) or ours
// (IMPL=ours), and assert only what Volcano users can observe, so both must pass them.
package tests

import (
	"fmt"
	"testing"

	"vc-cpp.local/e2e/tests/framework"
)

func TestMain(m *testing.M) {
	framework.RunSuite(m, func(c *framework.Clients) error {
		v, err := c.Kube.Discovery().ServerVersion()
		if err != nil {
			return fmt.Errorf("cannot reach the API server named by KUBECONFIG: %w", err)
		}
		fmt.Printf("e2e: impl=%s apiserver=%s\n", framework.Impl(), v.GitVersion)
		return nil
	})
}

// Package deployed holds the end-to-end scenarios of the stack installed the way users install
// it: images built here, pushed to the local cluster's registry, installed by `helm upgrade
// --install` of charts/vc-cpp as Deployments on the cluster's real node (make install). They
// run after the process-mode suite, against a cluster brought up with IMPL=chart
// (e2e/run-deployed.sh).
package deployed

import (
	"context"
	"fmt"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"vc-cpp.local/e2e/tests/framework"
)

func TestMain(m *testing.M) {
	framework.RunSuite(m, func(c *framework.Clients) error {
		ns := framework.DeployedNamespace()
		_, err := c.Kube.AppsV1().Deployments(ns).Get(context.Background(), framework.WebhookDeployment, metav1.GetOptions{})
		if err != nil {
			return fmt.Errorf("the stack is not installed in %s (make install): %w", ns, err)
		}
		return nil
	})
}

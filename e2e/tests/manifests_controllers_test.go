package tests

import (
	"path/filepath"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"vc-cpp.local/e2e/tests/framework"
)

// TestManifestsControllersRendered: the controllers base renders the Deployment, RBAC, metrics
// Service and default queues described in manifests/controllers/README.md: two replicas under
// leader election in volcano-system, plain-HTTP /healthz probes on :11251, metrics on :8081,
// non-root with a read-only root filesystem, and a ClusterRole with exactly the documented
// verbs (framework.ControllerClusterRules).
func TestManifestsControllersRendered(t *testing.T) {
	root := mfRepoRoot(t)
	objs := framework.RenderKustomize(t, filepath.Join(root, "manifests", "controllers"))
	for _, o := range objs {
		if o.GetKind() == "Namespace" {
			t.Errorf("the controllers base declares Namespace %s; it belongs to manifests/webhook", o.GetName())
		}
	}

	var d appsv1.Deployment
	framework.FindManifest(t, objs, "Deployment", "volcano-controllers").Into(t, &d)
	framework.CheckControllersDeployment(t, d, mfNamespace)
	if c := d.Spec.Template.Spec.Containers[0]; !strings.HasPrefix(c.Image, "docker.io/vc-cpp/vc-controller-manager:") {
		t.Errorf("image %q, want docker.io/vc-cpp/vc-controller-manager:<tag>", c.Image)
	}
	framework.CheckControllerRBAC(t, objs, mfNamespace, framework.ControllerClusterRules)

	var svc corev1.Service
	framework.FindManifest(t, objs, "Service", "volcano-controllers-service").Into(t, &svc)
	framework.CheckMetricsService(t, svc, 8081, "volcano-controller")

	for name, reclaimable := range map[string]bool{"default": true, "root": false} {
		q := framework.FindManifest(t, objs, "Queue", name)
		if q.GetNamespace() != "" {
			t.Errorf("Queue %s rendered with namespace %q; queues are cluster-scoped", name, q.GetNamespace())
		}
		w, _, _ := unstructured.NestedInt64(q.Object, "spec", "weight")
		r, found, _ := unstructured.NestedBool(q.Object, "spec", "reclaimable")
		if w != 1 || !found || r != reclaimable {
			t.Errorf("Queue %s weight=%d reclaimable=%v (set %v), want weight 1 reclaimable %v", name, w, r, found, reclaimable)
		}
	}
}

// TestManifestsControllersServerDryRun: `kubectl apply --dry-run=server -k manifests/controllers`
// is accepted by the API server for every object of the base and stores nothing; the top-level
// manifests/ kustomization renders the webhook and controllers bases with one Namespace.
func TestManifestsControllersServerDryRun(t *testing.T) {
	clients := mfLoadClients(t)
	mfEnsureWebhookNamespace(t, clients)
	root := mfRepoRoot(t)

	out := mfKubectl(t, "apply", "--dry-run=server", "-k", filepath.Join(root, "manifests", "controllers"))
	want := []string{
		"serviceaccount/volcano-controllers",
		"clusterrole.rbac.authorization.k8s.io/volcano-controllers",
		"clusterrolebinding.rbac.authorization.k8s.io/volcano-controllers-role",
		"role.rbac.authorization.k8s.io/volcano-controllers-leader-election",
		"rolebinding.rbac.authorization.k8s.io/volcano-controllers-leader-election",
		"configmap/volcano-controller-configmap",
		"service/volcano-controllers-service",
		"deployment.apps/volcano-controllers",
		"poddisruptionbudget.policy/volcano-controllers",
		"queue.scheduling.volcano.sh/default",
		"queue.scheduling.volcano.sh/root",
	}
	created := mfCheckDryRunReport(t, out, want)
	for _, ref := range created {
		if got := strings.TrimSpace(mfKubectl(t, "get", ref, "-n", mfNamespace, "--ignore-not-found", "-o", "name")); got != "" {
			t.Errorf("%s exists after a dry run reported it created", got)
		}
	}

	all := framework.RenderKustomize(t, filepath.Join(root, "manifests"))
	namespaces := 0
	for _, o := range all {
		if o.GetKind() == "Namespace" {
			namespaces++
		}
	}
	if namespaces != 1 {
		t.Errorf("manifests/ renders %d Namespace objects, want exactly 1", namespaces)
	}
	framework.FindManifest(t, all, "Deployment", "volcano-admission")
	framework.FindManifest(t, all, "Deployment", "volcano-controllers")
}

package framework

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The stack as the chart installs it (e2e/cluster/install.sh): Volcano's object names in the
// release namespace, pods on the local cluster's real node.
const (
	WebhookDeployment     = "volcano-admission"
	ControllersDeployment = "volcano-controllers"
	SchedulerDeployment   = "volcano-scheduler"
	// ControllersLease is the Lease the controller-manager replicas elect a leader on.
	ControllersLease = "vc-controller-manager"
)

// DeployedNamespace is where the chart installed the stack: $VC_NAMESPACE, else volcano-system.
func DeployedNamespace() string { return envOr("VC_NAMESPACE", "volcano-system") }

// RealNodeName is the local cluster's kubelet node: $VC_REAL_NODE, else vc-node.
func RealNodeName() string { return envOr("VC_REAL_NODE", "vc-node") }

func envOr(name, fallback string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return fallback
}

// DeploymentPods lists the pods of deployment name (by its selector) that are not being deleted.
func (c *Clients) DeploymentPods(ns, name string) (*appsv1.Deployment, []corev1.Pod, error) {
	d, err := c.Kube.AppsV1().Deployments(ns).Get(ctx(), name, metav1.GetOptions{})
	if err != nil {
		return nil, nil, err
	}
	sel, err := metav1.LabelSelectorAsSelector(d.Spec.Selector)
	if err != nil {
		return nil, nil, err
	}
	list, err := c.Kube.CoreV1().Pods(ns).List(ctx(), metav1.ListOptions{LabelSelector: sel.String()})
	if err != nil {
		return nil, nil, err
	}
	var pods []corev1.Pod
	for _, p := range list.Items {
		if p.DeletionTimestamp == nil {
			pods = append(pods, p)
		}
	}
	sort.Slice(pods, func(i, j int) bool { return pods[i].Name < pods[j].Name })
	return d, pods, nil
}

// RolledOut reports whether every replica of d runs its newest template and is available.
func RolledOut(d *appsv1.Deployment) bool {
	want := int32(1)
	if d.Spec.Replicas != nil {
		want = *d.Spec.Replicas
	}
	s := d.Status
	return s.ObservedGeneration >= d.Generation && s.UpdatedReplicas == want &&
		s.AvailableReplicas == want && s.Replicas == want
}

// DeploymentSummary is a one-line view of a Deployment's rollout, for wait messages.
func DeploymentSummary(d *appsv1.Deployment) string {
	s := d.Status
	return fmt.Sprintf("generation %d/%d replicas=%d updated=%d ready=%d available=%d",
		s.ObservedGeneration, d.Generation, s.Replicas, s.UpdatedReplicas, s.ReadyReplicas, s.AvailableReplicas)
}

// LeaseHolder is the holder of Lease ns/name ("" when none).
func (c *Clients) LeaseHolder(ns, name string) (string, error) {
	l, err := c.Kube.CoordinationV1().Leases(ns).Get(ctx(), name, metav1.GetOptions{})
	if err != nil {
		return "", err
	}
	if l.Spec.HolderIdentity == nil {
		return "", nil
	}
	return *l.Spec.HolderIdentity, nil
}

// InstallScript runs e2e/cluster/install.sh with extra environment (e.g. IMPL_IMAGES=reference)
// and fails t if it fails, printing its output. It may take minutes (images, helm --wait).
func InstallScript(t testing.TB, env []string, args ...string) string {
	t.Helper()
	repo, err := RepoRoot()
	if err != nil {
		t.Fatalf("%v", err)
	}
	c, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(c, filepath.Join(repo, "e2e", "cluster", "install.sh"), args...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("install.sh %s (%s): %v\n%s", strings.Join(args, " "), strings.Join(env, " "), err, Tail(string(out), 40))
	}
	t.Logf("install.sh %s (%s): %s", strings.Join(args, " "), strings.Join(env, " "), Tail(string(out), 5))
	return string(out)
}

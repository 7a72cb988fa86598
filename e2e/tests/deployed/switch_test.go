package deployed

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	batchv1alpha1 "volcano.sh/apis/pkg/apis/batch/v1alpha1"

	"vc-cpp.local/e2e/tests/framework"
)

// Switching from our components to Volcano's own and back, with the same chart (`helm upgrade`
// with values-volcano.yaml, then without): a running job keeps every pod (none recreated), its
// queue keeps its state, and no admission fails while the webhook Deployment changes hands (but
// for the one race of Volcano's own shutdown, below).
func TestDeployedSwitchToVolcanoAndBack(t *testing.T) {
	f := framework.New(t, "e2e-deployed-switch")
	ns := framework.DeployedNamespace()
	queue := "e2e-switch-" + f.Suffix
	f.CreateQueue(queue, 1)
	job := f.CreateJob(framework.NewJob(f.Namespace, framework.JobSpec{Name: "long", Queue: queue, MinAvailable: 3,
		Tasks: []framework.Task{{Name: "head", Replicas: 1, CPU: "100m"}, {Name: "worker", Replicas: 2, CPU: "100m"}}}))
	f.WaitJobPhase(job.Name, batchv1alpha1.Running, 2*time.Minute)
	pods := f.WaitJobPods(job.Name, "3 pods running", time.Minute, func(p []corev1.Pod) bool { return framework.AllRunning(p, 3) })
	want := podUIDs(pods)

	check := func(t *testing.T, impl, imageWant string) {
		t.Helper()
		d, _, err := f.DeploymentPods(ns, framework.WebhookDeployment)
		if err != nil {
			t.Fatalf("%v", err)
		}
		if img := d.Spec.Template.Spec.Containers[0].Image; !strings.Contains(img, imageWant) {
			t.Errorf("after switching to %s the webhook image is %q, want one of %s", impl, img, imageWant)
		}
		got, err := f.ListJobPods(job.Name)
		if err != nil {
			t.Fatalf("%v", err)
		}
		if g := podUIDs(got); g != want {
			t.Errorf("after switching to %s the job's pods are %s, want the same pods %s", impl, g, want)
		}
		j, err := f.GetJob(job.Name)
		if err != nil || j.Status.State.Phase != batchv1alpha1.Running {
			t.Errorf("after switching to %s job is %s (err %v), want Running", impl, framework.JobStatusSummary(j), err)
		}
		q, err := f.Volcano.SchedulingV1beta1().Queues().Get(t.Context(), queue, metav1.GetOptions{})
		if err != nil || q.Status.State != "Open" {
			t.Errorf("after switching to %s queue %s is %v (err %v), want Open", impl, queue, framework.QueueSummary(q), err)
		}
		// The new controllers act: a new job gets its PodGroup.
		name := "after-" + impl
		j2 := f.CreateJob(framework.NewJob(f.Namespace, framework.JobSpec{Name: name, Queue: queue, MinAvailable: 1,
			Tasks: []framework.Task{{Name: "t", Replicas: 1, CPU: "10m"}}}))
		f.WaitPodGroup(framework.PodGroupName(j2), time.Minute)
	}
	// Each switch is watched by its own stream of admissions, from the upgrade until the old
	// webhook pods are gone. Leaving ours, every admission must pass: our webhook drains its
	// connections before it exits. Leaving Volcano's, its webhook closes the API server's idle
	// kept-alive connections as it shuts down, and a review the API server writes to one at that
	// instant fails with "broken pipe" or "connection reset" (seen once in many runs): that is
	// Volcano's shutdown, logged, not failed; any other error there still fails the test.
	toVolcano := f.StartAdmissionStream(50 * time.Millisecond)
	framework.InstallScript(t, []string{"IMPL_IMAGES=reference"}, "install")
	waitOldWebhookPodsGone(f, ns)
	sent, failures := toVolcano.Stop()
	t.Logf("admissions while switching to Volcano's: %d sent, %d failed", sent, len(failures))
	if len(failures) > 0 {
		t.Errorf("%d of %d admissions failed while our webhook handed over to Volcano's; first ones:\n%s",
			len(failures), sent, strings.Join(failures[:min(len(failures), 10)], "\n"))
	}
	check(t, "volcano", "volcanosh/")

	toOurs := f.StartAdmissionStream(50 * time.Millisecond)
	framework.InstallScript(t, []string{"IMPL_IMAGES=ours"}, "install")
	waitOldWebhookPodsGone(f, ns)
	sent, failures = toOurs.Stop()
	var other []string
	for _, failure := range failures {
		if strings.Contains(failure, "broken pipe") || strings.Contains(failure, "connection reset by peer") {
			t.Logf("Volcano's webhook closed a kept-alive connection under a review as it shut down: %s", failure)
		} else {
			other = append(other, failure)
		}
	}
	t.Logf("admissions while switching back to ours: %d sent, %d failed", sent, len(failures))
	if len(other) > 0 {
		t.Errorf("%d of %d admissions failed while Volcano's webhook handed over to ours; first ones:\n%s",
			len(other), sent, strings.Join(other[:min(len(other), 10)], "\n"))
	}
	check(t, "ours", "vc-cpp/")
}

// waitOldWebhookPodsGone waits until no webhook pod is terminating (the old ReplicaSet's pods
// are gone after their preStop sleep and shutdown).
func waitOldWebhookPodsGone(f *framework.Framework, ns string) {
	f.T.Helper()
	f.WaitFor("the old webhook pods gone", 2*time.Minute, func() (bool, string, error) {
		d, err := f.Kube.AppsV1().Deployments(ns).Get(f.T.Context(), framework.WebhookDeployment, metav1.GetOptions{})
		if err != nil {
			return false, err.Error(), nil
		}
		sel, err := metav1.LabelSelectorAsSelector(d.Spec.Selector)
		if err != nil {
			return false, "", err
		}
		list, err := f.Kube.CoreV1().Pods(ns).List(f.T.Context(), metav1.ListOptions{LabelSelector: sel.String()})
		if err != nil {
			return false, err.Error(), nil
		}
		var terminating []string
		for _, p := range list.Items {
			if p.DeletionTimestamp != nil {
				terminating = append(terminating, p.Name)
			}
		}
		return len(terminating) == 0, fmt.Sprintf("terminating: %v", terminating), nil
	})
}

func podUIDs(pods []corev1.Pod) string {
	var ids []string
	for _, p := range pods {
		ids = append(ids, fmt.Sprintf("%s=%s", p.Name, p.UID))
	}
	sort.Strings(ids)
	return strings.Join(ids, ",")
}

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
// queue keeps its state, and no admission fails while the webhook Deployment changes hands.
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

	stream := f.StartAdmissionStream(50 * time.Millisecond)
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
	framework.InstallScript(t, []string{"IMPL_IMAGES=reference"}, "install")
	check(t, "volcano", "volcanosh/")
	framework.InstallScript(t, []string{"IMPL_IMAGES=ours"}, "install")
	check(t, "ours", "vc-cpp/")

	sent, failures := stream.Stop()
	t.Logf("admissions during both switches: %d sent, %d failed", sent, len(failures))
	if len(failures) > 0 {
		t.Errorf("%d of %d admissions failed during the switches; first ones:\n%s", len(failures), sent,
			strings.Join(failures[:min(len(failures), 10)], "\n"))
	}
}

func podUIDs(pods []corev1.Pod) string {
	var ids []string
	for _, p := range pods {
		ids = append(ids, fmt.Sprintf("%s=%s", p.Name, p.UID))
	}
	sort.Strings(ids)
	return strings.Join(ids, ",")
}

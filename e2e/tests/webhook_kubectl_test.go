package tests

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	batchv1alpha1 "volcano.sh/apis/pkg/apis/batch/v1alpha1"
	schedulingv1beta1 "volcano.sh/apis/pkg/apis/scheduling/v1beta1"

	"vc-cpp.local/e2e/tests/framework"
)

// kubectlJob is a Job manifest as a user writes it: no queue, scheduler, minAvailable,
// maxRetry or task names. The tasks are given as YAML list items.
func kubectlJob(name string, tasks ...string) string {
	return fmt.Sprintf(`apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata:
  name: %s
spec:
  tasks:
%s`, name, strings.Join(tasks, ""))
}

func kubectlTask(name string, replicas int, image string) string {
	nameLine := ""
	if name != "" {
		nameLine = "    name: " + name + "\n"
	}
	return fmt.Sprintf(`  - replicas: %d
%s    template:
      spec:
        restartPolicy: Never
        containers:
        - name: main
          image: %s
`, replicas, nameLine, image)
}

// expectKubectlDenied checks kubectl failed with exit code 1 and printed the webhook's denial.
func expectKubectlDenied(t *testing.T, r framework.KubectlResult, webhook string, parts ...string) {
	t.Helper()
	if r.ExitCode != 1 {
		t.Errorf("kubectl exit code %d, want 1 (%s)", r.ExitCode, r)
	}
	want := append([]string{fmt.Sprintf("admission webhook %q denied the request: ", webhook)}, parts...)
	for _, p := range want {
		if !strings.Contains(r.Stderr, p) {
			t.Errorf("kubectl stderr %q lacks %q", r.Stderr, p)
		}
	}
}

// TestWebhookKubectlApply: the path users take. `kubectl apply -f -` of a valid Job stores it
// with the webhook's defaults; re-applying it with a changed template, applying an invalid
// Job or Queue, or deleting the default queue fails with kubectl exit code 1 and Volcano's
// message on stderr; a Queue applied with weight 0 is stored with weight 1.
func TestWebhookKubectlApply(t *testing.T) {
	f := framework.New(t, "e2e-wh-kubectl")
	f.WaitQueueOpen("default")
	ns := "--namespace=" + f.Namespace

	t.Run("valid job is stored with defaults", func(t *testing.T) {
		r := framework.Kubectl(t, kubectlJob("applied", kubectlTask("", 2, "busybox"), kubectlTask("", 1, "busybox")), ns, "apply", "-f", "-")
		if r.ExitCode != 0 || !strings.Contains(r.Stdout, "job.batch.volcano.sh/applied created") {
			t.Fatalf("kubectl apply: %s", r)
		}
		r = framework.Kubectl(t, "", ns, "get", "jobs.batch.volcano.sh", "applied", "-o", "json")
		var job batchv1alpha1.Job
		if err := json.Unmarshal([]byte(r.Stdout), &job); r.ExitCode != 0 || err != nil {
			t.Fatalf("kubectl get: %v (%s)", err, r)
		}
		expectJobSpec(t, &job, "default", "volcano", 3, 3)
		expectTask(t, &job, 0, "default0", 2, 3)
		expectTask(t, &job, 1, "default1", 1, 3)
	})

	t.Run("re-applying the job with another image is denied", func(t *testing.T) {
		// The stored task names are the defaulted ones; apply them explicitly so the only
		// change is the image.
		r := framework.Kubectl(t, kubectlJob("applied", kubectlTask("default0", 2, "nginx"), kubectlTask("default1", 1, "busybox")), ns, "apply", "-f", "-")
		expectKubectlDenied(t, r, framework.WebhookValidateJob, immutableJobFieldsMsg)
		job, err := f.Volcano.BatchV1alpha1().Jobs(f.Namespace).Get(t.Context(), "applied", metav1.GetOptions{})
		if err != nil {
			t.Fatalf("get job: %v", err)
		}
		if img := job.Spec.Tasks[0].Template.Spec.Containers[0].Image; img != "busybox" {
			t.Errorf("stored image %q after the denied apply, want busybox", img)
		}
	})

	t.Run("job with duplicated task names is denied", func(t *testing.T) {
		r := framework.Kubectl(t, kubectlJob("dup", kubectlTask("worker", 1, "busybox"), kubectlTask("worker", 1, "busybox")), ns, "apply", "-f", "-")
		expectKubectlDenied(t, r, framework.WebhookValidateJob, "duplicated task name worker;")
		expectJobAbsent(t, f, "dup")
	})

	t.Run("queue with weight 0 is stored with weight 1", func(t *testing.T) {
		name := "e2e-wh-kzero-" + f.Suffix
		manifest := fmt.Sprintf("apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata:\n  name: %s\nspec:\n  weight: 0\n", name)
		r := framework.Kubectl(t, manifest, "apply", "-f", "-")
		if r.ExitCode == 0 {
			f.DeleteQueueAtCleanup(t, name)
		}
		if r.ExitCode != 0 || !strings.Contains(r.Stdout, "queue.scheduling.volcano.sh/"+name+" created") {
			t.Fatalf("kubectl apply: %s", r)
		}
		q, err := f.Volcano.SchedulingV1beta1().Queues().Get(t.Context(), name, metav1.GetOptions{})
		if err != nil {
			t.Fatalf("get queue: %v", err)
		}
		if q.Spec.Weight != 1 || q.Spec.Reclaimable == nil || !*q.Spec.Reclaimable {
			t.Errorf("stored weight=%d reclaimable=%v, want 1 and true", q.Spec.Weight, q.Spec.Reclaimable)
		}
	})

	t.Run("queue with deserved above capability is denied", func(t *testing.T) {
		name := "e2e-wh-kcap-" + f.Suffix
		manifest := fmt.Sprintf("apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata:\n  name: %s\nspec:\n  capability: {cpu: 1}\n  deserved: {cpu: 2}\n", name)
		r := framework.Kubectl(t, manifest, "apply", "-f", "-")
		expectKubectlDenied(t, r, framework.WebhookValidateQueue,
			`requestBody.spec.deserved.cpu: Invalid value: "2": deserved[cpu]=2 must be <= capability[cpu]=1`)
		expectQueueAbsent(t, f, name)
	})

	t.Run("deleting the default queue is denied", func(t *testing.T) {
		r := framework.Kubectl(t, "", "delete", "queues.scheduling.volcano.sh", "default", "--dry-run=server")
		expectKubectlDenied(t, r, framework.WebhookValidateQueue, "`default` queue can not be deleted")
		q, err := f.Volcano.SchedulingV1beta1().Queues().Get(t.Context(), "default", metav1.GetOptions{})
		if err != nil {
			t.Fatalf("get queue default after the denied delete: %v", err)
		}
		if q.DeletionTimestamp != nil || q.Status.State != schedulingv1beta1.QueueStateOpen {
			t.Errorf("queue default after the denied delete: deleting=%v state=%s", q.DeletionTimestamp != nil, q.Status.State)
		}
	})
}

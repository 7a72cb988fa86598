package tests

import (
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	batchv1alpha1 "volcano.sh/apis/pkg/apis/batch/v1alpha1"
	busv1alpha1 "volcano.sh/apis/pkg/apis/bus/v1alpha1"

	"vc-cpp.local/e2e/tests/framework"
)

// TestJobRestartOnPodFailure: with the job policy PodFailed -> RestartJob and maxRetry 2, every
// pod failure restarts the job (phase Restarting, retryCount + 1, pods re-created for the new
// version) until the restart that sets retryCount to 2, after which the restarting rule moves
// the job to Failed (spec job-controller.md §2.3 rule R, §2.4).
func TestJobRestartOnPodFailure(t *testing.T) {
	f := framework.New(t, "e2e-job-restart")
	rec := f.NewRecorder()
	const name = "restart"
	spec := newJob(f, name, 1, endsWith("work", 1, "3s", 1))
	spec.Spec.MaxRetry = 2
	spec.Spec.Policies = []batchv1alpha1.LifecyclePolicy{onEvent(busv1alpha1.PodFailedEvent, busv1alpha1.RestartJobAction)}
	job := f.CreateJob(spec)

	final := f.WaitJob(name, "Failed", 3*framework.JobTimeout, phaseIs(batchv1alpha1.Failed))
	if final.Status.RetryCount != 2 {
		t.Errorf("Failed job has retryCount %d, want 2 (maxRetry)", final.Status.RetryCount)
	}
	hist := recordedHistory(rec, job, batchv1alpha1.Failed)
	var retries []int32
	restarting := map[int32]bool{}
	for _, e := range hist {
		s := e.Status
		if len(retries) == 0 || retries[len(retries)-1] != s.RetryCount {
			retries = append(retries, s.RetryCount)
		}
		if s.State.Phase == batchv1alpha1.Restarting {
			restarting[s.RetryCount] = true
		}
	}
	if fmt.Sprint(retries) != "[0 1 2]" {
		t.Errorf("retryCount values observed in order %v, want [0 1 2]", retries)
	}
	if !restarting[1] || !restarting[2] {
		t.Errorf("phase Restarting observed with retryCount %v, want with 1 and with 2; phases %s",
			restarting, jobPhases(hist))
	}
	expectPhasesInOrder(t, rec, job, batchv1alpha1.Running, batchv1alpha1.Restarting, batchv1alpha1.Running,
		batchv1alpha1.Restarting, batchv1alpha1.Failed)
	// Each restart re-creates the pod for the job's new version and retry count
	// (spec job-controller.md §0.4).
	ms := framework.Milestones(rec.PodsOwnedBy(job.UID))
	if m := ms[podName(name, "work", 0)]; m == nil || m.Finished == nil {
		t.Errorf("pod %s never observed finished", podName(name, "work", 0))
	}
	t.Logf("pod timeline:\n%s", framework.PodTimeline(rec.PodsOwnedBy(job.UID)))
}

// TestJobExitCodePolicy: a pod failing with exit code 3 under the policy exitCode 3 -> AbortJob
// aborts the job: the still-running pod of the other task is deleted, the failed pod is kept,
// and the phase goes Aborting -> Aborted. exitCode 5 -> TerminateJob likewise ends Terminated.
// A pod failing with exit code 1 matches neither policy, so its job simply ends Failed
// (spec job-controller.md §3.1 steps 5 and 6, §2.4).
func TestJobExitCodePolicy(t *testing.T) {
	f := framework.New(t, "e2e-job-exit")
	rec := f.NewRecorder()
	jobWithExit := func(name string, exitCode int) *batchv1alpha1.Job {
		spec := newJob(f, name, 2, endsWith("main", 1, "3s", exitCode), runForever("side", 1))
		spec.Spec.Policies = []batchv1alpha1.LifecyclePolicy{
			onExitCode(3, busv1alpha1.AbortJobAction),
			onExitCode(5, busv1alpha1.TerminateJobAction),
		}
		return spec
	}
	abort := f.CreateJob(jobWithExit("abort", 3))
	terminate := f.CreateJob(jobWithExit("terminate", 5))
	// The side pod keeps running, so without a matching policy the job stays Running; the
	// third job's side task is made to succeed so the job can finish on its own.
	unmatchedSpec := jobWithExit("unmatched", 1)
	unmatchedSpec.Spec.Tasks[1].Template.Annotations = map[string]string{framework.AnnotationSucceedAfter: "3s"}
	unmatched := f.CreateJob(unmatchedSpec)

	for _, c := range []struct {
		job           *batchv1alpha1.Job
		draining, end batchv1alpha1.JobPhase
	}{
		{abort, batchv1alpha1.Aborting, batchv1alpha1.Aborted},
		{terminate, batchv1alpha1.Terminating, batchv1alpha1.Terminated},
	} {
		f.WaitJob(c.job.Name, string(c.end), framework.JobTimeout, phaseIs(c.end))
		expectPhasesInOrder(t, rec, c.job, batchv1alpha1.Running, c.draining, c.end)
		pods := f.WaitJobPods(c.job.Name, "only the failed pod left", framework.JobTimeout, func(p []corev1.Pod) bool {
			return len(p) == 1 && p[0].Status.Phase == corev1.PodFailed
		})
		if pods[0].Name != podName(c.job.Name, "main", 0) {
			t.Errorf("job %s: pod left is %s, want the failed %s", c.job.Name, pods[0].Name, podName(c.job.Name, "main", 0))
		}
	}

	f.WaitJob(unmatched.Name, "Failed", framework.JobTimeout, phaseIs(batchv1alpha1.Failed))
	hist := recordedHistory(rec, unmatched, batchv1alpha1.Failed)
	for _, e := range hist {
		switch e.Status.State.Phase {
		case batchv1alpha1.Aborting, batchv1alpha1.Aborted, batchv1alpha1.Terminating, batchv1alpha1.Terminated:
			t.Errorf("job %s (exit code 1, no matching policy) went %s; phases %s", unmatched.Name,
				e.Status.State.Phase, jobPhases(hist))
		}
	}
}

// TestJobTaskCompletedCompletesJob: the task policy TaskCompleted -> CompleteJob on a driver
// task completes the whole job once its pod succeeded: the still-running workers are deleted and
// the job goes Completing -> Completed (spec job-controller.md §1.3 TaskCompleted, §2.4).
func TestJobTaskCompletedCompletesJob(t *testing.T) {
	f := framework.New(t, "e2e-job-taskdone")
	rec := f.NewRecorder()
	const name = "taskdone"
	spec := newJob(f, name, 3, endsWith("driver", 1, "4s", 0), runForever("worker", 2))
	spec.Spec.Tasks[0].Policies = []batchv1alpha1.LifecyclePolicy{
		onEvent(busv1alpha1.TaskCompletedEvent, busv1alpha1.CompleteJobAction)}
	job := f.CreateJob(spec)

	f.WaitJob(name, "Completed", framework.JobTimeout, phaseIs(batchv1alpha1.Completed))
	expectPhasesInOrder(t, rec, job, batchv1alpha1.Running, batchv1alpha1.Completing, batchv1alpha1.Completed)
	pods := f.WaitJobPods(name, "only the driver pod left", framework.JobTimeout, func(p []corev1.Pod) bool {
		return len(p) == 1
	})
	if pods[0].Name != podName(name, "driver", 0) || pods[0].Status.Phase != corev1.PodSucceeded {
		t.Errorf("pod left %s, want %s Succeeded", framework.JobPodsSummary(pods), podName(name, "driver", 0))
	}
	for _, w := range []string{podName(name, "worker", 0), podName(name, "worker", 1)} {
		if m := framework.Milestones(rec.PodsOwnedBy(job.UID))[w]; m == nil || m.Started == nil {
			t.Errorf("worker pod %s was never observed running before the job completed", w)
		}
	}
}

// TestJobPodEvicted: deleting a running pod of a job with the policy PodEvicted -> RestartJob
// restarts the job: Restarting with retryCount 1, then the pods are re-created for job version 1
// and retry count 1 and the job runs again (spec job-controller.md §1.3 "Pod deleted", §2.4).
func TestJobPodEvicted(t *testing.T) {
	f := framework.New(t, "e2e-job-evict")
	rec := f.NewRecorder()
	const name = "evict"
	spec := newJob(f, name, 2, runForever("work", 2))
	spec.Spec.Policies = []batchv1alpha1.LifecyclePolicy{onEvent(busv1alpha1.PodEvictedEvent, busv1alpha1.RestartJobAction)}
	job := f.CreateJob(spec)

	f.WaitJobPods(name, "2 Running", framework.JobTimeout, func(p []corev1.Pod) bool { return framework.AllRunning(p, 2) })
	f.WaitJob(name, "Running", framework.JobTimeout, phaseIs(batchv1alpha1.Running))
	victim := podName(name, "work", 1)
	if err := f.Kube.CoreV1().Pods(f.Namespace).Delete(t.Context(), victim, metav1.DeleteOptions{}); err != nil &&
		!apierrors.IsNotFound(err) {
		t.Fatalf("delete pod %s: %v", victim, err)
	}

	f.WaitJob(name, "Running again after one restart", 2*framework.JobTimeout, func(j *batchv1alpha1.Job) bool {
		return j.Status.RetryCount == 1 && j.Status.State.Phase == batchv1alpha1.Running
	})
	pods := f.WaitJobPods(name, "2 Running pods of version 1, retry 1", framework.JobTimeout, func(p []corev1.Pod) bool {
		if !framework.AllRunning(p, 2) {
			return false
		}
		for _, pod := range p {
			if pod.Annotations[batchv1alpha1.JobVersion] != "1" || pod.Annotations[batchv1alpha1.JobRetryCountKey] != "1" {
				return false
			}
		}
		return true
	})
	for _, p := range pods {
		if !framework.ControlledBy(&p, job.UID) {
			t.Errorf("pod %s is not controlled by the job", p.Name)
		}
	}
	expectPhasesInOrder(t, rec, job, batchv1alpha1.Running, batchv1alpha1.Restarting, batchv1alpha1.Running)
}

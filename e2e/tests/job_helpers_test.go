package tests

import (
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	batchv1alpha1 "volcano.sh/apis/pkg/apis/batch/v1alpha1"
	busv1alpha1 "volcano.sh/apis/pkg/apis/bus/v1alpha1"

	"vc-cpp.local/e2e/tests/framework"
)

// Shared by the Job controller scenarios (job_*_test.go; spec job-controller.md).

// jobQueue is the queue the Job scenarios submit to unless they need their own: it always
// exists and is Open, and each test's jobs live in the test's namespace.
const jobQueue = "default"

// runForever is a task with no harness annotation: kwok keeps its pods Running until deleted.
func runForever(name string, replicas int32) framework.Task {
	return framework.Task{Name: name, Replicas: replicas, CPU: "100m"}
}

// endsWith is a task whose pods end after delay: Succeeded, or Failed with exitCode if non-zero.
func endsWith(name string, replicas int32, delay string, exitCode int) framework.Task {
	t := framework.Task{Name: name, Replicas: replicas, CPU: "100m", Annotations: map[string]string{}}
	if exitCode == 0 {
		t.Annotations[framework.AnnotationSucceedAfter] = delay
	} else {
		t.Annotations[framework.AnnotationFailAfter] = delay
		t.Annotations[framework.AnnotationExitCode] = fmt.Sprint(exitCode)
	}
	return t
}

// newJob builds a Job for the default queue in the test namespace.
func newJob(f *framework.Framework, name string, minAvailable int32, tasks ...framework.Task) *batchv1alpha1.Job {
	return framework.NewJob(f.Namespace, framework.JobSpec{
		Name: name, Queue: jobQueue, MinAvailable: minAvailable, Tasks: tasks})
}

// onEvent is a lifecycle policy: event -> action.
func onEvent(event busv1alpha1.Event, action busv1alpha1.Action) batchv1alpha1.LifecyclePolicy {
	return batchv1alpha1.LifecyclePolicy{Event: event, Action: action}
}

// onExitCode is a lifecycle policy: a pod failing with code -> action.
func onExitCode(code int32, action busv1alpha1.Action) batchv1alpha1.LifecyclePolicy {
	return batchv1alpha1.LifecyclePolicy{ExitCode: &code, Action: action}
}

// podName is the job controller's pod name: <job>-<task>-<index>.
func podName(job, task string, index int) string {
	return fmt.Sprintf("%s-%s-%d", job, task, index)
}

// phaseIs is a WaitJob condition on status.state.phase.
func phaseIs(phase batchv1alpha1.JobPhase) func(*batchv1alpha1.Job) bool {
	return func(j *batchv1alpha1.Job) bool { return j.Status.State.Phase == phase }
}

// recordedHistory returns the job's recorded history once the recorder has seen it reach phase.
// A test usually learns of that phase from a GET (WaitJob) while the recorder's watch may still
// be an event behind; waiting here keeps the checks on the history from racing that watch. On
// timeout it returns what was recorded, and the caller's checks report it.
func recordedHistory(rec *framework.Recorder, job *batchv1alpha1.Job, phase batchv1alpha1.JobPhase) []framework.JobEvent {
	_, _ = framework.Poll(recorderLag, func() (bool, string, error) {
		for _, e := range rec.JobHistory(job.UID) {
			if e.Status.State.Phase == phase {
				return true, "", nil
			}
		}
		return false, "", nil
	})
	return rec.JobHistory(job.UID)
}

// recorderLag bounds how far the recorder's watch may trail what a GET already shows.
const recorderLag = 15 * time.Second

// expectPhasesInOrder fails the test unless the job's recorded phases contain want in order.
func expectPhasesInOrder(t *testing.T, rec *framework.Recorder, job *batchv1alpha1.Job, want ...batchv1alpha1.JobPhase) {
	t.Helper()
	hist := recordedHistory(rec, job, want[len(want)-1])
	if !isSubsequence(distinctPhases(hist), want) {
		t.Errorf("job %s phases observed %s, want %v in this order", job.Name, jobPhases(hist), want)
	}
}

// firstStatusIn returns the first recorded status of the job whose phase is phase, or nil.
func firstStatusIn(rec *framework.Recorder, job *batchv1alpha1.Job, phase batchv1alpha1.JobPhase) *batchv1alpha1.JobStatus {
	hist := recordedHistory(rec, job, phase)
	for i := range hist {
		if hist[i].Status.State.Phase == phase {
			return &hist[i].Status
		}
	}
	return nil
}

// checkJobOwnerRef checks the controller reference every object the job controller creates
// carries (spec job-controller.md §0.6).
func checkJobOwnerRef(t *testing.T, what string, obj metav1.Object, job *batchv1alpha1.Job) {
	t.Helper()
	ref := metav1.GetControllerOf(obj)
	switch {
	case ref == nil:
		t.Errorf("%s: no controller owner reference (refs %v)", what, obj.GetOwnerReferences())
	case ref.APIVersion != "batch.volcano.sh/v1alpha1" || ref.Kind != "Job" || ref.Name != job.Name ||
		ref.UID != job.UID || ref.BlockOwnerDeletion == nil || !*ref.BlockOwnerDeletion:
		t.Errorf("%s: controller reference %+v, want batch.volcano.sh/v1alpha1 Job %s uid %s with blockOwnerDeletion",
			what, *ref, job.Name, job.UID)
	}
}

// checkStringMap fails the test listing every key of want that got lacks or holds differently.
func checkStringMap(t *testing.T, what string, got, want map[string]string) {
	t.Helper()
	var diffs []string
	for k, v := range want {
		if g, ok := got[k]; !ok || g != v {
			diffs = append(diffs, fmt.Sprintf("%s=%q (want %q)", k, g, v))
		}
	}
	if len(diffs) > 0 {
		t.Errorf("%s: %s; all: %v", what, strings.Join(diffs, ", "), got)
	}
}

// envOf returns the container's env entries by name.
func envOf(c corev1.Container) map[string]corev1.EnvVar {
	out := map[string]corev1.EnvVar{}
	for _, e := range c.Env {
		out[e.Name] = e
	}
	return out
}

package tests

import (
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	batchv1alpha1 "volcano.sh/apis/pkg/apis/batch/v1alpha1"

	"vc-cpp.local/e2e/tests/framework"
)

// TestJobVcctlSuspendResume: Volcano's own vcctl drives the controller through bus Commands.
// `vcctl job suspend` (AbortJob) deletes the running pods and the job goes Aborting -> Aborted;
// `vcctl job resume` (ResumeJob) restarts it (retryCount 1) and it runs again with fresh pods.
// The controller deletes each Command it consumes (spec job-controller.md §6, §2.4).
func TestJobVcctlSuspendResume(t *testing.T) {
	f := framework.New(t, "e2e-job-vcctl")
	rec := f.NewRecorder()
	const name = "pausable"
	job := f.CreateJob(newJob(f, name, 2, runForever("work", 2)))
	f.WaitJobPods(name, "2 Running", framework.JobTimeout, func(p []corev1.Pod) bool { return framework.AllRunning(p, 2) })
	f.WaitJob(name, "Running", framework.JobTimeout, phaseIs(batchv1alpha1.Running))

	if res := framework.Vcctl(t, "job", "suspend", "-N", name, "-n", f.Namespace); res.ExitCode != 0 {
		t.Fatalf("vcctl job suspend: %s", res)
	}
	f.WaitJob(name, "Aborted", framework.JobTimeout, phaseIs(batchv1alpha1.Aborted))
	f.WaitJobPods(name, "none left", framework.JobTimeout, func(p []corev1.Pod) bool { return len(p) == 0 })
	f.WaitFor("AbortJob command consumed", framework.JobTimeout, commandsLeft(f, 0))

	if res := framework.Vcctl(t, "job", "resume", "-N", name, "-n", f.Namespace); res.ExitCode != 0 {
		t.Fatalf("vcctl job resume: %s", res)
	}
	final := f.WaitJob(name, "Running again", 2*framework.JobTimeout, phaseIs(batchv1alpha1.Running))
	if final.Status.RetryCount != 1 {
		t.Errorf("resumed job has retryCount %d, want 1", final.Status.RetryCount)
	}
	f.WaitJobPods(name, "2 Running again", framework.JobTimeout, func(p []corev1.Pod) bool { return framework.AllRunning(p, 2) })
	f.WaitFor("ResumeJob command consumed", framework.JobTimeout, commandsLeft(f, 0))
	expectPhasesInOrder(t, rec, job, batchv1alpha1.Running, batchv1alpha1.Aborting, batchv1alpha1.Aborted,
		batchv1alpha1.Restarting, batchv1alpha1.Running)
}

// commandsLeft waits for the test namespace to hold want bus Commands.
func commandsLeft(f *framework.Framework, want int) framework.Condition {
	return func() (bool, string, error) {
		list, err := f.Volcano.BusV1alpha1().Commands(f.Namespace).List(f.T.Context(), metav1.ListOptions{})
		if err != nil {
			return false, "", err
		}
		var names []string
		for _, c := range list.Items {
			names = append(names, c.Name+"("+c.Action+")")
		}
		return len(list.Items) == want, fmt.Sprintf("commands %v", names), nil
	}
}

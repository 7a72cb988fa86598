package tests

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	batchv1alpha1 "volcano.sh/apis/pkg/apis/batch/v1alpha1"
	schedulingv1beta1 "volcano.sh/apis/pkg/apis/scheduling/v1beta1"

	"vc-cpp.local/e2e/tests/framework"
)

// headAndWorkers is the job shape of the lifecycle scenario: 1 head + 2 workers, all needed.
func headAndWorkers(name, queue string, annotations map[string]string) framework.JobSpec {
	return framework.JobSpec{
		Name:         name,
		Queue:        queue,
		MinAvailable: 3,
		Tasks: []framework.Task{
			{Name: "head", Replicas: 1, CPU: "100m", Annotations: annotations},
			{Name: "worker", Replicas: 2, CPU: "100m", Annotations: annotations},
		},
	}
}

// TestJobLifecycle: a Volcano Job in its own queue becomes a PodGroup the scheduler admits,
// then three pods named <job>-<task>-<index> that run and succeed, and the Job ends Completed
// with all three counted as succeeded. Deleting a running Job removes its pods and PodGroup.
func TestJobLifecycle(t *testing.T) {
	f := framework.New(t, "e2e-lifecycle")
	rec := f.NewRecorder()
	queue := "e2e-lifecycle-" + f.Suffix
	f.CreateQueue(queue, 1)

	jobRunsToCompletion(t, f, rec, queue)
	deletingRunningJobRemovesPodsAndPodGroup(t, f, rec, queue)
}

// jobRunsToCompletion: PodGroup admitted, pods Running then Succeeded, Job Completed.
func jobRunsToCompletion(t *testing.T, f *framework.Framework, rec *framework.Recorder, queue string) {
	name := "lifecycle"
	job := f.CreateJob(framework.NewJob(f.Namespace, headAndWorkers(name, queue,
		map[string]string{framework.AnnotationSucceedAfter: "5s"})))
	wantPods := []string{name + "-head-0", name + "-worker-0", name + "-worker-1"}

	// The PodGroup can be deleted once the job completes, so the assertion is on what was
	// observed while it existed, not on its current state.
	f.WaitFor("PodGroup owned by the job admitted (Inqueue or Running)", 60*time.Second, func() (bool, string, error) {
		evs := rec.PodGroupsOwnedBy(job.UID)
		for _, e := range evs {
			if e.Phase == schedulingv1beta1.PodGroupInqueue || e.Phase == schedulingv1beta1.PodGroupRunning {
				return true, fmt.Sprintf("%s phase=%s", e.Name, e.Phase), nil
			}
		}
		return false, podGroupPhases(evs), nil
	})
	for _, e := range rec.PodGroupsOwnedBy(job.UID) {
		if e.MinMember != 3 || e.Queue != queue {
			t.Errorf("PodGroup %s: minMember=%d queue=%q, want minMember=3 queue=%q",
				e.Name, e.MinMember, e.Queue, queue)
			break
		}
	}

	f.WaitFor("the job's 3 pods observed Running", 60*time.Second, podsReached(rec, job.UID, wantPods, corev1.PodRunning))
	f.WaitFor("the job's 3 pods Succeeded", 60*time.Second, podsReached(rec, job.UID, wantPods, corev1.PodSucceeded))
	f.WaitJobPhase(name, batchv1alpha1.Completed, 60*time.Second)

	ms := framework.Milestones(rec.PodsOwnedBy(job.UID))
	if got := sortedKeys(ms); strings.Join(got, ",") != strings.Join(wantPods, ",") {
		t.Errorf("pods owned by the job: %v, want exactly %v", got, wantPods)
	}
	for _, p := range wantPods {
		if m := ms[p]; m == nil || m.Started == nil || m.Started.Phase != corev1.PodRunning {
			t.Errorf("pod %s was never observed Running before it finished", p)
		}
	}

	// Volcano writes Completed together with the final counts; a later cleanup pass may
	// rewrite the counters, so look at the first status that says Completed.
	hist := recordedHistory(rec, job, batchv1alpha1.Completed)
	var completed *batchv1alpha1.JobStatus
	for i := range hist {
		if hist[i].Status.State.Phase == batchv1alpha1.Completed {
			completed = &hist[i].Status
			break
		}
	}
	if completed == nil {
		t.Fatalf("no Completed status observed; phases seen: %s", jobPhases(hist))
	}
	if completed.Succeeded != 3 || completed.Failed != 0 {
		t.Errorf("status when the job turned Completed: succeeded=%d failed=%d, want 3 and 0",
			completed.Succeeded, completed.Failed)
	}
	if !isSubsequence(distinctPhases(hist), []batchv1alpha1.JobPhase{
		batchv1alpha1.Pending, batchv1alpha1.Running, batchv1alpha1.Completed}) {
		t.Errorf("job phases observed %s, want Pending then Running then Completed", jobPhases(hist))
	}
	t.Logf("pod timeline:\n%s", framework.PodTimeline(rec.PodsOwnedBy(job.UID)))
}

// deletingRunningJobRemovesPodsAndPodGroup: a foreground delete of a running job removes the
// job, its pods and its PodGroup (all owned by the job).
func deletingRunningJobRemovesPodsAndPodGroup(t *testing.T, f *framework.Framework, rec *framework.Recorder, queue string) {
	name := "lifecycle-delete"
	// No harness annotation: the pods run until they are deleted.
	job := f.CreateJob(framework.NewJob(f.Namespace, headAndWorkers(name, queue, nil)))
	wantPods := []string{name + "-head-0", name + "-worker-0", name + "-worker-1"}
	f.WaitFor("the job's 3 pods observed Running", 60*time.Second, podsReached(rec, job.UID, wantPods, corev1.PodRunning))
	f.WaitFor("a PodGroup owned by the job exists", 30*time.Second, liveOwned(f, job.UID, 1, 1, 3))

	foreground := metav1.DeletePropagationForeground
	err := f.Volcano.BatchV1alpha1().Jobs(f.Namespace).Delete(t.Context(), name,
		metav1.DeleteOptions{PropagationPolicy: &foreground})
	if err != nil {
		t.Fatalf("delete job %s: %v", name, err)
	}
	f.WaitJobGone(name, 90*time.Second)
	f.WaitFor("the job's pods and PodGroup gone", 60*time.Second, liveOwned(f, job.UID, 0, 0, 0))
}

// podsReached waits until every pod in want has been observed in phase (or, for Running,
// in any started phase: a pod that already finished has run).
func podsReached(rec *framework.Recorder, owner types.UID, want []string, phase corev1.PodPhase) framework.Condition {
	return func() (bool, string, error) {
		ms := framework.Milestones(rec.PodsOwnedBy(owner))
		var missing, seen []string
		for _, name := range want {
			m := ms[name]
			ok := m != nil && (phase == corev1.PodRunning && m.Started != nil ||
				phase != corev1.PodRunning && m.Phase == phase)
			if !ok {
				missing = append(missing, name)
			}
		}
		for _, name := range sortedKeys(ms) {
			seen = append(seen, fmt.Sprintf("%s=%s@%s", name, ms[name].Phase, ms[name].Node))
		}
		return len(missing) == 0, fmt.Sprintf("pods [%s] missing %v", strings.Join(seen, " "), missing), nil
	}
}

// liveOwned lists the pods and PodGroups whose controller is owner and compares their counts
// with the wanted ones: exactly podGroups PodGroups and between minPods and maxPods pods.
func liveOwned(f *framework.Framework, owner types.UID, podGroups, minPods, maxPods int) framework.Condition {
	return func() (bool, string, error) {
		pods, err := f.Kube.CoreV1().Pods(f.Namespace).List(f.T.Context(), metav1.ListOptions{})
		if err != nil {
			return false, "", err
		}
		pgs, err := f.Volcano.SchedulingV1beta1().PodGroups(f.Namespace).List(f.T.Context(), metav1.ListOptions{})
		if err != nil {
			return false, "", err
		}
		var podNames, pgNames []string
		for _, p := range pods.Items {
			if ref := metav1.GetControllerOf(&p); ref != nil && ref.UID == owner {
				podNames = append(podNames, fmt.Sprintf("%s(%s)", p.Name, p.Status.Phase))
			}
		}
		for _, pg := range pgs.Items {
			if ref := metav1.GetControllerOf(&pg); ref != nil && ref.UID == owner {
				pgNames = append(pgNames, fmt.Sprintf("%s(%s)", pg.Name, pg.Status.Phase))
			}
		}
		done := len(pgNames) == podGroups && len(podNames) >= minPods && len(podNames) <= maxPods
		return done, fmt.Sprintf("pods %v podgroups %v", podNames, pgNames), nil
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func podGroupPhases(evs []framework.PodGroupEvent) string {
	var parts []string
	for _, e := range evs {
		parts = append(parts, fmt.Sprintf("%s:%q", e.Name, e.Phase))
	}
	return "podgroup phases seen [" + strings.Join(parts, " ") + "]"
}

func distinctPhases(hist []framework.JobEvent) []batchv1alpha1.JobPhase {
	var out []batchv1alpha1.JobPhase
	for _, e := range hist {
		p := e.Status.State.Phase
		if p != "" && (len(out) == 0 || out[len(out)-1] != p) {
			out = append(out, p)
		}
	}
	return out
}

func jobPhases(hist []framework.JobEvent) string {
	var parts []string
	for _, p := range distinctPhases(hist) {
		parts = append(parts, string(p))
	}
	return "[" + strings.Join(parts, " -> ") + "]"
}

// isSubsequence reports whether want appears in seq in order (not necessarily adjacent).
func isSubsequence(seq, want []batchv1alpha1.JobPhase) bool {
	i := 0
	for _, p := range seq {
		if i < len(want) && p == want[i] {
			i++
		}
	}
	return i == len(want)
}

package tests

import (
	"fmt"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	batchv1alpha1 "volcano.sh/apis/pkg/apis/batch/v1alpha1"
	schedulingv1beta1 "volcano.sh/apis/pkg/apis/scheduling/v1beta1"

	"vc-cpp.local/e2e/tests/framework"
)

// TestJobLifecycleToCompleted: a Job of a head (1) and workers (2) with minAvailable 3 gets a
// PodGroup <job>-<uid> carrying the job's labels and annotations, minMember 3, minTaskMember per
// task, the queue, minResources of three 100m pods and the Job as controller
// (spec job-controller.md §4.1); pods <job>-<task>-<i> with the labels and annotations of
// spec job-controller.md §0.4; phases Pending -> Running -> Completed, the Completed status
// counting 3 succeeded per task (spec job-controller.md §4.2 step 9).
func TestJobLifecycleToCompleted(t *testing.T) {
	f := framework.New(t, "e2e-job-life")
	rec := f.NewRecorder()
	queue := "e2e-job-life-" + f.Suffix
	f.CreateQueue(queue, 1)

	const name = "life"
	spec := framework.NewJob(f.Namespace, framework.JobSpec{
		Name: name, Queue: queue, MinAvailable: 3,
		Tasks: []framework.Task{endsWith("head", 1, "6s", 0), endsWith("worker", 2, "6s", 0)},
	})
	spec.Labels = map[string]string{"e2e.vc-cpp/label": "copied"}
	spec.Annotations = map[string]string{"e2e.vc-cpp/annotation": "copied"}
	job := f.CreateJob(spec)

	pg := f.WaitPodGroup(framework.PodGroupName(job), framework.JobTimeout)
	checkLifecyclePodGroup(t, pg, job, queue)

	wantPods := []string{podName(name, "head", 0), podName(name, "worker", 0), podName(name, "worker", 1)}
	pods := f.WaitJobPods(name, "3 pods Running", framework.JobTimeout, func(p []corev1.Pod) bool {
		return framework.AllRunning(p, 3)
	})
	if got := strings.Join(framework.PodNames(pods), ","); got != strings.Join(wantPods, ",") {
		t.Errorf("pods %s, want %v", got, wantPods)
	}
	for _, p := range pods {
		checkLifecyclePod(t, &p, job, queue)
	}

	f.WaitJob(name, "Completed", framework.JobTimeout, phaseIs(batchv1alpha1.Completed))
	expectPhasesInOrder(t, rec, job, batchv1alpha1.Pending, batchv1alpha1.Running, batchv1alpha1.Completed)

	if running := firstStatusIn(rec, job, batchv1alpha1.Running); running == nil {
		t.Errorf("no Running status observed")
	} else if n := running.Running + running.Succeeded + running.Failed; n < 3 || running.MinAvailable != 3 {
		t.Errorf("status when the job turned Running: running+succeeded+failed=%d minAvailable=%d, want >=3 and 3",
			n, running.MinAvailable)
	}
	// Volcano writes Completed with the final counts; the clean-up kill that follows zeroes them
	// (spec job-controller.md §8.1), so the first Completed status is the one to check.
	done := firstStatusIn(rec, job, batchv1alpha1.Completed)
	if done == nil {
		t.Fatalf("no Completed status observed; phases %s", jobPhases(rec.JobHistory(job.UID)))
	}
	if done.Succeeded != 3 || done.Failed != 0 || done.Running != 0 || done.Pending != 0 {
		t.Errorf("Completed status counts pending=%d running=%d succeeded=%d failed=%d, want 0/0/3/0",
			done.Pending, done.Running, done.Succeeded, done.Failed)
	}
	for task, want := range map[string]int32{"head": 1, "worker": 2} {
		if got := done.TaskStatusCount[task].Phase[corev1.PodSucceeded]; got != want {
			t.Errorf("Completed status taskStatusCount[%s] Succeeded=%d, want %d (all: %v)", task, got, want,
				done.TaskStatusCount)
		}
	}
	var conds []string
	for _, c := range done.Conditions {
		conds = append(conds, string(c.Status))
	}
	if got := strings.Join(conds, ","); got != "Pending,Running,Completed" {
		t.Errorf("Completed status conditions %s, want one per phase in order Pending,Running,Completed", got)
	}
	t.Logf("pod timeline:\n%s", framework.PodTimeline(rec.PodsOwnedBy(job.UID)))
}

func checkLifecyclePodGroup(t *testing.T, pg *schedulingv1beta1.PodGroup, job *batchv1alpha1.Job, queue string) {
	t.Helper()
	what := "PodGroup " + pg.Name
	checkJobOwnerRef(t, what, pg, job)
	checkStringMap(t, what+" labels", pg.Labels, job.Labels)
	checkStringMap(t, what+" annotations", pg.Annotations, job.Annotations)
	if pg.Spec.MinMember != 3 || pg.Spec.Queue != queue {
		t.Errorf("%s: minMember=%d queue=%q, want 3 and %q", what, pg.Spec.MinMember, pg.Spec.Queue, queue)
	}
	want := map[string]int32{"head": 1, "worker": 2}
	if fmt.Sprint(pg.Spec.MinTaskMember) != fmt.Sprint(want) {
		t.Errorf("%s: minTaskMember %v, want %v", what, pg.Spec.MinTaskMember, want)
	}
	var minRes corev1.ResourceList
	if pg.Spec.MinResources != nil {
		minRes = *pg.Spec.MinResources
	}
	cpu, pods := minRes[corev1.ResourceCPU], minRes[corev1.ResourcePods]
	if cpu.Cmp(resource.MustParse("300m")) != 0 || pods.Cmp(resource.MustParse("3")) != 0 {
		t.Errorf("%s: minResources %v, want cpu 300m and pods 3 (three 100m pods)", what, minRes)
	}
}

func checkLifecyclePod(t *testing.T, p *corev1.Pod, job *batchv1alpha1.Job, queue string) {
	t.Helper()
	what := "pod " + p.Name
	task := p.Labels[batchv1alpha1.TaskSpecKey]
	index := p.Name[strings.LastIndex(p.Name, "-")+1:]
	checkJobOwnerRef(t, what, p, job)
	checkStringMap(t, what+" labels", p.Labels, map[string]string{
		batchv1alpha1.TaskSpecKey:     task,
		batchv1alpha1.TaskIndex:       index,
		batchv1alpha1.JobNameKey:      job.Name,
		batchv1alpha1.JobNamespaceKey: job.Namespace,
		batchv1alpha1.QueueNameKey:    queue,
	})
	checkStringMap(t, what+" annotations", p.Annotations, map[string]string{
		batchv1alpha1.TaskSpecKey:                    task,
		batchv1alpha1.TaskIndex:                      index,
		batchv1alpha1.JobNameKey:                     job.Name,
		batchv1alpha1.QueueNameKey:                   queue,
		batchv1alpha1.JobVersion:                     "0",
		batchv1alpha1.JobRetryCountKey:               "0",
		batchv1alpha1.PodTemplateKey:                 job.Name + "-" + task,
		schedulingv1beta1.KubeGroupNameAnnotationKey: framework.PodGroupName(job),
		framework.AnnotationSucceedAfter:             "6s",
	})
	if p.Name != podName(job.Name, task, 0) && p.Name != podName(job.Name, task, 1) {
		t.Errorf("%s: name does not match its labels task=%s index=%s", what, task, index)
	}
	if p.Spec.SchedulerName != framework.SchedulerName {
		t.Errorf("%s: schedulerName %q, want %q", what, p.Spec.SchedulerName, framework.SchedulerName)
	}
}

package tests

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	batchv1alpha1 "volcano.sh/apis/pkg/apis/batch/v1alpha1"
	busv1alpha1 "volcano.sh/apis/pkg/apis/bus/v1alpha1"
	schedulingv1beta1 "volcano.sh/apis/pkg/apis/scheduling/v1beta1"

	"vc-cpp.local/e2e/tests/framework"
)

// TestControllersQueueCloseWhileRunning: closing a queue that still has PodGroups leaves it
// Closing; it becomes Closed once the last PodGroup is gone (here: the job finishes and the
// garbage collector deletes it, TTL 0), and OpenQueue opens it again
// (spec controller-manager.md §2.5, §2.6, §6.3.5).
func TestControllersQueueCloseWhileRunning(t *testing.T) {
	f := framework.New(t, "e2e-ctl-qclose")
	queue := "e2e-ctl-qclose-" + f.Suffix
	f.CreateQueue(queue, 1)

	job := framework.NewJob(f.Namespace, framework.JobSpec{
		Name: "runner", Queue: queue, MinAvailable: 2,
		Tasks: []framework.Task{{Name: "work", Replicas: 2, CPU: "100m",
			Annotations: map[string]string{framework.AnnotationSucceedAfter: "10s"}}},
	})
	ttl := int32(0)
	job.Spec.TTLSecondsAfterFinished = &ttl
	f.CreateJob(job)
	f.WaitJobPhase("runner", batchv1alpha1.Running, framework.ControllerTimeout)

	f.IssueQueueCommand(t, queue, busv1alpha1.CloseQueueAction)
	q := f.WaitQueueState(t, queue, schedulingv1beta1.QueueStateClosing, framework.ControllerTimeout)
	if j, err := f.GetJob("runner"); err != nil || j.Status.State.Phase != batchv1alpha1.Running {
		t.Fatalf("queue became Closing only after the job stopped running (%v, err %v): the PodGroup must keep it Closing", q.Status.State, err)
	}

	// The job finishes, the collector deletes it with its PodGroup, and the queue closes.
	f.WaitJobGone("runner", framework.ControllerTimeout)
	f.WaitQueueState(t, queue, schedulingv1beta1.QueueStateClosed, framework.ControllerTimeout)
	f.WaitFor("no PodGroups in the namespace", 30*time.Second, func() (bool, string, error) {
		pgs, err := f.Volcano.SchedulingV1beta1().PodGroups(f.Namespace).List(t.Context(), metav1.ListOptions{})
		if err != nil {
			return false, "", err
		}
		return len(pgs.Items) == 0, "", nil
	})

	f.IssueQueueCommand(t, queue, busv1alpha1.OpenQueueAction)
	q = f.WaitQueueState(t, queue, schedulingv1beta1.QueueStateOpen, framework.ControllerTimeout)
	f.WaitFor("the reopen path marks the queue not closed-by-parent", framework.ControllerTimeout, func() (bool, string, error) {
		q, err := f.Volcano.SchedulingV1beta1().Queues().Get(t.Context(), queue, metav1.GetOptions{})
		if err != nil {
			return false, "", err
		}
		return q.Annotations[framework.AnnotationClosedByParent] == "false", framework.QueueSummary(q), nil
	})
	t.Logf("reopened: %s", framework.QueueSummary(q))

	// An open queue admits work again.
	again := framework.NewJob(f.Namespace, framework.JobSpec{
		Name: "after-reopen", Queue: queue, MinAvailable: 1,
		Tasks: []framework.Task{{Name: "work", Replicas: 1, CPU: "100m"}},
	})
	f.CreateJob(again)
	f.WaitJobPhase("after-reopen", batchv1alpha1.Running, framework.ControllerTimeout)
}

// TestControllersQueueParentCloseCascades: closing a parent queue closes its open children and
// marks them volcano.sh/closed-by-parent=true; reopening the parent reopens exactly those
// children and marks them "false" (spec controller-manager.md §2.6).
func TestControllersQueueParentCloseCascades(t *testing.T) {
	f := framework.New(t, "e2e-ctl-qtree")
	parent, child := "e2e-ctl-parent-"+f.Suffix, "e2e-ctl-child-"+f.Suffix
	f.CreateQueueObject(t, newQueue(parent, "", nil, nil, nil))
	f.CreateQueueObject(t, newQueue(child, parent, nil, nil, nil))
	f.WaitQueueOpen(parent)
	f.WaitQueueOpen(child)

	f.IssueQueueCommand(t, parent, busv1alpha1.CloseQueueAction)
	f.WaitQueueState(t, parent, schedulingv1beta1.QueueStateClosed, framework.ControllerTimeout)
	c := f.WaitQueueState(t, child, schedulingv1beta1.QueueStateClosed, framework.ControllerTimeout)
	if got := c.Annotations[framework.AnnotationClosedByParent]; got != "true" {
		t.Errorf("closed child: %s=%q, want \"true\"", framework.AnnotationClosedByParent, got)
	}
	if c.Spec.Parent != parent {
		t.Errorf("child parent %q, want %q", c.Spec.Parent, parent)
	}

	f.IssueQueueCommand(t, parent, busv1alpha1.OpenQueueAction)
	f.WaitQueueState(t, parent, schedulingv1beta1.QueueStateOpen, framework.ControllerTimeout)
	f.WaitQueueState(t, child, schedulingv1beta1.QueueStateOpen, framework.ControllerTimeout)
	f.WaitFor("child marked not closed-by-parent", framework.ControllerTimeout, func() (bool, string, error) {
		q, err := f.Volcano.SchedulingV1beta1().Queues().Get(t.Context(), child, metav1.GetOptions{})
		if err != nil {
			return false, "", err
		}
		return q.Annotations[framework.AnnotationClosedByParent] == "false", framework.QueueSummary(q), nil
	})
}

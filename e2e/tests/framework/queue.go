package framework

import (
	"fmt"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	schedulingv1beta1 "volcano.sh/apis/pkg/apis/scheduling/v1beta1"
)

// CreateQueue creates a Queue with the given weight, registers it for deletion at cleanup and
// waits until it is Open (status.state is set by the queue controller; the job webhook only
// accepts jobs for Open queues).
func (f *Framework) CreateQueue(name string, weight int32) *schedulingv1beta1.Queue {
	f.T.Helper()
	q := &schedulingv1beta1.Queue{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec:       schedulingv1beta1.QueueSpec{Weight: weight},
	}
	if _, err := f.Volcano.SchedulingV1beta1().Queues().Create(ctx(), q, metav1.CreateOptions{}); err != nil {
		f.T.Fatalf("create queue %s: %v", name, err)
	}
	f.queues = append(f.queues, name)
	return f.WaitQueueOpen(name)
}

// EnsureQueue creates the queue if it does not exist (and then deletes it at cleanup); an
// existing queue is used as it is and left alone. Either way it waits for the queue to be Open.
func (f *Framework) EnsureQueue(name string, weight int32) *schedulingv1beta1.Queue {
	f.T.Helper()
	_, err := f.Volcano.SchedulingV1beta1().Queues().Get(ctx(), name, metav1.GetOptions{})
	switch {
	case err == nil:
		f.T.Logf("queue %s already exists; using it and leaving it in place", name)
		return f.WaitQueueOpen(name)
	case apierrors.IsNotFound(err):
		return f.CreateQueue(name, weight)
	default:
		f.T.Fatalf("get queue %s: %v", name, err)
		return nil
	}
}

// WaitQueueOpen waits until the queue's status.state is Open.
func (f *Framework) WaitQueueOpen(name string) *schedulingv1beta1.Queue {
	f.T.Helper()
	var last *schedulingv1beta1.Queue
	f.WaitFor("queue "+name+" Open", QueueReadyTimeout, func() (bool, string, error) {
		q, err := f.Volcano.SchedulingV1beta1().Queues().Get(ctx(), name, metav1.GetOptions{})
		if err != nil {
			return false, "", err
		}
		last = q
		return q.Status.State == schedulingv1beta1.QueueStateOpen, "state=" + string(q.Status.State), nil
	})
	return last
}

// podGroupsInQueue lists the PodGroups of every namespace that name queue.
func (f *Framework) podGroupsInQueue(queue string) ([]string, error) {
	list, err := f.Volcano.SchedulingV1beta1().PodGroups(metav1.NamespaceAll).List(ctx(), metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	var names []string
	for _, pg := range list.Items {
		if pg.Spec.Queue == queue {
			names = append(names, pg.Namespace+"/"+pg.Name)
		}
	}
	return names, nil
}

// deleteQueue removes a queue the test created, once no PodGroup refers to it any more.
func (f *Framework) deleteQueue(name string) {
	t := f.T
	seen, err := Poll(QueueDeleteTimeout, func() (bool, string, error) {
		pgs, err := f.podGroupsInQueue(name)
		if err != nil {
			return false, "", err
		}
		return len(pgs) == 0, fmt.Sprintf("podgroups in queue: [%s]", strings.Join(pgs, " ")), nil
	})
	if err != nil {
		t.Errorf("cleanup: queue %s still has podgroups: %s (%v); deleting it anyway", name, seen, err)
	}
	err = f.Volcano.SchedulingV1beta1().Queues().Delete(ctx(), name, metav1.DeleteOptions{})
	if apierrors.IsNotFound(err) {
		return
	}
	if err != nil {
		t.Errorf("cleanup: delete queue %s: %v", name, err)
		return
	}
	seen, err = Poll(QueueDeleteTimeout, func() (bool, string, error) {
		q, err := f.Volcano.SchedulingV1beta1().Queues().Get(ctx(), name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return true, "gone", nil
		}
		if err != nil {
			return false, "", err
		}
		return false, fmt.Sprintf("state=%s finalizers=%v", q.Status.State, q.Finalizers), nil
	})
	if err != nil {
		t.Errorf("cleanup: queue %s not deleted within %v: %v (last seen: %s)", name, QueueDeleteTimeout, err, seen)
	}
}

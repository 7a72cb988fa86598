package framework

import (
	"fmt"
	"sort"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// DumpState logs what a reader needs to understand a failure: the namespace's jobs,
// PodGroups, pods and recent events, and the queues and nodes the test created. It is called
// automatically at cleanup when the test has failed.
func (f *Framework) DumpState() {
	t := f.T
	var b strings.Builder
	fmt.Fprintf(&b, "---- state of namespace %s (impl=%s) ----\n", f.Namespace, Impl())

	if jobs, err := f.Volcano.BatchV1alpha1().Jobs(f.Namespace).List(ctx(), metav1.ListOptions{}); err != nil {
		fmt.Fprintf(&b, "jobs: list failed: %v\n", err)
	} else {
		for _, j := range jobs.Items {
			fmt.Fprintf(&b, "job %s uid=%s minAvailable=%d queue=%s deleting=%v %s\n",
				j.Name, j.UID, j.Spec.MinAvailable, j.Spec.Queue, j.DeletionTimestamp != nil, JobStatusSummary(&j))
			for _, c := range j.Status.Conditions {
				at := "-"
				if c.LastTransitionTime != nil {
					at = fmtTime(*c.LastTransitionTime)
				}
				fmt.Fprintf(&b, "    condition %s at %s\n", c.Status, at)
			}
		}
	}

	if pgs, err := f.Volcano.SchedulingV1beta1().PodGroups(f.Namespace).List(ctx(), metav1.ListOptions{}); err != nil {
		fmt.Fprintf(&b, "podgroups: list failed: %v\n", err)
	} else {
		for _, pg := range pgs.Items {
			fmt.Fprintf(&b, "podgroup %s owner=%s phase=%q minMember=%d queue=%s running=%d succeeded=%d failed=%d\n",
				pg.Name, controllerUID(&pg), pg.Status.Phase, pg.Spec.MinMember, pg.Spec.Queue,
				pg.Status.Running, pg.Status.Succeeded, pg.Status.Failed)
			for _, c := range pg.Status.Conditions {
				fmt.Fprintf(&b, "    condition %s=%s reason=%s: %s\n", c.Type, c.Status, c.Reason, c.Message)
			}
		}
	}

	if pods, err := f.Kube.CoreV1().Pods(f.Namespace).List(ctx(), metav1.ListOptions{}); err != nil {
		fmt.Fprintf(&b, "pods: list failed: %v\n", err)
	} else {
		for _, p := range pods.Items {
			fmt.Fprintf(&b, "pod %s phase=%s node=%q scheduler=%s deleting=%v\n",
				p.Name, p.Status.Phase, p.Spec.NodeName, p.Spec.SchedulerName, p.DeletionTimestamp != nil)
		}
	}

	if evs, err := f.Kube.CoreV1().Events(f.Namespace).List(ctx(), metav1.ListOptions{}); err != nil {
		fmt.Fprintf(&b, "events: list failed: %v\n", err)
	} else {
		items := evs.Items
		sort.Slice(items, func(i, j int) bool { return eventTime(items[i]).Before(eventTime(items[j])) })
		const maxEvents = 40
		if len(items) > maxEvents {
			items = items[len(items)-maxEvents:]
		}
		for _, e := range items {
			fmt.Fprintf(&b, "event %s %s %s/%s %s: %s (x%d)\n", fmtTime(metav1.NewTime(eventTime(e))), e.Type,
				e.InvolvedObject.Kind, e.InvolvedObject.Name, e.Reason, e.Message, e.Count)
		}
	}

	for _, name := range f.queues {
		q, err := f.Volcano.SchedulingV1beta1().Queues().Get(ctx(), name, metav1.GetOptions{})
		if err != nil {
			fmt.Fprintf(&b, "queue %s: %v\n", name, err)
			continue
		}
		fmt.Fprintf(&b, "queue %s state=%s weight=%d pending=%d inqueue=%d running=%d allocated=%v\n",
			q.Name, q.Status.State, q.Spec.Weight, q.Status.Pending, q.Status.Inqueue, q.Status.Running,
			q.Status.Allocated)
	}
	for _, name := range f.nodes {
		n, err := f.Kube.CoreV1().Nodes().Get(ctx(), name, metav1.GetOptions{})
		if err != nil {
			fmt.Fprintf(&b, "node %s: %v\n", name, err)
			continue
		}
		fmt.Fprintf(&b, "node %s ready=%v allocatable=%v taints=%v\n", n.Name, nodeReady(n),
			n.Status.Allocatable, n.Spec.Taints)
	}
	t.Log(b.String())
}

func eventTime(e corev1.Event) time.Time {
	switch {
	case !e.LastTimestamp.IsZero():
		return e.LastTimestamp.Time
	case !e.EventTime.IsZero():
		return e.EventTime.Time
	default:
		return e.CreationTimestamp.Time
	}
}

func fmtTime(t metav1.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format("15:04:05")
}

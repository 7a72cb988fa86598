package framework

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	busv1alpha1 "volcano.sh/apis/pkg/apis/bus/v1alpha1"
	schedulingv1beta1 "volcano.sh/apis/pkg/apis/scheduling/v1beta1"
)

// Keys the controller scenarios read and write (spec controller-manager.md §6.1).
const (
	// AnnotationGroupName joins a pod to its PodGroup; pg-controller writes it, operators such
	// as KubeRay set it themselves.
	AnnotationGroupName = "scheduling.k8s.io/group-name"
	// AnnotationClosedByParent marks a queue closed (or reopened) through its parent.
	AnnotationClosedByParent = "volcano.sh/closed-by-parent"
	// ControllerTimeout bounds how long a controller may take to react to a change.
	ControllerTimeout = 60 * time.Second
)

// IssueQueueCommand asks the queue controller to act on a queue the way `vcctl queue operate`
// does: a bus.volcano.sh Command in the test namespace with the action (OpenQueue or
// CloseQueue) and the queue as target and controller owner. The controller deletes it.
func (f *Framework) IssueQueueCommand(t testing.TB, queue string, action busv1alpha1.Action) {
	t.Helper()
	q, err := f.Volcano.SchedulingV1beta1().Queues().Get(ctx(), queue, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("get queue %s: %v", queue, err)
	}
	yes := true
	target := metav1.OwnerReference{
		APIVersion: schedulingv1beta1.SchemeGroupVersion.String(), Kind: "Queue",
		Name: q.Name, UID: q.UID, Controller: &yes, BlockOwnerDeletion: &yes,
	}
	cmd := &busv1alpha1.Command{
		ObjectMeta: metav1.ObjectMeta{
			GenerateName:    queue + "-" + strings.ToLower(string(action)) + "-",
			Namespace:       f.Namespace,
			OwnerReferences: []metav1.OwnerReference{target},
		},
		Action:       string(action),
		TargetObject: &target,
	}
	if _, err := f.Volcano.BusV1alpha1().Commands(f.Namespace).Create(ctx(), cmd, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create %s command for queue %s: %v", action, queue, err)
	}
}

// QueueSummary renders the queue fields the controller scenarios look at.
func QueueSummary(q *schedulingv1beta1.Queue) string {
	return fmt.Sprintf("state=%q parent=%q %s=%q", q.Status.State, q.Spec.Parent,
		AnnotationClosedByParent, q.Annotations[AnnotationClosedByParent])
}

// WaitQueueState waits until the queue's status.state is state and returns the queue.
func (f *Framework) WaitQueueState(t testing.TB, name string, state schedulingv1beta1.QueueState,
	timeout time.Duration) *schedulingv1beta1.Queue {
	t.Helper()
	var last *schedulingv1beta1.Queue
	WaitFor(t, fmt.Sprintf("queue %s %s", name, state), timeout, func() (bool, string, error) {
		q, err := f.Volcano.SchedulingV1beta1().Queues().Get(ctx(), name, metav1.GetOptions{})
		if err != nil {
			return false, "", err
		}
		last = q
		return q.Status.State == state, QueueSummary(q), nil
	})
	return last
}

// Consistently checks cond for the whole duration and fails the test the first time it does
// not hold (or cannot be read), printing what it saw. It is for "nothing happens while ...":
// a gang that must not start while it is incomplete.
func Consistently(t testing.TB, what string, duration time.Duration, cond Condition) {
	t.Helper()
	deadline := time.Now().Add(duration)
	ticker := time.NewTicker(PollInterval)
	defer ticker.Stop()
	var seen string
	for {
		ok, s, err := cond()
		if err != nil {
			t.Fatalf("%s: could not check: %v", what, err)
		}
		if !ok {
			t.Fatalf("%s no longer holds: %s", what, s)
		}
		seen = s
		if time.Now().After(deadline) {
			break
		}
		<-ticker.C
	}
	t.Logf("%s held for %v: %s", what, duration, seen)
}

// NewVolcanoPod builds a pod for the volcano scheduler requesting cpu, with the given
// annotations (kwok stage annotations, a PodGroup name). kwok never runs its image.
func NewVolcanoPod(ns, name, cpu string, annotations map[string]string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Annotations: annotations},
		Spec:       VolcanoPodSpec(cpu),
	}
}

// VolcanoPodSpec is the spec of NewVolcanoPod, for pod templates too.
func VolcanoPodSpec(cpu string) corev1.PodSpec {
	return corev1.PodSpec{
		SchedulerName: SchedulerName,
		RestartPolicy: corev1.RestartPolicyNever,
		Containers: []corev1.Container{{
			Name:    "main",
			Image:   "busybox",
			Command: []string{"sh", "-c", "sleep 3600"},
			Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{
				corev1.ResourceCPU: resource.MustParse(cpu),
			}},
		}},
	}
}

// CreatePod creates a pod in the test namespace and returns the stored object.
func (f *Framework) CreatePod(t testing.TB, pod *corev1.Pod) *corev1.Pod {
	t.Helper()
	out, err := f.Kube.CoreV1().Pods(pod.Namespace).Create(ctx(), pod, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create pod %s/%s: %v", pod.Namespace, pod.Name, err)
	}
	return out
}

// CreatePodGroup creates a PodGroup as an operator would. The webhook checks the queue against
// a cache that lags the API server slightly, so a denial that only says the queue is unknown
// or not yet Open is retried for a short while.
func (f *Framework) CreatePodGroup(t testing.TB, pg *schedulingv1beta1.PodGroup) *schedulingv1beta1.PodGroup {
	t.Helper()
	var created *schedulingv1beta1.PodGroup
	WaitFor(t, "create podgroup "+pg.Namespace+"/"+pg.Name, 30*time.Second, func() (bool, string, error) {
		out, err := f.Volcano.SchedulingV1beta1().PodGroups(pg.Namespace).Create(ctx(), pg, metav1.CreateOptions{})
		if err == nil {
			created = out
			return true, "created", nil
		}
		msg := err.Error()
		if strings.Contains(msg, "with state `Open`") || strings.Contains(msg, "not found") {
			return false, "", err
		}
		t.Fatalf("create podgroup %s/%s: %v", pg.Namespace, pg.Name, err)
		return false, "", err
	})
	return created
}

// PodsSummary renders name, node and phase of pods, sorted by name.
func PodsSummary(pods []corev1.Pod) string {
	var parts []string
	for _, p := range pods {
		parts = append(parts, fmt.Sprintf("%s node=%q phase=%s group=%q", p.Name, p.Spec.NodeName,
			p.Status.Phase, p.Annotations[AnnotationGroupName]))
	}
	sort.Strings(parts)
	return "[" + strings.Join(parts, "; ") + "]"
}

// WaitPodsRunning waits until the test namespace holds exactly n pods matching selector (""
// for all), each bound to a node and Running, and returns them.
func (f *Framework) WaitPodsRunning(t testing.TB, selector string, n int, timeout time.Duration) []corev1.Pod {
	t.Helper()
	var last []corev1.Pod
	WaitFor(t, fmt.Sprintf("%d pods running (selector %q)", n, selector), timeout, func() (bool, string, error) {
		list, err := f.Kube.CoreV1().Pods(f.Namespace).List(ctx(), metav1.ListOptions{LabelSelector: selector})
		if err != nil {
			return false, "", err
		}
		last = list.Items
		done := len(list.Items) == n
		for _, p := range list.Items {
			done = done && p.Spec.NodeName != "" && p.Status.Phase == corev1.PodRunning
		}
		return done, PodsSummary(list.Items), nil
	})
	return last
}

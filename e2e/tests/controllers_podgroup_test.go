package tests

import (
	"fmt"
	"sort"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	schedulingv1beta1 "volcano.sh/apis/pkg/apis/scheduling/v1beta1"

	"vc-cpp.local/e2e/tests/framework"
)

// waitPodGroup waits until the PodGroup exists and returns it.
func waitPodGroup(t *testing.T, f *framework.Framework, name string) *schedulingv1beta1.PodGroup {
	t.Helper()
	var pg *schedulingv1beta1.PodGroup
	f.WaitFor("podgroup "+name, framework.ControllerTimeout, func() (bool, string, error) {
		got, err := f.Volcano.SchedulingV1beta1().PodGroups(f.Namespace).Get(t.Context(), name, metav1.GetOptions{})
		if err != nil {
			return false, "", err
		}
		pg = got
		return true, fmt.Sprintf("phase=%s minMember=%d queue=%s", got.Status.Phase, got.Spec.MinMember, got.Spec.Queue), nil
	})
	return pg
}

// checkOwner asserts that pg has exactly one controller owner of the given kind and UID.
func checkOwner(t *testing.T, pg *schedulingv1beta1.PodGroup, kind, uid string) {
	t.Helper()
	for _, ref := range pg.OwnerReferences {
		if ref.Controller != nil && *ref.Controller {
			if ref.Kind != kind || string(ref.UID) != uid {
				t.Errorf("podgroup %s controller owner %s %s, want %s %s", pg.Name, ref.Kind, ref.UID, kind, uid)
			}
			return
		}
	}
	t.Errorf("podgroup %s has no controller owner (refs %+v), want %s %s", pg.Name, pg.OwnerReferences, kind, uid)
}

// TestControllersPodGroupForBarePod: a pod for the volcano scheduler that names no PodGroup
// gets one (podgroup-<pod uid>, owned by the pod, minMember 1, the default queue), is annotated
// to join it, and is scheduled (spec controller-manager.md §3.2-§3.4).
func TestControllersPodGroupForBarePod(t *testing.T) {
	f := framework.New(t, "e2e-ctl-pgpod")
	f.WaitQueueOpen("default")
	pod := f.CreatePod(t, framework.NewVolcanoPod(f.Namespace, "bare", "100m", nil))
	name := "podgroup-" + string(pod.UID)

	pg := waitPodGroup(t, f, name)
	checkOwner(t, pg, "Pod", string(pod.UID))
	if pg.Spec.MinMember != 1 || pg.Spec.Queue != "default" {
		t.Errorf("podgroup minMember=%d queue=%q, want 1 and default", pg.Spec.MinMember, pg.Spec.Queue)
	}
	if cpu := pg.Spec.MinResources; cpu == nil || !(*cpu)[corev1.ResourceCPU].Equal(resource.MustParse("100m")) {
		t.Errorf("podgroup minResources %v, want cpu 100m", pg.Spec.MinResources)
	}
	pods := f.WaitPodsRunning(t, "", 1, framework.ControllerTimeout)
	if got := pods[0].Annotations[framework.AnnotationGroupName]; got != name {
		t.Errorf("pod annotation %s=%q, want %q", framework.AnnotationGroupName, got, name)
	}
}

// TestControllersPodGroupForReplicaSet: the pods of a ReplicaSet for the volcano scheduler
// share one PodGroup named after the ReplicaSet (podgroup-<rs uid>, owned by it) and are
// scheduled.
func TestControllersPodGroupForReplicaSet(t *testing.T) {
	f := framework.New(t, "e2e-ctl-pgrs")
	f.WaitQueueOpen("default")
	replicas := int32(2)
	labels := map[string]string{"app": "rs-" + f.Suffix}
	rs := &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Name: "workers", Namespace: f.Namespace},
		Spec: appsv1.ReplicaSetSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       framework.VolcanoPodSpec("100m"),
			},
		},
	}
	// A ReplicaSet's pods must be restartable.
	rs.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyAlways
	created, err := f.Kube.AppsV1().ReplicaSets(f.Namespace).Create(t.Context(), rs, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create replicaset: %v", err)
	}
	name := "podgroup-" + string(created.UID)
	pg := waitPodGroup(t, f, name)
	checkOwner(t, pg, "ReplicaSet", string(created.UID))

	pods := f.WaitPodsRunning(t, "app="+labels["app"], 2, framework.ControllerTimeout)
	for _, p := range pods {
		if got := p.Annotations[framework.AnnotationGroupName]; got != name {
			t.Errorf("pod %s annotation %s=%q, want %q", p.Name, framework.AnnotationGroupName, got, name)
		}
	}
	list, err := f.Volcano.SchedulingV1beta1().PodGroups(f.Namespace).List(t.Context(), metav1.ListOptions{})
	if err != nil {
		t.Fatalf("list podgroups: %v", err)
	}
	if len(list.Items) != 1 {
		var names []string
		for _, p := range list.Items {
			names = append(names, p.Name)
		}
		t.Errorf("podgroups %v, want only %s (one per ReplicaSet, not per pod)", names, name)
	}
}

// TestControllersKubeRayGang: an operator (KubeRay-style) creates a PodGroup with minMember 3
// in queue ray-batch and pods annotated with its name. While only two pods exist none is
// bound; once the third exists all three are bound together, and the PodGroup is admitted.
func TestControllersKubeRayGang(t *testing.T) {
	f := framework.New(t, "e2e-ctl-ray")
	f.EnsureQueue(gangQueue, 1)
	rec := f.NewRecorder()
	group := "raycluster-" + f.Suffix
	cpu := resource.MustParse("300m")
	f.CreatePodGroup(t, &schedulingv1beta1.PodGroup{
		ObjectMeta: metav1.ObjectMeta{Name: group, Namespace: f.Namespace},
		Spec: schedulingv1beta1.PodGroupSpec{
			MinMember: 3, Queue: gangQueue,
			MinResources: &corev1.ResourceList{corev1.ResourceCPU: cpu},
		},
	})
	member := map[string]string{framework.AnnotationGroupName: group}
	names := []string{"ray-head", "ray-worker-0", "ray-worker-1"}
	for _, n := range names[:2] {
		f.CreatePod(t, framework.NewVolcanoPod(f.Namespace, n, "100m", member))
	}
	framework.Consistently(t, "an incomplete gang stays unbound", 4*time.Second, func() (bool, string, error) {
		pods, err := f.Kube.CoreV1().Pods(f.Namespace).List(t.Context(), metav1.ListOptions{})
		if err != nil {
			return false, "", err
		}
		for _, p := range pods.Items {
			if p.Spec.NodeName != "" {
				return false, framework.PodsSummary(pods.Items), nil
			}
		}
		return true, framework.PodsSummary(pods.Items), nil
	})
	thirdCreated := time.Now()
	f.CreatePod(t, framework.NewVolcanoPod(f.Namespace, names[2], "100m", member))
	pods := f.WaitPodsRunning(t, "", 3, framework.ControllerTimeout)
	for _, p := range pods {
		if got := p.Annotations[framework.AnnotationGroupName]; got != group {
			t.Errorf("pod %s joined %q, want %q", p.Name, got, group)
		}
	}
	f.WaitFor("podgroup "+group+" Running", framework.ControllerTimeout, func() (bool, string, error) {
		pg, err := f.Volcano.SchedulingV1beta1().PodGroups(f.Namespace).Get(t.Context(), group, metav1.GetOptions{})
		if err != nil {
			return false, "", err
		}
		return pg.Status.Phase == schedulingv1beta1.PodGroupRunning, fmt.Sprintf("phase=%s running=%d", pg.Status.Phase, pg.Status.Running), nil
	})

	// From the recorded history: when each pod was first seen bound.
	bound := map[string]time.Time{}
	for _, e := range rec.Pods() {
		if _, seen := bound[e.Name]; !seen && e.Node != "" {
			bound[e.Name] = e.At
		}
	}
	var times []time.Time
	for _, n := range names {
		at, ok := bound[n]
		if !ok {
			t.Fatalf("pod %s never seen bound; history:\n%s", n, framework.PodTimeline(rec.Pods()))
		}
		if at.Before(thirdCreated) {
			t.Errorf("pod %s bound %v before the gang was complete", n, thirdCreated.Sub(at))
		}
		times = append(times, at)
	}
	sort.Slice(times, func(i, j int) bool { return times[i].Before(times[j]) })
	if spread := times[2].Sub(times[0]); spread > gangSpread {
		t.Errorf("gang bound over %v, want all three within %v; history:\n%s", spread, gangSpread,
			framework.PodTimeline(rec.Pods()))
	}
	// A PodGroup is admitted (Inqueue) before or as its pods are bound, never left Pending.
	admitted := false
	for _, e := range rec.PodGroups() {
		if e.Name == group && (e.Phase == schedulingv1beta1.PodGroupInqueue || e.Phase == schedulingv1beta1.PodGroupRunning) {
			admitted = true
		}
	}
	if !admitted {
		t.Errorf("podgroup %s never seen Inqueue or Running", group)
	}
}

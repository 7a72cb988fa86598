package tests

import (
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	schedulingv1beta1 "volcano.sh/apis/pkg/apis/scheduling/v1beta1"

	"vc-cpp.local/e2e/tests/framework"
)

// updateQueue reads the queue, applies change and writes it back, retrying write conflicts.
func updateQueue(t *testing.T, f *framework.Framework, name string, change func(*schedulingv1beta1.Queue)) error {
	t.Helper()
	queues := f.Volcano.SchedulingV1beta1().Queues()
	var err error
	for attempt := 0; attempt < 10; attempt++ {
		var q *schedulingv1beta1.Queue
		q, err = queues.Get(t.Context(), name, metav1.GetOptions{})
		if err != nil {
			t.Fatalf("get queue %s: %v", name, err)
		}
		change(q)
		_, err = queues.Update(t.Context(), q, metav1.UpdateOptions{})
		if !apierrors.IsConflict(err) {
			return err
		}
	}
	return err
}

// TestWebhookQueueHierarchy: /queues/validate keeps the queue tree consistent on CREATE and
// UPDATE (spec webhook.md §2.6 steps 2 and 4): the parent must exist and not be the queue
// itself, the tree is at most 5 queues deep below root, a capability may not exceed the
// nearest ancestor's nor be below a descendant's, children's guarantee and deserved may not
// add up to more than the parent's (a parent with none counts as zero), and a queue that
// already runs pods cannot become a parent. Denied queues are not stored and denied updates
// change nothing.
func TestWebhookQueueHierarchy(t *testing.T) {
	f := framework.New(t, "e2e-wh-qtree")
	queues := f.Volcano.SchedulingV1beta1().Queues()
	n := func(s string) string { return "e2e-wh-" + s + "-" + f.Suffix }

	// P (capability 4, deserved 2, guarantee 1 CPU) with children C1 (capability 3, deserved 1)
	// and M (no resources); E has no resources; D1..D5 is a chain as deep as allowed.
	p, c1, m, e, missing := n("p"), n("c1"), n("m"), n("e"), n("missing")
	f.CreateQueueObject(t, newQueue(p, "", cpu("4"), cpu("2"), cpu("1")))
	f.CreateQueueObject(t, newQueue(c1, p, cpu("3"), cpu("1"), nil))
	f.CreateQueueObject(t, newQueue(m, p, nil, nil, nil))
	f.CreateQueueObject(t, newQueue(e, "", nil, nil, nil))
	// G caps memory and an extended resource, whose values Volcano prints differently.
	g := n("g")
	f.CreateQueueObject(t, newQueue(g, "", corev1.ResourceList{
		corev1.ResourceMemory: resource.MustParse("4Gi"), "nvidia.com/gpu": resource.MustParse("2")}, nil, nil))
	parent := "root"
	for i := 1; i <= 5; i++ {
		d := n(fmt.Sprintf("d%d", i))
		f.CreateQueueObject(t, newQueue(d, parent, nil, nil, nil))
		parent = d
	}
	deepest := parent

	creates := []struct {
		name  string
		queue *schedulingv1beta1.Queue
		parts []string
	}{
		{name: "parent that does not exist", queue: newQueue(n("orphan"), missing, nil, nil, nil),
			parts: []string{fmt.Sprintf(`failed to get parent queue %s of queue %s: queue.scheduling.volcano.sh %q not found`, missing, n("orphan"), missing)}},
		{name: "parent is the queue itself", queue: newQueue(n("self"), n("self"), nil, nil, nil),
			parts: []string{fmt.Sprintf("queue %s cannot use itself as parent", n("self"))}},
		{name: "deeper than 5 levels below root", queue: newQueue(n("d6"), deepest, nil, nil, nil),
			parts: []string{fmt.Sprintf("queue %s exceeds the maximum allowed depth of 5", n("d6"))}},
		{name: "capability above the parent's", queue: newQueue(n("bigcap"), p, cpu("8"), nil, nil),
			parts: []string{fmt.Sprintf("queue %s capability[cpu]=8 exceeds its ancestor's capability=4", n("bigcap"))}},
		{name: "capability above a grandparent's when the parent sets none", queue: newQueue(n("bigcap2"), m, cpu("5"), nil, nil),
			parts: []string{fmt.Sprintf("queue %s capability[cpu]=5 exceeds its ancestor's capability=4", n("bigcap2"))}},
		{name: "memory capability above the parent's", queue: newQueue(n("bigmem"), g, corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("5Gi")}, nil, nil),
			parts: []string{fmt.Sprintf("queue %s capability[memory]=5Gi exceeds its ancestor's capability=4Gi", n("bigmem"))}},
		{name: "extended resource capability above the parent's, in milli-units", queue: newQueue(n("biggpu"), g, corev1.ResourceList{"nvidia.com/gpu": resource.MustParse("3")}, nil, nil),
			parts: []string{fmt.Sprintf("queue %s capability[nvidia.com/gpu]=3000.00 exceeds its ancestor's capability=2000.00", n("biggpu"))}},
		{name: "children's deserved above the parent's", queue: newQueue(n("bigdes"), p, nil, cpu("1500m"), nil),
			parts: []string{fmt.Sprintf("parent queue %s validation failed: sum of children's deserved (cpu 2500.00, memory 0.00) exceeds parent's deserved limit (cpu 2000.00, memory 0.00)", p)}},
		{name: "children's guarantee above the parent's", queue: newQueue(n("biggua"), p, nil, cpu("2"), cpu("2")),
			parts: []string{fmt.Sprintf("parent queue %s validation failed: sum of children's guarantee (cpu 2000.00, memory 0.00) exceeds parent's guarantee limit (cpu 1000.00, memory 0.00)", p)}},
		{name: "deserved under a parent without deserved", queue: newQueue(n("undere"), e, nil, cpu("1"), nil),
			parts: []string{fmt.Sprintf("parent queue %s validation failed: sum of children's deserved (cpu 1000.00, memory 0.00) exceeds parent's deserved limit (cpu 0.00, memory 0.00)", e)}},
	}
	for _, tc := range creates {
		t.Run("create/"+tc.name, func(t *testing.T) {
			framework.WaitDenied(t, "the webhook to see the queue tree", func() error {
				_, err := queues.Create(t.Context(), tc.queue, framework.DryRunCreate())
				return err
			}, framework.WebhookValidateQueue, tc.parts...)
			_, err := queues.Create(t.Context(), tc.queue, metav1.CreateOptions{})
			framework.ExpectDenied(t, err, framework.WebhookValidateQueue, tc.parts...)
			expectQueueAbsent(t, f, tc.queue.Name)
		})
	}

	updates := []struct {
		name   string
		queue  string
		change func(*schedulingv1beta1.Queue)
		parts  []string // nil: admitted
	}{
		{name: "parent capability below a child's", queue: p,
			change: func(q *schedulingv1beta1.Queue) { q.Spec.Capability = cpu("2") },
			parts:  []string{fmt.Sprintf("queue %s capability[cpu]=2 is smaller than its descendants' max capability=3", p)}},
		{name: "child deserved above what the parent has left", queue: c1,
			change: func(q *schedulingv1beta1.Queue) { q.Spec.Deserved = cpu("3") },
			parts:  []string{fmt.Sprintf("parent queue %s validation failed: sum of children's deserved (cpu 3000.00, memory 0.00) exceeds parent's deserved limit (cpu 2000.00, memory 0.00)", p)}},
		{name: "parent changed to the queue itself", queue: c1,
			change: func(q *schedulingv1beta1.Queue) { q.Spec.Parent = c1 },
			parts:  []string{fmt.Sprintf("queue %s cannot use itself as parent", c1)}},
		{name: "parent changed to a queue that does not exist", queue: c1,
			change: func(q *schedulingv1beta1.Queue) { q.Spec.Parent = missing },
			parts:  []string{fmt.Sprintf(`failed to get parent queue %s of queue %s: queue.scheduling.volcano.sh %q not found`, missing, c1, missing)}},
		{name: "weight of a parent", queue: p,
			change: func(q *schedulingv1beta1.Queue) { q.Spec.Weight = 9 }},
	}
	for _, tc := range updates {
		t.Run("update/"+tc.name, func(t *testing.T) {
			before, err := queues.Get(t.Context(), tc.queue, metav1.GetOptions{})
			if err != nil {
				t.Fatalf("get queue: %v", err)
			}
			err = updateQueue(t, f, tc.queue, tc.change)
			after, getErr := queues.Get(t.Context(), tc.queue, metav1.GetOptions{})
			if getErr != nil {
				t.Fatalf("get queue after the update: %v", getErr)
			}
			if tc.parts == nil {
				if err != nil {
					t.Fatalf("update was refused: %v", err)
				}
				want := before.DeepCopy()
				tc.change(want)
				if !equality.Semantic.DeepEqual(after.Spec, want.Spec) {
					t.Errorf("stored spec %+v, want %+v", after.Spec, want.Spec)
				}
				return
			}
			framework.ExpectDenied(t, err, framework.WebhookValidateQueue, tc.parts...)
			if !equality.Semantic.DeepEqual(before.Spec, after.Spec) {
				t.Errorf("stored spec changed by a denied update:\nbefore %+v\nafter  %+v", before.Spec, after.Spec)
			}
		})
	}

	// Not a subtest: it uses the framework's helpers, which fail the top-level test.
	childOfBusyQueue(t, f)
}

// childOfBusyQueue: a queue whose status counts allocated pods (written by the scheduler) and
// that has no children yet cannot become a parent.
func childOfBusyQueue(t *testing.T, f *framework.Framework) {
	busy := "e2e-wh-busy-" + f.Suffix
	f.CreateQueue(busy, 1)
	f.CreateJob(framework.NewJob(f.Namespace, framework.JobSpec{
		Name: "busy", Queue: busy, MinAvailable: 1,
		Tasks: []framework.Task{{Name: "worker", Replicas: 1, CPU: "10m"}},
	}))
	queues := f.Volcano.SchedulingV1beta1().Queues()
	framework.WaitFor(t, "queue "+busy+" to count 1 allocated pod", framework.QueueReadyTimeout, func() (bool, string, error) {
		q, err := queues.Get(t.Context(), busy, metav1.GetOptions{})
		if err != nil {
			return false, "", err
		}
		pods := q.Status.Allocated[corev1.ResourcePods]
		return pods.Value() == 1, "allocated=" + fmt.Sprint(q.Status.Allocated), nil
	})
	child := newQueue("e2e-wh-busychild-"+f.Suffix, busy, nil, nil, nil)
	want := fmt.Sprintf("queue %s cannot be the parent queue of queue %s because it has allocated Pods: 1", busy, child.Name)
	framework.WaitDenied(t, "the webhook to see the allocated pod", func() error {
		_, err := queues.Create(t.Context(), child, framework.DryRunCreate())
		return err
	}, framework.WebhookValidateQueue, want)
	_, err := queues.Create(t.Context(), child, metav1.CreateOptions{})
	framework.ExpectDenied(t, err, framework.WebhookValidateQueue, want)
	expectQueueAbsent(t, f, child.Name)
}

// TestWebhookQueueProtection: the queues "default" and "root" cannot be deleted, root's
// resources cannot be changed, and a queue with child queues cannot be deleted; a leaf queue,
// Open or Closed, can (spec webhook.md §2.6 DELETE and step 3). Requests that could harm the
// shared cluster if wrongly admitted are dry runs.
func TestWebhookQueueProtection(t *testing.T) {
	f := framework.New(t, "e2e-wh-qprot")
	queues := f.Volcano.SchedulingV1beta1().Queues()
	n := func(s string) string { return "e2e-wh-" + s + "-" + f.Suffix }

	p1, p1c := n("p1"), n("p1c")
	p2, p2a, p2b := n("p2"), n("p2a"), n("p2b")
	f.CreateQueueObject(t, newQueue(p1, "", nil, nil, nil))
	f.CreateQueueObject(t, newQueue(p1c, p1, nil, nil, nil))
	f.CreateQueueObject(t, newQueue(p2, "", nil, nil, nil))
	f.CreateQueueObject(t, newQueue(p2a, p2, nil, nil, nil))
	f.CreateQueueObject(t, newQueue(p2b, p2, nil, nil, nil))
	open, closed := n("open"), n("closed")
	f.CreateQueue(open, 1)
	f.CreateQueue(closed, 1)
	f.CloseQueue(t, closed)

	deletes := []struct {
		name   string
		queue  string
		dryRun bool
		parts  []string // nil: admitted
	}{
		{name: "default", queue: "default", dryRun: true, parts: []string{"`default` queue can not be deleted"}},
		{name: "root", queue: "root", dryRun: true, parts: []string{"`root` queue can not be deleted"}},
		{name: "queue with a child", queue: p1, parts: []string{fmt.Sprintf("queue %s can not be deleted because it has 1 child queues: %s", p1, p1c)}},
		{name: "queue with two children, listed in any order", queue: p2,
			parts: []string{fmt.Sprintf("queue %s can not be deleted because it has 2 child queues: ", p2), p2a, p2b, ", "}},
		{name: "open leaf queue", queue: open},
		{name: "closed leaf queue", queue: closed},
	}
	for _, tc := range deletes {
		t.Run("delete/"+tc.name, func(t *testing.T) {
			opts := metav1.DeleteOptions{}
			if tc.dryRun {
				opts = framework.DryRunDelete()
			}
			if tc.parts == nil {
				// Deleting a queue the webhook's cache has not seen yet is denied as NotFound.
				framework.WaitFor(t, "dry-run delete of "+tc.queue+" admitted", framework.WebhookCacheTimeout, func() (bool, string, error) {
					err := queues.Delete(t.Context(), tc.queue, framework.DryRunDelete())
					return err == nil, fmt.Sprint(err), nil
				})
				if err := queues.Delete(t.Context(), tc.queue, opts); err != nil {
					t.Fatalf("delete was refused: %v", err)
				}
				framework.WaitFor(t, "queue "+tc.queue+" gone", framework.QueueDeleteTimeout, func() (bool, string, error) {
					_, err := queues.Get(t.Context(), tc.queue, metav1.GetOptions{})
					return apierrors.IsNotFound(err), fmt.Sprint(err), nil
				})
				return
			}
			framework.WaitDenied(t, "the webhook to see the queue tree", func() error {
				return queues.Delete(t.Context(), tc.queue, framework.DryRunDelete())
			}, framework.WebhookValidateQueue, tc.parts...)
			err := queues.Delete(t.Context(), tc.queue, opts)
			framework.ExpectDenied(t, err, framework.WebhookValidateQueue, tc.parts...)
			q, err := queues.Get(t.Context(), tc.queue, metav1.GetOptions{})
			if err != nil || q.DeletionTimestamp != nil {
				t.Errorf("queue %s after the denied delete: err=%v deleting=%v", tc.queue, err, q != nil && q.DeletionTimestamp != nil)
			}
		})
	}

	rootChanges := []struct {
		name   string
		change func(*schedulingv1beta1.Queue)
	}{
		{name: "capability", change: func(q *schedulingv1beta1.Queue) { q.Spec.Capability = cpu("2") }},
		{name: "deserved", change: func(q *schedulingv1beta1.Queue) { q.Spec.Deserved = cpu("2") }},
		{name: "guarantee", change: func(q *schedulingv1beta1.Queue) {
			// With a matching deserved, so that only the root rule can refuse it.
			q.Spec.Deserved, q.Spec.Guarantee.Resource = cpu("1"), cpu("1")
		}},
	}
	for _, tc := range rootChanges {
		t.Run("update root/"+tc.name, func(t *testing.T) {
			root, err := queues.Get(t.Context(), "root", metav1.GetOptions{})
			if err != nil {
				t.Fatalf("get root: %v", err)
			}
			tc.change(root)
			_, err = queues.Update(t.Context(), root, framework.DryRunUpdate())
			framework.ExpectDenied(t, err, framework.WebhookValidateQueue,
				"root queue's resource attributes (capability, deserved, guarantee) cannot be modified")
		})
	}
}

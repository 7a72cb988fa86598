package tests

import (
	"fmt"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	schedulingv1beta1 "volcano.sh/apis/pkg/apis/scheduling/v1beta1"

	"vc-cpp.local/e2e/tests/framework"
)

// namespaceQueueAnnotation names a namespace's default queue for PodGroups (spec webhook.md §2.3).
const namespaceQueueAnnotation = "scheduling.volcano.sh/queue-name"

func newPodGroup(ns, name, queue string) *schedulingv1beta1.PodGroup {
	return &schedulingv1beta1.PodGroup{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec:       schedulingv1beta1.PodGroupSpec{MinMember: 1, Queue: queue},
	}
}

// TestWebhookPodGroups: /podgroups/mutate takes the queue of a PodGroup that names none (or
// "default") from its namespace's annotation, and /podgroups/validate refuses PodGroups whose
// queue is missing or not Open, or whose network topology sets both tier fields
// (spec webhook.md §2.3, §2.4). Admitted PodGroups are dry runs; denied ones are real creates
// that store nothing.
func TestWebhookPodGroups(t *testing.T) {
	f := framework.New(t, "e2e-wh-pg")
	pgs := f.Volcano.SchedulingV1beta1().PodGroups(f.Namespace)
	f.WaitQueueOpen("default")
	annotated, other, closed := "e2e-wh-pgns-"+f.Suffix, "e2e-wh-pgother-"+f.Suffix, "e2e-wh-pgclosed-"+f.Suffix
	f.CreateQueue(annotated, 1)
	f.CreateQueue(other, 1)
	f.CreateQueue(closed, 1)
	f.CloseQueue(t, closed)
	missing := "e2e-wh-pgmissing-" + f.Suffix

	annotate := func(t *testing.T, queue string) {
		t.Helper()
		patch := fmt.Sprintf(`{"metadata":{"annotations":{%q:%q}}}`, namespaceQueueAnnotation, queue)
		if _, err := f.Kube.CoreV1().Namespaces().Patch(t.Context(), f.Namespace, types.MergePatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
			t.Fatalf("annotate namespace: %v", err)
		}
	}
	queueOf := func(t *testing.T, pg *schedulingv1beta1.PodGroup) string {
		t.Helper()
		got, err := pgs.Create(t.Context(), pg, framework.DryRunCreate())
		if err != nil {
			t.Fatalf("dry-run create: %v", err)
		}
		return got.Spec.Queue
	}
	// queueSoon is queueOf, asked again for a few seconds until it gives want: our webhook reads
	// the annotation from a Namespace informer, which sees a change a moment after the API server
	// stores it (docs/compat.md), where Volcano's live GET sees it at once.
	queueSoon := func(t *testing.T, pg *schedulingv1beta1.PodGroup, want string) string {
		t.Helper()
		var got string
		_, _ = framework.Poll(5*time.Second, func() (bool, string, error) {
			got = queueOf(t, pg.DeepCopy())
			return got == want, got, nil
		})
		return got
	}

	t.Run("no queue and no namespace annotation: default", func(t *testing.T) {
		if q := queueOf(t, newPodGroup(f.Namespace, "plain", "")); q != "default" {
			t.Errorf("queue %q, want default", q)
		}
	})

	// The webhook reads the annotation with a live GET of the namespace; when it may not, it
	// admits the PodGroup unchanged. Volcano's development RBAC (the reference's identity here)
	// does not grant that GET, so this is what users of such a set-up see; the role we ship
	// grants it, so there the annotation applies without any extra grant.
	t.Run("namespace annotation, under the webhook's own role", func(t *testing.T) {
		allowed, err := f.AdmissionCanGetNamespace(f.Namespace)
		if err != nil {
			t.Fatalf("SubjectAccessReview: %v", err)
		}
		annotate(t, annotated)
		want, why := "default", "the namespace could not be read"
		if allowed {
			want, why = annotated, "the webhook's role may read namespaces"
		}
		if q := queueSoon(t, newPodGroup(f.Namespace, "own-role", ""), want); q != want {
			t.Errorf("queue %q, want %q (%s; identity %s/%s)", q, want, why,
				framework.AdmissionServiceAccountNamespace, framework.AdmissionServiceAccountName)
		}
	})
	if framework.WebhookImpl() != "reference" {
		t.Run("ours runs under a role that may read namespaces", func(t *testing.T) {
			if allowed, err := f.AdmissionCanGetNamespace(f.Namespace); err != nil || !allowed {
				t.Errorf("identity %s/%s may GET namespace %s: %v (err %v); the role we ship must allow it",
					framework.AdmissionServiceAccountNamespace, framework.AdmissionServiceAccountName,
					f.Namespace, allowed, err)
			}
		})
	}

	f.GrantAdmissionNamespaceGet(t)
	annotate(t, annotated)
	defaults := []struct {
		name, queue, want string
	}{
		{"no queue: the namespace's queue", "", annotated},
		{"queue default: the namespace's queue", "default", annotated},
		{"another queue: kept", other, other},
	}
	for _, tc := range defaults {
		t.Run(tc.name, func(t *testing.T) {
			if q := queueSoon(t, newPodGroup(f.Namespace, "annotated", tc.queue), tc.want); q != tc.want {
				t.Errorf("queue %q, want %q", q, tc.want)
			}
		})
	}

	closedMsg := fmt.Sprintf("can only submit PodGroup to queue with state `Open`, queue `%s` status is `Closed`. ", closed)
	topologyMsg := "must not specify 'highestTierAllowed' and 'highestTierName' in networkTopology simultaneously."
	bothTiers := func() *schedulingv1beta1.NetworkTopologySpec {
		return &schedulingv1beta1.NetworkTopologySpec{
			Mode: schedulingv1beta1.HardNetworkTopologyMode, HighestTierAllowed: intp(1), HighestTierName: "tier1"}
	}
	denials := []struct {
		name  string
		pg    *schedulingv1beta1.PodGroup
		setup func(t *testing.T)
		parts []string
	}{
		{name: "queue that does not exist", pg: newPodGroup(f.Namespace, "missing", missing),
			parts: []string{fmt.Sprintf(`unable to find queue: queue.scheduling.volcano.sh %q not found`, missing)}},
		{name: "closed queue", pg: newPodGroup(f.Namespace, "closed", closed), parts: []string{closedMsg}},
		{name: "closed queue taken from the namespace", pg: newPodGroup(f.Namespace, "closed-ns", ""),
			setup: func(t *testing.T) { annotate(t, closed) }, parts: []string{closedMsg}},
		{name: "network topology with both tier fields", pg: func() *schedulingv1beta1.PodGroup {
			pg := newPodGroup(f.Namespace, "topology", other)
			pg.Spec.NetworkTopology = bothTiers()
			return pg
		}(), parts: []string{topologyMsg}},
		{name: "subgroup network topology with both tier fields", pg: func() *schedulingv1beta1.PodGroup {
			pg := newPodGroup(f.Namespace, "subgroup", other)
			pg.Spec.SubGroupPolicy = []schedulingv1beta1.SubGroupPolicySpec{{Name: "sg", NetworkTopology: bothTiers()}}
			return pg
		}(), parts: []string{"in subGroupPolicy 'sg': " + topologyMsg}},
		{name: "closed queue and topology: both messages, unseparated", pg: func() *schedulingv1beta1.PodGroup {
			pg := newPodGroup(f.Namespace, "closed-topology", closed)
			pg.Spec.NetworkTopology = bothTiers()
			return pg
		}(), parts: []string{closedMsg + topologyMsg}},
	}
	for _, tc := range denials {
		t.Run(tc.name, func(t *testing.T) {
			if tc.setup != nil {
				tc.setup(t)
			}
			framework.WaitDenied(t, "the webhook to see the queue set-up", func() error {
				_, err := pgs.Create(t.Context(), tc.pg, framework.DryRunCreate())
				return err
			}, framework.WebhookValidatePodGroup, tc.parts...)
			_, err := pgs.Create(t.Context(), tc.pg, metav1.CreateOptions{})
			framework.ExpectDenied(t, err, framework.WebhookValidatePodGroup, tc.parts...)
			expectPodGroupAbsent(t, f, tc.pg.Name)
		})
	}
}

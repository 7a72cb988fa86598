package tests

import (
	"fmt"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	schedulingv1beta1 "volcano.sh/apis/pkg/apis/scheduling/v1beta1"

	"vc-cpp.local/e2e/tests/framework"
)

const (
	hierarchyAnnotation        = "volcano.sh/hierarchy"
	hierarchyWeightsAnnotation = "volcano.sh/hierarchy-weights"
)

func cpu(q string) corev1.ResourceList {
	return corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(q)}
}

func withAnnotations(q *schedulingv1beta1.Queue, kv ...string) *schedulingv1beta1.Queue {
	q.Annotations = map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		q.Annotations[kv[i]] = kv[i+1]
	}
	return q
}

// TestWebhookQueueDefaults: what /queues/mutate adds on CREATE (spec webhook.md §2.5):
// reclaimable true and weight 1 when absent, and the "root" prefix on a hierarchy that lacks
// it (with weight 1 for the root). Values the user set are kept. The requests are dry runs,
// whose response is the object as it would be stored.
func TestWebhookQueueDefaults(t *testing.T) {
	f := framework.New(t, "e2e-wh-queuedef")
	queues := f.Volcano.SchedulingV1beta1().Queues()
	notReclaimable := false

	cases := []struct {
		name                  string
		queue                 *schedulingv1beta1.Queue
		weight                int32
		reclaimable           bool
		hierarchy, hierarchyW string
	}{{
		name:   "empty spec gets weight 1 and reclaimable true",
		queue:  newQueue("e2e-wh-qdef-"+f.Suffix, "", nil, nil, nil),
		weight: 1, reclaimable: true,
	}, {
		name: "weight and reclaimable set by the user are kept",
		queue: func() *schedulingv1beta1.Queue {
			q := newQueue("e2e-wh-qkeep-"+f.Suffix, "", nil, nil, nil)
			q.Spec.Weight, q.Spec.Reclaimable = 7, &notReclaimable
			return q
		}(),
		weight: 7, reclaimable: false,
	}, {
		name: "hierarchy without root gets the root prefix and weight",
		queue: withAnnotations(newQueue("e2e-wh-qhier-"+f.Suffix, "", nil, nil, nil),
			hierarchyAnnotation, "e2e-a/e2e-b", hierarchyWeightsAnnotation, "2/3"),
		weight: 1, reclaimable: true, hierarchy: "root/e2e-a/e2e-b", hierarchyW: "1/2/3",
	}, {
		name: "hierarchy starting at root is kept",
		queue: withAnnotations(newQueue("e2e-wh-qroot-"+f.Suffix, "", nil, nil, nil),
			hierarchyAnnotation, "root/e2e-c", hierarchyWeightsAnnotation, "1/4"),
		weight: 1, reclaimable: true, hierarchy: "root/e2e-c", hierarchyW: "1/4",
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := queues.Create(t.Context(), tc.queue, framework.DryRunCreate())
			if err != nil {
				t.Fatalf("dry-run create: %v", err)
			}
			if got.Spec.Weight != tc.weight {
				t.Errorf("weight %d, want %d", got.Spec.Weight, tc.weight)
			}
			if got.Spec.Reclaimable == nil || *got.Spec.Reclaimable != tc.reclaimable {
				t.Errorf("reclaimable %v, want %v", got.Spec.Reclaimable, tc.reclaimable)
			}
			if h, w := got.Annotations[hierarchyAnnotation], got.Annotations[hierarchyWeightsAnnotation]; h != tc.hierarchy || w != tc.hierarchyW {
				t.Errorf("hierarchy %q weights %q, want %q %q", h, w, tc.hierarchy, tc.hierarchyW)
			}
		})
	}
}

// TestWebhookQueueValidation: /queues/validate refuses queues whose resources or hierarchy
// annotations are inconsistent, with Volcano's field-error texts (spec webhook.md §2.6
// step 1), and the CRD schema refuses weights outside 1..65535; nothing is stored.
func TestWebhookQueueValidation(t *testing.T) {
	f := framework.New(t, "e2e-wh-queueval")
	queues := f.Volcano.SchedulingV1beta1().Queues()
	n := func(s string) string { return "e2e-wh-" + s + "-" + f.Suffix }

	cases := []struct {
		name  string
		queue *schedulingv1beta1.Queue
		parts []string
	}{
		{name: "negative capability", queue: newQueue(n("negcap"), "", cpu("-1"), nil, nil),
			parts: []string{`requestBody.spec.capability.cpu: Invalid value: "-1": must be greater than or equal to 0`}},
		{name: "fractional pods", queue: newQueue(n("fracpods"), "", corev1.ResourceList{corev1.ResourcePods: resource.MustParse("1500m")}, nil, nil),
			parts: []string{`requestBody.spec.capability.pods: Invalid value: "1500m": must be an integer`}},
		{name: "two errors are listed in brackets, in any order", queue: newQueue(n("twoerr"), "",
			corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("-1"), corev1.ResourceMemory: resource.MustParse("-1Gi")}, nil, nil),
			parts: []string{": [", `requestBody.spec.capability.cpu: Invalid value: "-1": must be greater than or equal to 0`,
				`requestBody.spec.capability.memory: Invalid value: "-1Gi": must be greater than or equal to 0`, ", "}},
		{name: "deserved above capability", queue: newQueue(n("desgtcap"), "", cpu("1"), cpu("2"), nil),
			parts: []string{`requestBody.spec.deserved.cpu: Invalid value: "2": deserved[cpu]=2 must be <= capability[cpu]=1`}},
		{name: "guarantee without deserved", queue: newQueue(n("guanodes"), "", nil, nil, cpu("1")),
			parts: []string{`requestBody.spec.deserved.cpu: Invalid value: "<nil>": deserved[cpu] must be >= guarantee[cpu]=1`}},
		{name: "guarantee above deserved", queue: newQueue(n("guagtdes"), "", nil, cpu("1"), cpu("2")),
			parts: []string{`requestBody.spec.deserved.cpu: Invalid value: "1": deserved[cpu]=1 must be >= guarantee[cpu]=2`}},
		{name: "hierarchy weight that is not a number",
			queue: withAnnotations(newQueue(n("hwnan"), "", nil, nil, nil), hierarchyAnnotation, "a/b", hierarchyWeightsAnnotation, "1/x"),
			// The mutating webhook has already prefixed root and its weight.
			parts: []string{`requestBody.metadata.annotations: Invalid value: "1/1/x": x in the 1/1/x is invalid number: strconv.ParseFloat: parsing "x": invalid syntax`}},
		{name: "hierarchy weight zero",
			queue: withAnnotations(newQueue(n("hwzero"), "", nil, nil, nil), hierarchyAnnotation, "a/b", hierarchyWeightsAnnotation, "1/0"),
			parts: []string{`requestBody.metadata.annotations: Invalid value: "1/1/0": 0 in the 1/1/0 must be larger than 0`}},
		{name: "hierarchy and weights of different lengths",
			queue: withAnnotations(newQueue(n("hwlen"), "", nil, nil, nil), hierarchyAnnotation, "a/b/c", hierarchyWeightsAnnotation, "1/2"),
			parts: []string{`requestBody.metadata.annotations: Invalid value: "root/a/b/c": volcano.sh/hierarchy must have the same length with volcano.sh/hierarchy-weights`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := queues.Create(t.Context(), tc.queue, metav1.CreateOptions{})
			framework.ExpectDenied(t, err, framework.WebhookValidateQueue, tc.parts...)
			expectQueueAbsent(t, f, tc.queue.Name)
		})
	}

	// The weight range is the CRD schema's (the webhook only replaces 0 by 1); the API server
	// reports it as an Invalid error of the field.
	for _, w := range []struct {
		weight int32
		part   string
	}{
		{-1, "spec.weight: Invalid value: -1: spec.weight in body should be greater than or equal to 1"},
		{70000, "spec.weight: Invalid value: 70000: spec.weight in body should be less than or equal to 65535"},
	} {
		t.Run(fmt.Sprintf("weight %d out of range", w.weight), func(t *testing.T) {
			q := newQueue(n("weight"), "", nil, nil, nil)
			q.Spec.Weight = w.weight
			_, err := queues.Create(t.Context(), q, metav1.CreateOptions{})
			if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), w.part) {
				t.Errorf("create with weight %d: want Invalid containing %q, got %v", w.weight, w.part, err)
			}
			expectQueueAbsent(t, f, q.Name)
		})
	}
}

package tests

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	batchv1alpha1 "volcano.sh/apis/pkg/apis/batch/v1alpha1"
	topologyv1alpha1 "volcano.sh/apis/pkg/apis/topology/v1alpha1"

	"vc-cpp.local/e2e/tests/framework"
)

// TestControllersHyperNodeTopologyPlacement: the HyperNodes the label source discovers are what
// Volcano's scheduler places network-topology jobs by. Five one-CPU nodes in two ToRs (t1: three
// nodes, t2: two), one tier-1 HyperNode per ToR and no tier above. Two gangs with
// networkTopology {mode: hard, highestTierAllowed: 1}, one pod per node:
//   - "wide" (4 pods, submitted first) fits the five nodes but no single ToR, so it must wait;
//   - "narrow" (3 pods) fits only t1, so all its pods must land on t1's nodes.
//
// A scheduler that ignored the topology would have placed "wide" (and "narrow" could then not
// run), or spread "narrow" over both ToRs (all three on t1 by chance: 1 in 10).
// (spec controller-manager.md §5.5.3; the PodGroup's networkTopology: spec job-controller.md §4.1.)
func TestControllersHyperNodeTopologyPlacement(t *testing.T) {
	f := framework.New(t, "e2e-ctl-hn-place")
	s := f.Suffix
	torKey := "e2e.vc-cpp/place-tor-" + s
	typeName := "p" + s
	tors := map[string][]string{}
	var nodes []string
	for i, tor := range []string{"t1", "t1", "t1", "t2", "t2"} {
		name := fmt.Sprintf("hn-place-%s-%d", s, i)
		f.CreateNode(framework.NodeSpec{
			Name: name, CPU: "1", Memory: "4Gi", Pods: "10",
			Labels: map[string]string{poolKey: s, torKey: tor},
			Taints: []corev1.Taint{{Key: poolKey, Value: s, Effect: corev1.TaintEffectNoSchedule}},
		})
		tors[tor] = append(tors[tor], name)
		nodes = append(nodes, name)
	}

	owned := hyperNodeSourceLabel + "=label," + torKey
	t.Cleanup(func() { deleteHyperNodesEventually(f, owned) })
	setDiscoveryConfig(f, fmt.Sprintf(`networkTopologyDiscovery:
  - source: label
    enabled: true
    config:
      networkTopologyTypes:
        %s:
          - nodeLabel: %s
          - nodeLabel: kubernetes.io/hostname
`, typeName, torKey))

	// Both ToRs discovered with their nodes (Volcano's source may make identical twins for a
	// while; each of them must carry the same members).
	f.WaitFor("one tier-1 HyperNode per ToR", framework.ControllerTimeout, func() (bool, string, error) {
		list, err := listHyperNodes(f, owned)
		if err != nil {
			return false, "", err
		}
		found := map[string]bool{}
		for _, h := range list {
			tor := h.Labels[torKey]
			if h.Spec.Tier != 1 || memberSummary(h.Spec.Members) != exactMembers(topologyv1alpha1.MemberTypeNode, tors[tor]...) {
				return false, hyperNodesSummary(list), nil
			}
			found[tor] = true
		}
		return found["t1"] && found["t2"] && len(found) == 2, hyperNodesSummary(list), nil
	})

	onPool := []corev1.Toleration{{Key: poolKey, Operator: corev1.TolerationOpEqual, Value: s, Effect: corev1.TaintEffectNoSchedule}}
	tier := 1
	gang := func(name string, pods int32) *batchv1alpha1.Job {
		job := framework.NewJob(f.Namespace, framework.JobSpec{
			Name: name, Queue: jobQueue, MinAvailable: pods,
			Tasks: []framework.Task{{Name: "worker", Replicas: pods, CPU: "1", Memory: "256Mi",
				NodeSelector: map[string]string{poolKey: s}, Tolerations: onPool}},
		})
		job.Spec.NetworkTopology = &batchv1alpha1.NetworkTopologySpec{
			Mode: batchv1alpha1.HardNetworkTopologyMode, HighestTierAllowed: &tier}
		return job
	}
	wide := f.CreateJob(gang("wide", 4))
	narrow := f.CreateJob(gang("narrow", 3))

	// bound returns the nodes the job's pods are bound to.
	bound := func(job *batchv1alpha1.Job) ([]string, error) {
		pods, err := f.Kube.CoreV1().Pods(f.Namespace).List(t.Context(),
			metav1.ListOptions{LabelSelector: batchv1alpha1.JobNameKey + "=" + job.Name})
		if err != nil {
			return nil, err
		}
		var out []string
		for _, p := range pods.Items {
			if p.Spec.NodeName != "" {
				out = append(out, p.Spec.NodeName)
			}
		}
		sort.Strings(out)
		return out, nil
	}
	var narrowNodes []string
	f.WaitFor("the narrow gang bound", framework.ControllerTimeout, func() (bool, string, error) {
		var err error
		if narrowNodes, err = bound(narrow); err != nil {
			return false, "", err
		}
		return len(narrowNodes) == 3, "narrow bound to [" + strings.Join(narrowNodes, " ") + "]", nil
	})
	if want := tors["t1"]; strings.Join(narrowNodes, ",") != strings.Join(want, ",") {
		t.Errorf("narrow gang bound to %v, want all three on ToR t1 %v (nodes %v)", narrowNodes, want, nodes)
	}
	// "wide" was submitted first and fits the five nodes; that "narrow" could run at all means
	// the scheduler never placed it across the ToRs.
	wideNodes, err := bound(wide)
	if err != nil {
		t.Fatalf("list wide gang's pods: %v", err)
	}
	if len(wideNodes) != 0 {
		t.Errorf("wide gang (4 pods, no ToR has 4 nodes) has pods bound to %v; want none", wideNodes)
	}
}

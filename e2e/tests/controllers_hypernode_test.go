package tests

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	topologyv1alpha1 "volcano.sh/apis/pkg/apis/topology/v1alpha1"

	"vc-cpp.local/e2e/tests/framework"
)

// The hyperNode-controller reads its discovery configuration from one ConfigMap in the
// controller-manager's namespace (spec controller-manager.md §5.5.1); the local cluster runs the
// controller-manager without HELM_RELEASE_NAME and KUBE_POD_NAMESPACE, so it is Volcano's default.
const (
	hyperNodeConfigNamespace = "volcano-system"
	hyperNodeConfigName      = "volcano-controller-configmap"
	hyperNodeConfigKey       = "volcano-controller.conf"
	hyperNodeSourceLabel     = "volcano.sh/network-topology-source"
)

// setDiscoveryConfig writes the controller ConfigMap with conf under its key and, at cleanup,
// puts back what was there before (or deletes it). Cleanups run last-registered first: what
// needs the source still running is registered after this call, what needs it stopped before.
func setDiscoveryConfig(f *framework.Framework, conf string) {
	t := f.T
	t.Helper()
	ctx := t.Context()
	cms := f.Kube.CoreV1().ConfigMaps(hyperNodeConfigNamespace)
	if _, err := f.Kube.CoreV1().Namespaces().Get(ctx, hyperNodeConfigNamespace, metav1.GetOptions{}); apierrors.IsNotFound(err) {
		ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: hyperNodeConfigNamespace}}
		if _, err := f.Kube.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
			t.Fatalf("create namespace %s: %v", hyperNodeConfigNamespace, err)
		}
	}
	previous, err := cms.Get(ctx, hyperNodeConfigName, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		previous = nil
		cm := &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Name: hyperNodeConfigName, Namespace: hyperNodeConfigNamespace},
			Data:       map[string]string{hyperNodeConfigKey: conf},
		}
		if _, err := cms.Create(ctx, cm, metav1.CreateOptions{}); err != nil {
			t.Fatalf("create ConfigMap: %v", err)
		}
	case err != nil:
		t.Fatalf("get ConfigMap: %v", err)
	default:
		cm := previous.DeepCopy()
		if cm.Data == nil {
			cm.Data = map[string]string{}
		}
		cm.Data[hyperNodeConfigKey] = conf
		if _, err := cms.Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
			t.Fatalf("update ConfigMap: %v", err)
		}
	}
	t.Cleanup(func() {
		ctx := context.Background()
		if previous == nil {
			if err := cms.Delete(ctx, hyperNodeConfigName, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
				t.Errorf("cleanup: delete ConfigMap: %v", err)
			}
			return
		}
		cur, err := cms.Get(ctx, hyperNodeConfigName, metav1.GetOptions{})
		if err != nil {
			t.Errorf("cleanup: get ConfigMap: %v", err)
			return
		}
		cur.Data = previous.Data
		if _, err := cms.Update(ctx, cur, metav1.UpdateOptions{}); err != nil {
			t.Errorf("cleanup: restore ConfigMap: %v", err)
		}
	})
}

// deleteHyperNodesEventually deletes the HyperNodes the selector picks until none is left: a
// source that has not stopped yet may put some back once.
func deleteHyperNodesEventually(f *framework.Framework, selector string) {
	hns := f.Volcano.TopologyV1alpha1().HyperNodes()
	_, err := framework.Poll(framework.ControllerTimeout, func() (bool, string, error) {
		ctx := context.Background()
		list, err := hns.List(ctx, metav1.ListOptions{LabelSelector: selector})
		if err != nil {
			return false, "", err
		}
		for _, h := range list.Items {
			if err := hns.Delete(ctx, h.Name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
				return false, "", err
			}
		}
		return len(list.Items) == 0, fmt.Sprintf("%d left", len(list.Items)), nil
	})
	if err != nil {
		f.T.Errorf("cleanup: HyperNodes %s: %v", selector, err)
	}
}

func listHyperNodes(f *framework.Framework, selector string) ([]topologyv1alpha1.HyperNode, error) {
	list, err := f.Volcano.TopologyV1alpha1().HyperNodes().List(f.T.Context(), metav1.ListOptions{LabelSelector: selector})
	if err != nil {
		return nil, err
	}
	sort.Slice(list.Items, func(a, b int) bool { return list.Items[a].Name < list.Items[b].Name })
	return list.Items, nil
}

// memberSummary renders members as "Node:a,Node:b" (exact names) for comparisons.
func memberSummary(members []topologyv1alpha1.MemberSpec) string {
	var parts []string
	for _, m := range members {
		switch {
		case m.Selector.ExactMatch != nil:
			parts = append(parts, string(m.Type)+":"+m.Selector.ExactMatch.Name)
		default:
			parts = append(parts, string(m.Type)+":<not exact>")
		}
	}
	return strings.Join(parts, ",")
}

func hyperNodesSummary(hns []topologyv1alpha1.HyperNode) string {
	var parts []string
	for _, h := range hns {
		parts = append(parts, fmt.Sprintf("%s{tier=%d tierName=%q members=[%s] nodeCount=%d labels=%v}",
			h.Name, h.Spec.Tier, h.Spec.TierName, memberSummary(h.Spec.Members), h.Status.NodeCount, h.Labels))
	}
	return strings.Join(parts, " ")
}

func exactMembers(memberType topologyv1alpha1.MemberType, names ...string) string {
	sort.Strings(names)
	var parts []string
	for _, n := range names {
		parts = append(parts, string(memberType)+":"+n)
	}
	return strings.Join(parts, ",")
}

func setNodeLabel(f *framework.Framework, node, key string, value *string) {
	f.T.Helper()
	var patch []byte
	if value == nil {
		patch = []byte(fmt.Sprintf(`{"metadata":{"labels":{%q:null}}}`, key))
	} else {
		patch = []byte(fmt.Sprintf(`{"metadata":{"labels":{%q:%q}}}`, key, *value))
	}
	if _, err := f.Kube.CoreV1().Nodes().Patch(f.T.Context(), node, types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
		f.T.Fatalf("label node %s: %v", node, err)
	}
}

// TestControllersHyperNodeLabelDiscovery: with a label source whose topology type lists a spine
// label, a ToR label and kubernetes.io/hostname, nodes are grouped into tier-1 HyperNodes per ToR
// value (members: the nodes) and a tier-2 HyperNode per spine value (members: the tier-1
// HyperNodes), named hypernode-<type>-tier<t>-..., labelled with the source and the label pair,
// tierName the label key; status.nodeCount counts exact names and labelMatch nodes. A node
// losing its ToR label leaves its HyperNode (deleted when empty, updated otherwise under the same
// name); a HyperNode without the source label is never changed
// (spec controller-manager.md §5.5.2, §5.5.3, §5.5.5).
func TestControllersHyperNodeLabelDiscovery(t *testing.T) {
	f := framework.New(t, "e2e-ctl-hn")
	s := f.Suffix
	torKey, spineKey, testKey := "e2e.vc-cpp/tor-"+s, "e2e.vc-cpp/spine-"+s, "e2e.vc-cpp/hn-"+s
	typeName := "t" + s

	names := []string{"hn-" + s + "-1", "hn-" + s + "-2", "hn-" + s + "-3"}
	tors := []string{"t1", "t1", "t2"}
	for i, name := range names {
		f.CreateNode(framework.NodeSpec{Name: name, CPU: "1", Memory: "1Gi", Pods: "10",
			Labels: map[string]string{torKey: tors[i], spineKey: "s1"}})
	}

	// A hand-made HyperNode labelled like a discovered one but without the source label.
	manual := &topologyv1alpha1.HyperNode{
		ObjectMeta: metav1.ObjectMeta{Name: "hn-" + s + "-manual", Labels: map[string]string{torKey: "t1", testKey: "manual"}},
		Spec: topologyv1alpha1.HyperNodeSpec{Tier: 1, Members: []topologyv1alpha1.MemberSpec{{
			Type:     topologyv1alpha1.MemberTypeNode,
			Selector: topologyv1alpha1.MemberSelector{LabelMatch: &metav1.LabelSelector{MatchLabels: map[string]string{torKey: "t1"}}},
		}}},
	}
	hns := f.Volcano.TopologyV1alpha1().HyperNodes()
	if _, err := hns.Create(t.Context(), manual, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create hand-made HyperNode: %v", err)
	}
	// And one whose regexMatch selects nodes 1 and 3 by name (Go's regexp, unanchored search
	// made whole by ^ and $), plus node 2 by exact name: nodeCount 3.
	byRegex := &topologyv1alpha1.HyperNode{
		ObjectMeta: metav1.ObjectMeta{Name: "hn-" + s + "-regex", Labels: map[string]string{testKey: "regex"}},
		Spec: topologyv1alpha1.HyperNodeSpec{Tier: 1, Members: []topologyv1alpha1.MemberSpec{
			{Type: topologyv1alpha1.MemberTypeNode, Selector: topologyv1alpha1.MemberSelector{
				RegexMatch: &topologyv1alpha1.RegexMatch{Pattern: "^hn-" + s + "-[13]$"}}},
			{Type: topologyv1alpha1.MemberTypeNode, Selector: topologyv1alpha1.MemberSelector{
				ExactMatch: &topologyv1alpha1.ExactMatch{Name: names[1]}}},
		}},
	}
	if _, err := hns.Create(t.Context(), byRegex, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create HyperNode with a regexMatch member: %v", err)
	}
	t.Cleanup(func() { deleteHyperNodesEventually(f, testKey) })

	// Once the source has stopped (the ConfigMap restored), what it made can go.
	t.Cleanup(func() {
		deleteHyperNodesEventually(f, hyperNodeSourceLabel+"=label,"+torKey)
		deleteHyperNodesEventually(f, hyperNodeSourceLabel+"=label,"+spineKey)
	})
	setDiscoveryConfig(f, fmt.Sprintf(`networkTopologyDiscovery:
  - source: label
    enabled: true
    config:
      networkTopologyTypes:
        %s:
          - nodeLabel: %s
          - nodeLabel: %s
          - nodeLabel: kubernetes.io/hostname
`, typeName, spineKey, torKey))

	ownedTor := hyperNodeSourceLabel + "=label," + torKey
	ownedSpine := hyperNodeSourceLabel + "=label," + spineKey
	// Volcano names new HyperNodes at random, so a round that runs before the cache has seen
	// the previous round's creates makes a twin (same labels and members, another name) that
	// stays until a later round; ours names them deterministically (docs/compat.md). So under
	// the reference a ToR value may have several identical tier-1 HyperNodes, the spine naming
	// one of them; ours must have exactly one.
	twinsAllowed := framework.ControllersImpl() == "reference"
	// discovered returns the label source's tier-1 HyperNodes by ToR value and its tier-2 ones.
	discovered := func() (map[string][]topologyv1alpha1.HyperNode, []topologyv1alpha1.HyperNode, string, error) {
		tier1, err := listHyperNodes(f, ownedTor)
		if err != nil {
			return nil, nil, "", err
		}
		tier2, err := listHyperNodes(f, ownedSpine)
		if err != nil {
			return nil, nil, "", err
		}
		byTor := map[string][]topologyv1alpha1.HyperNode{}
		for _, h := range tier1 {
			byTor[h.Labels[torKey]] = append(byTor[h.Labels[torKey]], h)
		}
		return byTor, tier2, hyperNodesSummary(tier1) + " | " + hyperNodesSummary(tier2), nil
	}
	checkTier1 := func(list []topologyv1alpha1.HyperNode, tor string, nodes ...string) bool {
		if len(list) == 0 || (len(list) > 1 && !twinsAllowed) {
			return false
		}
		for _, h := range list {
			if !strings.HasPrefix(h.Name, "hypernode-"+typeName+"-tier1-") || h.Spec.Tier != 1 ||
				h.Spec.TierName != torKey || h.Labels[torKey] != tor ||
				memberSummary(h.Spec.Members) != exactMembers(topologyv1alpha1.MemberTypeNode, nodes...) ||
				h.Status.NodeCount != int64(len(nodes)) {
				return false
			}
		}
		return true
	}
	// named returns the HyperNode of list that the spine names (the only one, without twins).
	named := func(list []topologyv1alpha1.HyperNode, spine []topologyv1alpha1.HyperNode) string {
		for _, h := range list {
			for _, s := range spine {
				for _, m := range s.Spec.Members {
					if m.Selector.ExactMatch != nil && m.Selector.ExactMatch.Name == h.Name {
						return h.Name
					}
				}
			}
		}
		return ""
	}
	checkSpine := func(list []topologyv1alpha1.HyperNode, members ...string) bool {
		if len(list) != 1 {
			return false
		}
		h := list[0]
		return strings.HasPrefix(h.Name, "hypernode-"+typeName+"-tier2-") && h.Spec.Tier == 2 &&
			h.Spec.TierName == spineKey && h.Labels[spineKey] == "s1" &&
			memberSummary(h.Spec.Members) == exactMembers(topologyv1alpha1.MemberTypeHyperNode, members...) &&
			h.Status.NodeCount == int64(len(members))
	}

	var t1Name string
	f.WaitFor("the label source's HyperNodes", framework.ControllerTimeout, func() (bool, string, error) {
		byTor, sp, seen, err := discovered()
		if err != nil {
			return false, "", err
		}
		if len(byTor) != 2 || !checkTier1(byTor["t1"], "t1", names[0], names[1]) || !checkTier1(byTor["t2"], "t2", names[2]) {
			return false, seen, nil
		}
		t1Name = named(byTor["t1"], sp)
		t2Name := named(byTor["t2"], sp)
		return t1Name != "" && t2Name != "" && checkSpine(sp, t1Name, t2Name), seen, nil
	})

	// The hand-made HyperNode's labelMatch selects the two nodes labelled t1.
	f.WaitFor("the hand-made HyperNode's nodeCount", framework.ControllerTimeout, func() (bool, string, error) {
		h, err := hns.Get(t.Context(), manual.Name, metav1.GetOptions{})
		if err != nil {
			return false, "", err
		}
		return h.Status.NodeCount == 2, fmt.Sprintf("nodeCount=%d", h.Status.NodeCount), nil
	})
	f.WaitFor("the regexMatch HyperNode's nodeCount", framework.ControllerTimeout, func() (bool, string, error) {
		h, err := hns.Get(t.Context(), byRegex.Name, metav1.GetOptions{})
		if err != nil {
			return false, "", err
		}
		return h.Status.NodeCount == 3, fmt.Sprintf("nodeCount=%d", h.Status.NodeCount), nil
	})

	// Node 3 leaves ToR t2: its HyperNode goes, the spine keeps only t1's.
	setNodeLabel(f, names[2], torKey, nil)
	f.WaitFor("t2's HyperNode deleted, the spine updated", framework.ControllerTimeout, func() (bool, string, error) {
		byTor, sp, seen, err := discovered()
		if err != nil {
			return false, "", err
		}
		_, t2 := byTor["t2"]
		list := byTor["t1"]
		if len(byTor) != 1 || t2 || len(list) != 1 {
			return false, seen, nil
		}
		// Ours keeps t1's name; Volcano's round keeps the first of any twins by name.
		if !twinsAllowed && list[0].Name != t1Name {
			return false, seen, nil
		}
		t1Name = list[0].Name
		return checkSpine(sp, t1Name), seen, nil
	})

	// Node 2 leaves ToR t1: t1's HyperNode keeps its name with node 1 alone.
	setNodeLabel(f, names[1], torKey, nil)
	f.WaitFor("t1's HyperNode updated", framework.ControllerTimeout, func() (bool, string, error) {
		byTor, _, seen, err := discovered()
		if err != nil {
			return false, "", err
		}
		list := byTor["t1"]
		return len(byTor) == 1 && len(list) == 1 && list[0].Name == t1Name &&
			memberSummary(list[0].Spec.Members) == exactMembers(topologyv1alpha1.MemberTypeNode, names[0]), seen, nil
	})

	// The hand-made HyperNode: same spec and labels, no source label.
	got, err := hns.Get(t.Context(), manual.Name, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("get hand-made HyperNode: %v", err)
	}
	if _, owned := got.Labels[hyperNodeSourceLabel]; owned || len(got.Labels) != 2 ||
		got.Spec.Tier != 1 || len(got.Spec.Members) != 1 || got.Spec.Members[0].Selector.LabelMatch == nil {
		t.Errorf("hand-made HyperNode changed: %s", hyperNodesSummary([]topologyv1alpha1.HyperNode{*got}))
	}
}

// fakeUFM is a UFM server on a self-signed certificate: GET /ufmRest/resources/ports with the
// right basic credentials returns the current ports; anything else is refused.
type fakeUFM struct {
	server     *httptest.Server
	user, pass string
	mu         sync.Mutex
	ports      []map[string]any
	served     atomic.Int64
	refused    atomic.Int64
}

func newFakeUFM(user, pass string) *fakeUFM {
	u := &fakeUFM{user: user, pass: pass}
	u.server = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name, password, ok := r.BasicAuth()
		if r.Method != http.MethodGet || r.URL.Path != "/ufmRest/resources/ports" || !ok || name != u.user || password != u.pass {
			u.refused.Add(1)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		u.mu.Lock()
		body, err := json.Marshal(u.ports)
		u.mu.Unlock()
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		u.served.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}))
	return u
}

func (u *fakeUFM) set(ports []map[string]any) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.ports = ports
}

func computerPort(node, leaf string) map[string]any {
	return map[string]any{"description": "Computer IB Port", "tier": 1, "system_name": node,
		"node_description": node + " HCA-1", "peer_node_name": leaf}
}

// TestControllersHyperNodeUFMDiscovery: a ufm source reads its credentials from a Secret, asks
// the UFM server (HTTPS, certificate not verified) for its ports with basic authentication, and
// makes leaf-hn-<i> (tier 1, the nodes cabled to a group of leaf switches that share nodes) and
// spine-hn (tier 2, every leaf HyperNode), labelled with the source only; every interval it asks
// again, and a HyperNode no longer discovered is deleted
// (spec controller-manager.md §5.5.2, §5.5.4).
func TestControllersHyperNodeUFMDiscovery(t *testing.T) {
	f := framework.New(t, "e2e-ctl-ufm")
	s := f.Suffix
	ufm := newFakeUFM("ufm-admin", "pw-"+s)
	t.Cleanup(ufm.server.Close)
	a, b, c := "ufm-"+s+"-a", "ufm-"+s+"-b", "ufm-"+s+"-c"
	leaf1, leaf2 := "leaf1-"+s, "leaf2-"+s
	ufm.set([]map[string]any{
		computerPort(a, leaf1), computerPort(b, leaf1), computerPort(c, leaf2),
		{"description": "Switch IB Port", "system_name": leaf1, "peer_node_name": "spine-" + s},
	})

	secret := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: "ufm-credentials", Namespace: f.Namespace},
		Data:       map[string][]byte{"username": []byte(ufm.user), "password": []byte(ufm.pass)},
	}
	if _, err := f.Kube.CoreV1().Secrets(f.Namespace).Create(t.Context(), secret, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create Secret: %v", err)
	}

	setDiscoveryConfig(f, fmt.Sprintf(`networkTopologyDiscovery:
  - source: ufm
    enabled: true
    interval: 5s
    credentials:
      secretRef:
        name: %s
        namespace: %s
    config:
      endpoint: %s
      insecureSkipVerify: true
`, secret.Name, f.Namespace, ufm.server.URL))
	owned := hyperNodeSourceLabel + "=ufm"
	// Registered after setDiscoveryConfig, so it runs first: an empty port list makes the
	// source delete what it made while it still runs.
	t.Cleanup(func() {
		ufm.set([]map[string]any{})
		_, err := framework.Poll(framework.ControllerTimeout, func() (bool, string, error) {
			list, err := f.Volcano.TopologyV1alpha1().HyperNodes().List(context.Background(), metav1.ListOptions{LabelSelector: owned})
			if err != nil {
				return false, "", err
			}
			return len(list.Items) == 0, hyperNodesSummary(list.Items), nil
		})
		if err != nil {
			t.Errorf("cleanup: the ufm source's HyperNodes after an empty port list: %v", err)
		}
	})

	// want checks the source's HyperNodes: name -> tier and members.
	want := func(expect map[string]string) framework.Condition {
		return func() (bool, string, error) {
			list, err := listHyperNodes(f, owned)
			if err != nil {
				return false, "", err
			}
			seen := hyperNodesSummary(list)
			if len(list) != len(expect) {
				return false, seen, nil
			}
			for _, h := range list {
				if len(h.Labels) != 1 || h.Spec.TierName != "" {
					return false, seen, nil
				}
				if got := fmt.Sprintf("%d|%s", h.Spec.Tier, memberSummary(h.Spec.Members)); got != expect[h.Name] {
					return false, seen, nil
				}
			}
			return true, seen, nil
		}
	}
	f.WaitFor("leaf-hn-0, leaf-hn-1 and spine-hn", framework.ControllerTimeout, want(map[string]string{
		"leaf-hn-0": "1|" + exactMembers(topologyv1alpha1.MemberTypeNode, a, b),
		"leaf-hn-1": "1|" + exactMembers(topologyv1alpha1.MemberTypeNode, c),
		"spine-hn":  "2|" + exactMembers(topologyv1alpha1.MemberTypeHyperNode, "leaf-hn-0", "leaf-hn-1"),
	}))
	if ufm.served.Load() == 0 || ufm.refused.Load() != 0 {
		t.Errorf("UFM requests: %d served, %d refused; want only authenticated ones", ufm.served.Load(), ufm.refused.Load())
	}

	// Node c is recabled to leaf1: at the next interval one leaf group is left.
	ufm.set([]map[string]any{computerPort(a, leaf1), computerPort(b, leaf1), computerPort(c, leaf1)})
	f.WaitFor("one leaf group after the recabling", framework.ControllerTimeout, want(map[string]string{
		"leaf-hn-0": "1|" + exactMembers(topologyv1alpha1.MemberTypeNode, a, b, c),
		"spine-hn":  "2|" + exactMembers(topologyv1alpha1.MemberTypeHyperNode, "leaf-hn-0"),
	}))
	// Exact member names count whether or not such nodes exist.
	f.WaitFor("leaf-hn-0's nodeCount", framework.ControllerTimeout, func() (bool, string, error) {
		h, err := f.Volcano.TopologyV1alpha1().HyperNodes().Get(t.Context(), "leaf-hn-0", metav1.GetOptions{})
		if err != nil {
			return false, "", err
		}
		return h.Status.NodeCount == 3, fmt.Sprintf("nodeCount=%d", h.Status.NodeCount), nil
	})
}

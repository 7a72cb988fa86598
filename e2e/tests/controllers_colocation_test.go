package tests

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	configv1alpha1 "volcano.sh/apis/pkg/apis/config/v1alpha1"

	"vc-cpp.local/e2e/tests/framework"
)

// The two pod annotations the colocation-config-controller writes
// (spec controller-manager.md §5.6 "Keys").
const (
	colocationNameKey   = "volcano.sh/colocation-config-name"
	colocationConfigKey = "volcano.sh/colocation-config"
)

// colocationState is what a pod carries of a configuration: the two annotations, each "-" when
// absent.
type colocationState struct{ name, config string }

func (s colocationState) String() string { return fmt.Sprintf("name=%s config=%s", s.name, s.config) }

var (
	untouched = colocationState{"-", "-"}
	reset     = colocationState{"-", "{}"}
)

func stamped(name, config string) colocationState { return colocationState{name, config} }

func colocationOf(pod *corev1.Pod) colocationState {
	s := untouched
	if v, ok := pod.Annotations[colocationNameKey]; ok {
		s.name = v
	}
	if v, ok := pod.Annotations[colocationConfigKey]; ok {
		s.config = v
	}
	return s
}

// colocationPods reads the pods' colocation states and says which differ from want.
func colocationPods(f *framework.Framework, want map[string]colocationState) (bool, string, error) {
	names := make([]string, 0, len(want))
	for name := range want {
		names = append(names, name)
	}
	sort.Strings(names)
	ok := true
	var seen []string
	for _, name := range names {
		pod, err := f.Kube.CoreV1().Pods(f.Namespace).Get(f.T.Context(), name, metav1.GetOptions{})
		if err != nil {
			return false, "", err
		}
		got := colocationOf(pod)
		mark := ""
		if got != want[name] {
			ok = false
			mark = fmt.Sprintf(" (want %s)", want[name])
		}
		seen = append(seen, fmt.Sprintf("%s: %s%s", name, got, mark))
	}
	return ok, strings.Join(seen, "; "), nil
}

func waitColocation(f *framework.Framework, what string, want map[string]colocationState) {
	f.T.Helper()
	f.WaitFor(what, time.Minute, func() (bool, string, error) { return colocationPods(f, want) })
}

func createColocation(t *testing.T, f *framework.Framework, name string, selector *metav1.LabelSelector,
	qos *configv1alpha1.MemoryQos) *configv1alpha1.ColocationConfiguration {
	t.Helper()
	out, err := f.Volcano.ConfigV1alpha1().ColocationConfigurations(f.Namespace).Create(t.Context(),
		&configv1alpha1.ColocationConfiguration{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: f.Namespace},
			Spec: configv1alpha1.ColocationConfigurationSpec{
				Selector:      selector,
				Configuration: configv1alpha1.Configuration{MemoryQos: qos},
			},
		}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create ColocationConfiguration %s: %v", name, err)
	}
	return out
}

func labelledPod(f *framework.Framework, name string, labels map[string]string) *corev1.Pod {
	pod := framework.NewVolcanoPod(f.Namespace, name, "10m", nil)
	pod.Labels = labels
	return pod
}

// TestControllersColocation: ColocationConfigurations select kwok pods of their namespace by
// label; each selected pod carries the newest selecting configuration's name and its settings as
// Go's json.Marshal writes them (CRD defaults applied, zero ratios left out). A changed
// configuration is written again; deleting the newest moves its pods to the next one that
// selects them, and a pod no configuration selects any more keeps only the reset marker `{}`
// (after a configuration is deleted and after the pod's labels change). Pods never selected are
// never touched (spec controller-manager.md §5.6).
func TestControllersColocation(t *testing.T) {
	f := framework.New(t, "e2e-ctl-coloc")
	f.WaitQueueOpen("default")
	for _, p := range []struct {
		name   string
		labels map[string]string
	}{
		{"web-0", map[string]string{"app": "web"}},
		{"web-1", map[string]string{"app": "web", "tier": "front"}},
		{"db-0", map[string]string{"app": "db"}},
		{"plain", nil},
	} {
		f.CreatePod(t, labelledPod(f, p.name, p.labels))
	}
	configs := f.Volcano.ConfigV1alpha1().ColocationConfigurations(f.Namespace)
	web := &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}

	// The CRD defaults highRatio to 100; only lowRatio is given.
	older := createColocation(t, f, "qos-web", web, &configv1alpha1.MemoryQos{LowRatio: 10})
	waitColocation(f, "qos-web stamped on the web pods only", map[string]colocationState{
		"web-0": stamped("qos-web", `{"memoryQos":{"highRatio":100,"lowRatio":10}}`),
		"web-1": stamped("qos-web", `{"memoryQos":{"highRatio":100,"lowRatio":10}}`),
		"db-0":  untouched,
		"plain": untouched,
	})

	patch := []byte(`{"spec":{"memoryQos":{"highRatio":80,"lowRatio":0,"minRatio":5}}}`)
	if _, err := configs.Patch(t.Context(), "qos-web", types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
		t.Fatalf("patch qos-web: %v", err)
	}
	waitColocation(f, "the changed qos-web written again", map[string]colocationState{
		"web-0": stamped("qos-web", `{"memoryQos":{"highRatio":80,"minRatio":5}}`),
		"web-1": stamped("qos-web", `{"memoryQos":{"highRatio":80,"minRatio":5}}`),
		"db-0":  untouched,
		"plain": untouched,
	})

	// A newer configuration that also selects the web pods wins over qos-web. Creation times
	// have one-second resolution; the waits above took longer than that.
	newer := createColocation(t, f, "qos-all", &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
		{Key: "app", Operator: metav1.LabelSelectorOpIn, Values: []string{"web", "db"}}}},
		&configv1alpha1.MemoryQos{HighRatio: 70, LowRatio: 20, MinRatio: 10})
	if !newer.CreationTimestamp.After(older.CreationTimestamp.Time) {
		t.Fatalf("qos-all (created %v) is not newer than qos-web (created %v)", newer.CreationTimestamp, older.CreationTimestamp)
	}
	all := `{"memoryQos":{"highRatio":70,"lowRatio":20,"minRatio":10}}`
	waitColocation(f, "the newest configuration qos-all wins", map[string]colocationState{
		"web-0": stamped("qos-all", all),
		"web-1": stamped("qos-all", all),
		"db-0":  stamped("qos-all", all),
		"plain": untouched,
	})

	// Deleting it hands the web pods back to qos-web and resets db-0.
	if err := configs.Delete(t.Context(), "qos-all", metav1.DeleteOptions{}); err != nil {
		t.Fatalf("delete qos-all: %v", err)
	}
	waitColocation(f, "qos-all deleted: web pods back on qos-web, db-0 reset", map[string]colocationState{
		"web-0": stamped("qos-web", `{"memoryQos":{"highRatio":80,"minRatio":5}}`),
		"web-1": stamped("qos-web", `{"memoryQos":{"highRatio":80,"minRatio":5}}`),
		"db-0":  reset,
		"plain": untouched,
	})

	// A pod whose labels stop matching is reset.
	relabel := []byte(`{"metadata":{"labels":{"app":"batch"}}}`)
	if _, err := f.Kube.CoreV1().Pods(f.Namespace).Patch(t.Context(), "web-1", types.MergePatchType, relabel, metav1.PatchOptions{}); err != nil {
		t.Fatalf("relabel web-1: %v", err)
	}
	waitColocation(f, "web-1 relabelled: reset", map[string]colocationState{
		"web-0": stamped("qos-web", `{"memoryQos":{"highRatio":80,"minRatio":5}}`),
		"web-1": reset,
		"db-0":  reset,
		"plain": untouched,
	})

	if err := configs.Delete(t.Context(), "qos-web", metav1.DeleteOptions{}); err != nil {
		t.Fatalf("delete qos-web: %v", err)
	}
	waitColocation(f, "qos-web deleted: every selected pod reset", map[string]colocationState{
		"web-0": reset,
		"web-1": reset,
		"db-0":  reset,
		"plain": untouched,
	})
}

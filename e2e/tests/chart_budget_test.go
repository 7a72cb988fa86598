package tests

import (
	"path/filepath"
	"strings"
	"testing"

	networkingv1 "k8s.io/api/networking/v1"

	"vc-cpp.local/e2e/tests/framework"
)

// TestChartAdmissionBudget: the webhook's --max-inflight-bytes follows the container's memory
// limit (admission.inflightBudgetPercent of it), is left to the binary without a limit, and is
// never passed to Volcano's webhook, which has no such flag.
func TestChartAdmissionBudget(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "107374182"}, // 40 % of the default 256Mi
		{[]string{"--set", "custom.admission_resources.limits.memory=1Gi"}, "429496729"},
		{[]string{"--set", "custom.admission_resources.limits.memory=500M", "--set", "admission.inflightBudgetPercent=50"}, "250000000"},
	} {
		objs, _ := chRender(t, c.args...)
		if got := framework.DeploymentFlag(t, chDeployment(t, objs, "volcano-admission"), "--max-inflight-bytes"); got != c.want {
			t.Errorf("helm template %v: --max-inflight-bytes=%s, want %s", c.args, got, c.want)
		}
	}
	objs, _ := chRender(t, "--set", "custom.admission_resources=null")
	if got, ok := framework.LookupDeploymentFlag(chDeployment(t, objs, "volcano-admission"), "--max-inflight-bytes"); ok {
		t.Errorf("without a memory limit the chart passes --max-inflight-bytes=%s, want the binary's default", got)
	}
	objs, _ = chRender(t, "--values", filepath.Join(chChart(t), "values-volcano.yaml"))
	chCheckOnlyFlags(t, chDeployment(t, objs, "volcano-admission"), chVolcanoWebhookFlags)
	_, stderr, err := framework.TryTool(framework.Helm(t), "template", chRelease, chChart(t), "--namespace", chNamespace,
		"--set", "custom.admission_resources.limits.memory=lots")
	if want := `cannot read the memory quantity "lots"`; err == nil || !strings.Contains(stderr, want) {
		t.Errorf("an unreadable memory limit: err %v, stderr %q; want a failure saying %q", err, stderr, want)
	}
}

// TestChartAdmissionNetworkPolicy: off by default; on, it admits the admission port from
// admissionFrom (anywhere when empty) and the metrics port from the selected namespaces only.
func TestChartAdmissionNetworkPolicy(t *testing.T) {
	objs, _ := chRender(t)
	for _, o := range objs {
		if o.GetKind() == "NetworkPolicy" {
			t.Fatalf("the default chart renders NetworkPolicy %s", o.GetName())
		}
	}
	values := chValuesFile(t, `admission:
  networkPolicy:
    enabled: true
    admissionFrom:
      - ipBlock:
          cidr: 10.0.0.0/24
    metricsNamespaceSelector:
      matchLabels:
        kubernetes.io/metadata.name: monitoring
`)
	objs, _ = chRender(t, "--values", values)
	var np networkingv1.NetworkPolicy
	framework.FindManifest(t, objs, "NetworkPolicy", "volcano-admission").Into(t, &np)
	if got := np.Spec.PodSelector.MatchLabels["app"]; got != "volcano-admission" {
		t.Errorf("podSelector app=%q, want volcano-admission", got)
	}
	if len(np.Spec.Ingress) != 2 {
		t.Fatalf("%d ingress rules, want 2 (admission port, metrics port): %+v", len(np.Spec.Ingress), np.Spec.Ingress)
	}
	admission, metrics := np.Spec.Ingress[0], np.Spec.Ingress[1]
	if len(admission.Ports) != 1 || admission.Ports[0].Port.IntValue() != 8443 {
		t.Errorf("admission rule ports %+v, want 8443 only", admission.Ports)
	}
	if len(admission.From) != 1 || admission.From[0].IPBlock == nil || admission.From[0].IPBlock.CIDR != "10.0.0.0/24" {
		t.Errorf("admission rule from %+v, want the ipBlock 10.0.0.0/24", admission.From)
	}
	if len(metrics.Ports) != 1 || metrics.Ports[0].Port.IntValue() != 11251 {
		t.Errorf("metrics rule ports %+v, want 11251 only", metrics.Ports)
	}
	if len(metrics.From) != 1 || metrics.From[0].NamespaceSelector == nil ||
		metrics.From[0].NamespaceSelector.MatchLabels["kubernetes.io/metadata.name"] != "monitoring" {
		t.Errorf("metrics rule from %+v, want the monitoring namespace", metrics.From)
	}
}

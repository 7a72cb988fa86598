package framework

// The controller-manager's install artefacts as the chart and the kustomize base render them.

import (
	"fmt"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
)

// CheckControllersDeployment checks the controller-manager Deployment in ns: Volcano's name and
// selector, two replicas under leader election on a Lease in ns, the controllers our role is
// written for, plain-HTTP /healthz probes on :11251, metrics on :8081, requests and a memory
// limit, non-root with a read-only root filesystem, spread over nodes.
func CheckControllersDeployment(t testing.TB, d appsv1.Deployment, ns string) {
	t.Helper()
	if d.Namespace != ns {
		t.Errorf("Deployment namespace %q, want %s", d.Namespace, ns)
	}
	if Deref(d.Spec.Replicas) != 2 {
		t.Errorf("replicas %v, want 2", Deref(d.Spec.Replicas))
	}
	if d.Spec.Selector == nil || len(d.Spec.Selector.MatchLabels) != 1 || d.Spec.Selector.MatchLabels["app"] != "volcano-controller" {
		t.Errorf("selector %s, want Volcano's app=volcano-controller", ToJSON(d.Spec.Selector))
	}
	pod := d.Spec.Template.Spec
	if pod.ServiceAccountName != "volcano-controllers" {
		t.Errorf("serviceAccountName %q", pod.ServiceAccountName)
	}
	for flag, want := range map[string]string{
		"--leader-elect":                    "true",
		"--leader-elect-resource-namespace": ns,
		"--enable-healthz":                  "true",
		"--healthz-address":                 ":11251",
		"--enable-metrics":                  "true",
		"--listen-address":                  ":8081",
		"--controllers":                     "*,-sharding-controller",
	} {
		if got := DeploymentFlag(t, d, flag); got != want {
			t.Errorf("%s=%q, want %q", flag, got, want)
		}
	}
	c := pod.Containers[0]
	for name, probe := range map[string]*corev1.Probe{"readiness": c.ReadinessProbe, "liveness": c.LivenessProbe} {
		if probe == nil || probe.HTTPGet == nil {
			t.Errorf("%s probe missing or not HTTP GET", name)
			continue
		}
		g := probe.HTTPGet
		if g.Path != "/healthz" || g.Scheme != corev1.URISchemeHTTP || containerPort(c, g.Port) != "11251" {
			t.Errorf("%s probe %s %s port %s, want HTTP /healthz on 11251", name, g.Scheme, g.Path, g.Port.String())
		}
	}
	ports := map[string]int32{}
	for _, p := range c.Ports {
		ports[p.Name] = p.ContainerPort
	}
	if ports["healthz"] != 11251 || ports["metrics"] != 8081 {
		t.Errorf("container ports %v, want healthz 11251 and metrics 8081", ports)
	}
	if c.Resources.Requests.Cpu().IsZero() || c.Resources.Requests.Memory().IsZero() || c.Resources.Limits.Memory().IsZero() {
		t.Errorf("resources %+v: want cpu and memory requests and a memory limit", c.Resources)
	}
	if sc := pod.SecurityContext; sc == nil || !Deref(sc.RunAsNonRoot) || Deref(sc.RunAsUser) == 0 {
		t.Errorf("pod securityContext %s: want runAsNonRoot with a non-zero UID", ToJSON(pod.SecurityContext))
	}
	if sc := c.SecurityContext; sc == nil || !Deref(sc.ReadOnlyRootFilesystem) || Deref(sc.AllowPrivilegeEscalation) {
		t.Errorf("container securityContext %s: want a read-only root filesystem and no privilege escalation", ToJSON(c.SecurityContext))
	}
	if a := pod.Affinity; a == nil || a.PodAntiAffinity == nil || len(a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution) == 0 {
		t.Errorf("no pod anti-affinity between the replicas")
	}
}

// CheckMetricsService checks a metrics Service: one port named metrics, the scrape
// annotations Volcano's chart sets, and a selector for the component's pods.
func CheckMetricsService(t testing.TB, svc corev1.Service, port int32, app string) {
	t.Helper()
	if len(svc.Spec.Ports) != 1 || svc.Spec.Ports[0].Name != "metrics" || svc.Spec.Ports[0].Port != port {
		t.Errorf("Service %s ports %s, want one port %d named metrics", svc.Name, ToJSON(svc.Spec.Ports), port)
	}
	for k, v := range map[string]string{"prometheus.io/path": "/metrics", "prometheus.io/port": fmt.Sprint(port),
		"prometheus.io/scrape": "true"} {
		if svc.Annotations[k] != v {
			t.Errorf("Service %s annotation %s=%q, want %q", svc.Name, k, svc.Annotations[k], v)
		}
	}
	if len(svc.Spec.Selector) != 1 || svc.Spec.Selector["app"] != app {
		t.Errorf("Service %s selector %v, want app=%s", svc.Name, svc.Spec.Selector, app)
	}
}

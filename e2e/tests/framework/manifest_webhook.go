package framework

// The webhook's install artefacts as the chart and the kustomize bases render them, checked
// against Volcano's chart (spec webhook.md §1.2, §4) and against each other: what is registered
// is served, and what is served may be written by the webhook's role.

import (
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

const (
	WebhookMutating   = "MutatingWebhookConfiguration"
	WebhookValidating = "ValidatingWebhookConfiguration"
	// WebhookService is the Service every configuration names; WebhookSecret holds the serving
	// certificate. Both are Volcano's names.
	WebhookService = "volcano-admission-service"
	WebhookSecret  = "volcano-admission-secret"
	// InjectCAFrom is cert-manager's annotation naming the Certificate whose CA fills caBundle.
	InjectCAFrom = "cert-manager.io/inject-ca-from"
)

// AdmissionRegistration is one row of Volcano's chart (spec webhook.md §1.2).
type AdmissionRegistration struct {
	Path, Kind, Webhook, Group, Version, Resource string
	Ops                                           []admissionv1.OperationType
}

// ConfigName is the configuration object's name: volcano-admission-service-jobs-mutate.
func (r AdmissionRegistration) ConfigName() string {
	return WebhookService + strings.ReplaceAll(r.Path, "/", "-")
}

// ClusterScoped marks hypernodes, the odd row: no selectors, no scope, sideEffects None.
func (r AdmissionRegistration) ClusterScoped() bool { return r.Resource == "hypernodes" }

var (
	opCreate = admissionv1.Create
	opUpdate = admissionv1.Update
	opDelete = admissionv1.Delete
)

// AdmissionRegistrations are all eleven rows of Volcano's chart.
var AdmissionRegistrations = []AdmissionRegistration{
	{"/pods/mutate", WebhookMutating, "mutatepod.volcano.sh", "", "v1", "pods", []admissionv1.OperationType{opCreate}},
	{"/queues/mutate", WebhookMutating, "mutatequeue.volcano.sh", "scheduling.volcano.sh", "v1beta1", "queues", []admissionv1.OperationType{opCreate}},
	{"/podgroups/mutate", WebhookMutating, "mutatepodgroup.volcano.sh", "scheduling.volcano.sh", "v1beta1", "podgroups", []admissionv1.OperationType{opCreate}},
	{"/jobs/mutate", WebhookMutating, "mutatejob.volcano.sh", "batch.volcano.sh", "v1alpha1", "jobs", []admissionv1.OperationType{opCreate}},
	{"/jobs/validate", WebhookValidating, "validatejob.volcano.sh", "batch.volcano.sh", "v1alpha1", "jobs", []admissionv1.OperationType{opCreate, opUpdate}},
	// Volcano's chart reuses the job webhook's name for jobflows.
	{"/jobflows/validate", WebhookValidating, "validatejob.volcano.sh", "flow.volcano.sh", "v1alpha1", "jobflows", []admissionv1.OperationType{opCreate, opUpdate}},
	{"/pods/validate", WebhookValidating, "validatepod.volcano.sh", "", "v1", "pods", []admissionv1.OperationType{opCreate}},
	{"/queues/validate", WebhookValidating, "validatequeue.volcano.sh", "scheduling.volcano.sh", "v1beta1", "queues", []admissionv1.OperationType{opCreate, opUpdate, opDelete}},
	{"/podgroups/validate", WebhookValidating, "validatepodgroup.volcano.sh", "scheduling.volcano.sh", "v1beta1", "podgroups", []admissionv1.OperationType{opCreate}},
	{"/hypernodes/validate", WebhookValidating, "validatehypernodes.volcano.sh", "topology.volcano.sh", "v1alpha1", "hypernodes", []admissionv1.OperationType{opCreate, opUpdate}},
	{"/cronjobs/validate", WebhookValidating, "validatecronjob.volcano.sh", "batch.volcano.sh", "v1alpha1", "cronjobs", []admissionv1.OperationType{opCreate, opUpdate}},
}

// VolcanoDefaultAdmissions is custom.enabled_admissions of Volcano's chart v1.15.1
// (spec webhook.md §1.1): no pods, no podgroups/mutate, no jobflows.
var VolcanoDefaultAdmissions = []string{"/jobs/mutate", "/jobs/validate", "/podgroups/validate", "/queues/mutate",
	"/queues/validate", "/hypernodes/validate", "/cronjobs/validate"}

// AllAdmissionPaths is every path Volcano's webhook can serve.
func AllAdmissionPaths() []string {
	var out []string
	for _, r := range AdmissionRegistrations {
		out = append(out, r.Path)
	}
	return out
}

// RegistrationsFor returns the rows of paths, failing t on an unknown path.
func RegistrationsFor(t testing.TB, paths []string) []AdmissionRegistration {
	t.Helper()
	var out []AdmissionRegistration
	for _, p := range paths {
		i := slices.IndexFunc(AdmissionRegistrations, func(r AdmissionRegistration) bool { return r.Path == p })
		if i < 0 {
			t.Fatalf("%q is not one of Volcano's admission paths", p)
		}
		out = append(out, AdmissionRegistrations[i])
	}
	return out
}

// ServiceDNSNames are the names the serving certificate must carry for the Service in ns
// (127.0.0.1 is checked apart).
func ServiceDNSNames(ns string) []string {
	return []string{WebhookService, WebhookService + "." + ns, WebhookService + "." + ns + ".svc",
		WebhookService + "." + ns + ".svc.cluster.local"}
}

// CheckAdmissionAgreement asserts that objs register exactly the configurations of paths, each
// as Volcano's chart does (CheckWebhookConfiguration with ns and caBundle), that the webhook
// Deployment serves exactly those paths (an unserved registered path with failurePolicy Fail
// rejects every matching request) on the Service's target port, and that its ClusterRole may
// write exactly those configurations' caBundle (CheckWebhookRole; skipped when volcanoRole,
// whose role is Volcano's own).
func CheckAdmissionAgreement(t testing.TB, objs []ManifestObject, ns string, paths []string, caBundle []byte, volcanoRole bool) {
	t.Helper()
	configs := ManifestsOfKind(objs, WebhookMutating)
	for name, o := range ManifestsOfKind(objs, WebhookValidating) {
		configs[name] = o
	}
	regs := RegistrationsFor(t, paths)
	if len(configs) != len(regs) {
		t.Errorf("%d webhook configurations %v rendered, want %d for %v", len(configs), SortedKeys(configs), len(regs), paths)
	}
	for _, reg := range regs {
		o, ok := configs[reg.ConfigName()]
		if !ok {
			t.Errorf("%s: no configuration named %s", reg.Path, reg.ConfigName())
			continue
		}
		CheckWebhookConfiguration(t, reg, o, ns, caBundle)
	}

	var d appsv1.Deployment
	FindManifest(t, objs, "Deployment", "volcano-admission").Into(t, &d)
	if got := SortedCopy(strings.Split(DeploymentFlag(t, d, "--enabled-admission"), ",")); !slices.Equal(got, SortedCopy(paths)) {
		t.Errorf("--enabled-admission serves %v, want exactly the registered paths %v", got, SortedCopy(paths))
	}
	var svc corev1.Service
	FindManifest(t, objs, "Service", WebhookService).Into(t, &svc)
	port := DeploymentFlag(t, d, "--port")
	if len(svc.Spec.Ports) != 1 || svc.Spec.Ports[0].Port != 443 || svc.Spec.Ports[0].TargetPort.String() != port {
		t.Errorf("Service ports %s, want exactly 443 -> %s (--port)", ToJSON(svc.Spec.Ports), port)
	}
	if svc.Spec.Selector["app"] != "volcano-admission" {
		t.Errorf("Service selector %v, want app=volcano-admission", svc.Spec.Selector)
	}
	if !volcanoRole {
		var role rbacv1.ClusterRole
		FindManifest(t, objs, "ClusterRole", "volcano-admission").Into(t, &role)
		CheckWebhookRole(t, role, paths)
	}
}

// CheckWebhookConfiguration compares one rendered configuration with Volcano's chart: service
// volcano-admission-service in ns, port 443, the row's path, rule and webhook name, Fail,
// Equivalent, 10 s, v1 reviews, and the selectors; caBundle must equal the given bytes (nil:
// no caBundle at all).
func CheckWebhookConfiguration(t testing.TB, reg AdmissionRegistration, o ManifestObject, ns string, caBundle []byte) {
	t.Helper()
	name := o.GetName()
	if o.GetKind() != reg.Kind {
		t.Errorf("%s: kind %s, want %s", name, o.GetKind(), reg.Kind)
		return
	}
	var hooks []admissionv1.ValidatingWebhook // the fields checked here are common to both kinds
	if reg.Kind == WebhookMutating {
		var m admissionv1.MutatingWebhookConfiguration
		o.Into(t, &m)
		for _, h := range m.Webhooks {
			if Deref(h.ReinvocationPolicy) != admissionv1.NeverReinvocationPolicy {
				t.Errorf("%s: reinvocationPolicy %v, want Never", name, Deref(h.ReinvocationPolicy))
			}
			hooks = append(hooks, admissionv1.ValidatingWebhook{Name: h.Name, ClientConfig: h.ClientConfig, Rules: h.Rules,
				FailurePolicy: h.FailurePolicy, MatchPolicy: h.MatchPolicy, NamespaceSelector: h.NamespaceSelector,
				ObjectSelector: h.ObjectSelector, SideEffects: h.SideEffects, TimeoutSeconds: h.TimeoutSeconds,
				AdmissionReviewVersions: h.AdmissionReviewVersions})
		}
	} else {
		var v admissionv1.ValidatingWebhookConfiguration
		o.Into(t, &v)
		hooks = v.Webhooks
	}
	if len(hooks) != 1 {
		t.Errorf("%s: %d webhooks, want 1", name, len(hooks))
		return
	}
	h := hooks[0]
	if h.Name != reg.Webhook {
		t.Errorf("%s: webhook name %q, want Volcano's %q", name, h.Name, reg.Webhook)
	}
	cc := h.ClientConfig
	if cc.URL != nil || cc.Service == nil || cc.Service.Name != WebhookService || cc.Service.Namespace != ns ||
		Deref(cc.Service.Path) != reg.Path || Deref(cc.Service.Port) != 443 {
		t.Errorf("%s: clientConfig %s, want service %s/%s port 443 path %s", name, ToJSON(cc.Service), ns, WebhookService, reg.Path)
	}
	if string(cc.CABundle) != string(caBundle) {
		if caBundle == nil {
			t.Errorf("%s: sets a caBundle; it must not (re-applying would overwrite the one the webhook writes)", name)
		} else {
			t.Errorf("%s: caBundle is not the CA of the webhook's Secret (%d bytes, want %d)", name, len(cc.CABundle), len(caBundle))
		}
	}
	if Deref(h.FailurePolicy) != admissionv1.Fail || Deref(h.MatchPolicy) != admissionv1.Equivalent || Deref(h.TimeoutSeconds) != 10 {
		t.Errorf("%s: failurePolicy %v matchPolicy %v timeoutSeconds %v, want Fail, Equivalent, 10",
			name, Deref(h.FailurePolicy), Deref(h.MatchPolicy), Deref(h.TimeoutSeconds))
	}
	if !slices.Equal(h.AdmissionReviewVersions, []string{"v1"}) {
		t.Errorf("%s: admissionReviewVersions %v, want [v1]", name, h.AdmissionReviewVersions)
	}
	wantSide, wantScope := admissionv1.SideEffectClassNoneOnDryRun, admissionv1.AllScopes
	var wantNS *metav1.LabelSelector
	if !reg.ClusterScoped() {
		wantNS = &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{
			Key: "kubernetes.io/metadata.name", Operator: metav1.LabelSelectorOpNotIn, Values: []string{ns, "kube-system"}}}}
		if h.ObjectSelector == nil || !reflect.DeepEqual(*h.ObjectSelector, metav1.LabelSelector{}) {
			t.Errorf("%s: objectSelector %s, want {}", name, ToJSON(h.ObjectSelector))
		}
	} else {
		wantSide = admissionv1.SideEffectClassNone
	}
	if Deref(h.SideEffects) != wantSide {
		t.Errorf("%s: sideEffects %v, want %v", name, Deref(h.SideEffects), wantSide)
	}
	if !reflect.DeepEqual(h.NamespaceSelector, wantNS) {
		t.Errorf("%s: namespaceSelector %s, want %s", name, ToJSON(h.NamespaceSelector), ToJSON(wantNS))
	}
	if len(h.Rules) != 1 {
		t.Errorf("%s: %d rules, want 1", name, len(h.Rules))
		return
	}
	r := h.Rules[0]
	if !slices.Equal(r.APIGroups, []string{reg.Group}) || !slices.Equal(r.APIVersions, []string{reg.Version}) ||
		!slices.Equal(r.Resources, []string{reg.Resource}) || !slices.Equal(r.Operations, reg.Ops) {
		t.Errorf("%s: rule %s, want %s/%s %s %v", name, ToJSON(r), reg.Group, reg.Version, reg.Resource, reg.Ops)
	}
	if reg.ClusterScoped() && r.Scope != nil {
		t.Errorf("%s: scope %v, want none (Volcano's chart sets none for hypernodes)", name, *r.Scope)
	}
	if !reg.ClusterScoped() && Deref(r.Scope) != wantScope {
		t.Errorf("%s: scope %v, want *", name, Deref(r.Scope))
	}
}

// WebhookImplOurs and WebhookImplVolcano are the chart's implementation values: which binary
// the webhook Deployment runs, which decides the probes it can have.
const (
	WebhookImplOurs    = "vc-cpp"
	WebhookImplVolcano = "volcano"
)

// CheckWebhookDeployment checks the webhook Deployment: two replicas spread over nodes, probes
// the binary can answer (ours: plain HTTP /readyz and /healthz on 11251; Volcano's: its HTTPS
// port accepting connections, and /healthz over TLS), requests, non-root with a read-only root
// filesystem, the certificate Secret mounted whole where the TLS flags point, and a preStop
// sleep inside a grace period that leaves --graceful-shutdown-time for reviews in flight.
func CheckWebhookDeployment(t testing.TB, d appsv1.Deployment, impl string) {
	t.Helper()
	if n := Deref(d.Spec.Replicas); n != 2 {
		t.Errorf("Deployment replicas %d, want 2", n)
	}
	if d.Spec.Selector == nil || !reflect.DeepEqual(d.Spec.Selector.MatchLabels, map[string]string{"app": "volcano-admission"}) {
		t.Errorf("Deployment selector %s, want Volcano's app=volcano-admission", ToJSON(d.Spec.Selector))
	}
	pod := d.Spec.Template.Spec
	if pod.Affinity == nil || pod.Affinity.PodAntiAffinity == nil {
		t.Errorf("Deployment has no pod anti-affinity")
	}
	if pod.SecurityContext == nil || !Deref(pod.SecurityContext.RunAsNonRoot) || Deref(pod.SecurityContext.RunAsUser) == 0 {
		t.Errorf("pod securityContext %s, want runAsNonRoot and a non-zero runAsUser", ToJSON(pod.SecurityContext))
	}
	if len(pod.Containers) != 1 {
		t.Fatalf("Deployment has %d containers, want 1", len(pod.Containers))
	}
	c := pod.Containers[0]
	if sc := c.SecurityContext; sc == nil || !Deref(sc.ReadOnlyRootFilesystem) || Deref(sc.AllowPrivilegeEscalation) {
		t.Errorf("container securityContext %s, want readOnlyRootFilesystem and no privilege escalation", ToJSON(sc))
	}
	if c.Resources.Requests.Cpu().IsZero() || c.Resources.Requests.Memory().IsZero() {
		t.Errorf("container requests %v, want cpu and memory", c.Resources.Requests)
	}
	if got := DeploymentFlag(t, d, "--healthz-address"); got != ":11251" {
		t.Errorf("--healthz-address=%s, want :11251", got)
	}
	https := DeploymentFlag(t, d, "--port")
	type probeWant struct {
		probe       *corev1.Probe
		scheme      corev1.URIScheme
		path, port  string
		tcp         bool
		description string
	}
	wants := []probeWant{{c.LivenessProbe, corev1.URISchemeHTTP, "/healthz", "11251", false, "liveness"},
		{c.ReadinessProbe, corev1.URISchemeHTTP, "/readyz", "11251", false, "readiness"}}
	if impl == WebhookImplVolcano {
		wants = []probeWant{{c.LivenessProbe, corev1.URISchemeHTTPS, "/healthz", "11251", false, "liveness"},
			{c.ReadinessProbe, "", "", https, true, "readiness"}}
	}
	for _, w := range wants {
		p := w.probe
		switch {
		case p == nil:
			t.Errorf("no %s probe", w.description)
		case w.tcp && (p.TCPSocket == nil || containerPort(c, p.TCPSocket.Port) != w.port):
			t.Errorf("%s probe %s, want a TCP check of port %s", w.description, ToJSON(p.ProbeHandler), w.port)
		case !w.tcp && (p.HTTPGet == nil || p.HTTPGet.Path != w.path || p.HTTPGet.Scheme != w.scheme ||
			containerPort(c, p.HTTPGet.Port) != w.port):
			t.Errorf("%s probe %s, want %s GET %s on port %s", w.description, ToJSON(p.ProbeHandler), w.scheme, w.path, w.port)
		}
	}
	certDir := filepath.Dir(DeploymentFlag(t, d, "--tls-cert-file"))
	mounted := false
	for _, m := range c.VolumeMounts {
		for _, v := range pod.Volumes {
			if v.Name == m.Name && v.Secret != nil && v.Secret.SecretName == WebhookSecret && m.MountPath == certDir && m.SubPath == "" {
				mounted = true
			}
		}
	}
	if !mounted {
		t.Errorf("Secret %s is not mounted whole at %s, where --tls-cert-file points", WebhookSecret, certDir)
	}
	CheckWebhookShutdown(t, d)
}

// CheckWebhookShutdown: a preStop sleep (the kubelet's own handler: the image has no shell)
// keeps a terminating pod serving while its endpoint removal spreads, and the grace period
// exceeds that sleep plus --graceful-shutdown-time, so reviews in flight finish before SIGKILL.
// Returns the sleep and the grace period in seconds.
func CheckWebhookShutdown(t testing.TB, d appsv1.Deployment) (preStop, grace int64) {
	t.Helper()
	c := d.Spec.Template.Spec.Containers[0]
	if c.Lifecycle == nil || c.Lifecycle.PreStop == nil || c.Lifecycle.PreStop.Sleep == nil {
		t.Errorf("webhook container has no preStop sleep: %s", ToJSON(c.Lifecycle))
	} else {
		preStop = c.Lifecycle.PreStop.Sleep.Seconds
		if c.Lifecycle.PreStop.Exec != nil {
			t.Errorf("preStop runs a command; the image has no shell")
		}
	}
	shutdown, err := time.ParseDuration(DeploymentFlag(t, d, "--graceful-shutdown-time"))
	if err != nil {
		t.Errorf("--graceful-shutdown-time: %v", err)
	}
	grace = Deref(d.Spec.Template.Spec.TerminationGracePeriodSeconds)
	if grace <= preStop+int64(shutdown.Seconds()) {
		t.Errorf("terminationGracePeriodSeconds %d, want more than preStop %d s + --graceful-shutdown-time %v", grace, preStop, shutdown)
	}
	return preStop, grace
}

// containerPort resolves a probe's port (a number or a port name) to the number, as a string.
func containerPort(c corev1.Container, port intstr.IntOrString) string {
	if port.Type == intstr.Int {
		return port.String()
	}
	for _, p := range c.Ports {
		if p.Name == port.StrVal {
			return fmt.Sprint(p.ContainerPort)
		}
	}
	return "<unknown port " + port.StrVal + ">"
}

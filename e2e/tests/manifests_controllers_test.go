package tests

import (
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// mcWantClusterRules is the controller ClusterRole, rule for rule: exactly the calls of
// job-controller, queue-controller, pg-controller and gc-controller plus events
// (spec/controller-manager.md §1.13 "Minimal needs", spec/job-controller.md §1.6). Keys are "<apiGroup> <resource>", values the sorted verbs.
var mcWantClusterRules = map[string][]string{
	"scheduling.volcano.sh queues":        {"get", "list", "patch", "watch"},
	"scheduling.volcano.sh queues/status": {"patch"},
	"scheduling.volcano.sh podgroups":     {"create", "delete", "get", "list", "update", "watch"},
	"bus.volcano.sh commands":             {"delete", "list", "watch"},
	"batch.volcano.sh jobs":               {"delete", "get", "list", "patch", "update", "watch"},
	"batch.volcano.sh jobs/status":        {"update"},
	" pods":                               {"create", "delete", "list", "patch", "watch"},
	" persistentvolumeclaims":             {"create", "list", "watch"},
	" services":                           {"create", "delete", "get"},
	" configmaps":                         {"create", "delete", "get", "update"},
	" secrets":                            {"create", "delete", "get", "update"},
	"networking.k8s.io networkpolicies":   {"create", "delete", "get"},
	"scheduling.k8s.io priorityclasses":   {"list", "watch"},
	"apps replicasets":                    {"get", "list", "watch"},
	"apps statefulsets":                   {"get", "list", "watch"},
	"apps daemonsets":                     {"get"},
	"batch jobs":                          {"get"},
	" events":                             {"create", "patch"},
}

// mcWantLeaseRules: leader election on the Lease in volcano-system only.
var mcWantLeaseRules = map[string][]string{
	"coordination.k8s.io leases": {"create", "get", "update"},
}

// mcRuleMap flattens rules into "<group> <resource>" -> sorted verbs, failing on a rule that
// names a resource twice, uses wildcards or resourceNames.
func mcRuleMap(t *testing.T, what string, rules []rbacv1.PolicyRule) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, r := range rules {
		if len(r.NonResourceURLs) != 0 || len(r.ResourceNames) != 0 {
			t.Errorf("%s: unexpected rule %+v", what, r)
		}
		for _, g := range r.APIGroups {
			for _, res := range r.Resources {
				key := g + " " + res
				if _, dup := out[key]; dup {
					t.Errorf("%s: %q granted by two rules", what, key)
				}
				verbs := slices.Clone(r.Verbs)
				sort.Strings(verbs)
				for _, v := range verbs {
					if v == "*" || g == "*" || res == "*" {
						t.Errorf("%s: wildcard in rule %+v", what, r)
					}
				}
				out[key] = verbs
			}
		}
	}
	return out
}

func mcCheckRules(t *testing.T, what string, got, want map[string][]string) {
	t.Helper()
	for key, verbs := range want {
		if !slices.Equal(got[key], verbs) {
			t.Errorf("%s: %q verbs %v, want %v", what, key, got[key], verbs)
		}
	}
	for key, verbs := range got {
		if _, ok := want[key]; !ok {
			t.Errorf("%s: %q granted %v, which no controller in this base needs", what, key, verbs)
		}
	}
}

// TestManifestsControllersRendered: the controllers base renders the Deployment, RBAC, metrics
// Service and default queues described in manifests/README.md: two replicas under leader
// election in volcano-system, plain-HTTP /healthz probes on :11251, metrics on :8081, non-root
// with a read-only root filesystem, and a ClusterRole with exactly the documented verbs.
func TestManifestsControllersRendered(t *testing.T) {
	root := mfRepoRoot(t)
	objs := mfRenderKustomize(t, filepath.Join(root, "manifests", "controllers"))
	for _, o := range objs {
		if o.GetKind() == "Namespace" {
			t.Errorf("the controllers base declares Namespace %s; it belongs to manifests/webhook", o.GetName())
		}
	}

	var d appsv1.Deployment
	mfFindObject(t, objs, "Deployment", "volcano-controllers").into(t, &d)
	if d.Namespace != mfNamespace {
		t.Errorf("Deployment namespace %q, want %s", d.Namespace, mfNamespace)
	}
	if d.Spec.Replicas == nil || *d.Spec.Replicas != 2 {
		t.Errorf("replicas %v, want 2", mfDeref(d.Spec.Replicas))
	}
	if got := d.Spec.Selector.MatchLabels["app"]; got != "volcano-controller" {
		t.Errorf("selector app=%q, want Volcano's volcano-controller", got)
	}
	pod := d.Spec.Template.Spec
	if pod.ServiceAccountName != "volcano-controllers" {
		t.Errorf("serviceAccountName %q", pod.ServiceAccountName)
	}
	for flag, want := range map[string]string{
		"--leader-elect":                    "true",
		"--leader-elect-resource-namespace": mfNamespace,
		"--enable-healthz":                  "true",
		"--healthz-address":                 ":11251",
		"--enable-metrics":                  "true",
		"--listen-address":                  ":8081",
		"--controllers":                     "job-controller,queue-controller,pg-controller,gc-controller",
	} {
		if got := mfFlagValue(t, d, flag); got != want {
			t.Errorf("%s=%q, want %q", flag, got, want)
		}
	}
	c := pod.Containers[0]
	if !strings.HasPrefix(c.Image, "vc-cpp/vc-controller-manager:") {
		t.Errorf("image %q, want vc-cpp/vc-controller-manager:<tag>", c.Image)
	}
	for name, probe := range map[string]*corev1.Probe{"readiness": c.ReadinessProbe, "liveness": c.LivenessProbe} {
		if probe == nil || probe.HTTPGet == nil {
			t.Errorf("%s probe missing or not HTTP GET", name)
			continue
		}
		g := probe.HTTPGet
		if g.Path != "/healthz" || g.Scheme != corev1.URISchemeHTTP || (g.Port.String() != "healthz" && g.Port.IntValue() != 11251) {
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
	if sc := pod.SecurityContext; sc == nil || !mfDeref(sc.RunAsNonRoot) || mfDeref(sc.RunAsUser) == 0 {
		t.Errorf("pod securityContext %s: want runAsNonRoot with a non-zero UID", mfToJSON(pod.SecurityContext))
	}
	if sc := c.SecurityContext; sc == nil || !mfDeref(sc.ReadOnlyRootFilesystem) || mfDeref(sc.AllowPrivilegeEscalation) {
		t.Errorf("container securityContext %s: want a read-only root filesystem and no privilege escalation", mfToJSON(c.SecurityContext))
	}
	if a := pod.Affinity; a == nil || a.PodAntiAffinity == nil || len(a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution) == 0 {
		t.Errorf("no pod anti-affinity between the replicas")
	}

	var role rbacv1.ClusterRole
	mfFindObject(t, objs, "ClusterRole", "volcano-controllers").into(t, &role)
	mcCheckRules(t, "ClusterRole volcano-controllers", mcRuleMap(t, "ClusterRole", role.Rules), mcWantClusterRules)
	var lease rbacv1.Role
	mfFindObject(t, objs, "Role", "volcano-controllers-leader-election").into(t, &lease)
	if lease.Namespace != mfNamespace {
		t.Errorf("leader-election Role in %q, want %s", lease.Namespace, mfNamespace)
	}
	mcCheckRules(t, "Role volcano-controllers-leader-election", mcRuleMap(t, "Role", lease.Rules), mcWantLeaseRules)

	var crb rbacv1.ClusterRoleBinding
	mfFindObject(t, objs, "ClusterRoleBinding", "volcano-controllers-role").into(t, &crb)
	var rb rbacv1.RoleBinding
	mfFindObject(t, objs, "RoleBinding", "volcano-controllers-leader-election").into(t, &rb)
	for what, b := range map[string]struct {
		ref      rbacv1.RoleRef
		subjects []rbacv1.Subject
		kind     string
		name     string
	}{
		"ClusterRoleBinding": {crb.RoleRef, crb.Subjects, "ClusterRole", "volcano-controllers"},
		"RoleBinding":        {rb.RoleRef, rb.Subjects, "Role", "volcano-controllers-leader-election"},
	} {
		if b.ref.Kind != b.kind || b.ref.Name != b.name {
			t.Errorf("%s roleRef %+v, want %s %s", what, b.ref, b.kind, b.name)
		}
		if len(b.subjects) != 1 || b.subjects[0].Kind != "ServiceAccount" || b.subjects[0].Name != "volcano-controllers" ||
			b.subjects[0].Namespace != mfNamespace {
			t.Errorf("%s subjects %+v, want ServiceAccount %s/volcano-controllers", what, b.subjects, mfNamespace)
		}
	}
	mfFindObject(t, objs, "ServiceAccount", "volcano-controllers")

	var svc corev1.Service
	mfFindObject(t, objs, "Service", "volcano-controllers-service").into(t, &svc)
	if len(svc.Spec.Ports) != 1 || svc.Spec.Ports[0].Name != "metrics" || svc.Spec.Ports[0].Port != 8081 {
		t.Errorf("metrics Service ports %s, want one port 8081 named metrics", mfToJSON(svc.Spec.Ports))
	}
	for k, v := range map[string]string{"prometheus.io/path": "/metrics", "prometheus.io/port": "8081", "prometheus.io/scrape": "true"} {
		if svc.Annotations[k] != v {
			t.Errorf("Service annotation %s=%q, want %q", k, svc.Annotations[k], v)
		}
	}
	if svc.Spec.Selector["app"] != "volcano-controller" {
		t.Errorf("Service selector %v", svc.Spec.Selector)
	}

	for name, reclaimable := range map[string]bool{"default": true, "root": false} {
		q := mfFindObject(t, objs, "Queue", name)
		if q.GetNamespace() != "" {
			t.Errorf("Queue %s rendered with namespace %q; queues are cluster-scoped", name, q.GetNamespace())
		}
		w, _, _ := unstructured.NestedInt64(q.Object, "spec", "weight")
		r, found, _ := unstructured.NestedBool(q.Object, "spec", "reclaimable")
		if w != 1 || !found || r != reclaimable {
			t.Errorf("Queue %s weight=%d reclaimable=%v (set %v), want weight 1 reclaimable %v", name, w, r, found, reclaimable)
		}
	}
}

// TestManifestsControllersServerDryRun: `kubectl apply --dry-run=server -k manifests/controllers`
// is accepted by the API server for every object of the base and stores nothing; the top-level
// manifests/ kustomization renders the webhook and controllers bases with one Namespace.
func TestManifestsControllersServerDryRun(t *testing.T) {
	clients := mfLoadClients(t)
	mfEnsureWebhookNamespace(t, clients)
	root := mfRepoRoot(t)

	out := mfKubectl(t, "apply", "--dry-run=server", "-k", filepath.Join(root, "manifests", "controllers"))
	want := []string{
		"serviceaccount/volcano-controllers",
		"clusterrole.rbac.authorization.k8s.io/volcano-controllers",
		"clusterrolebinding.rbac.authorization.k8s.io/volcano-controllers-role",
		"role.rbac.authorization.k8s.io/volcano-controllers-leader-election",
		"rolebinding.rbac.authorization.k8s.io/volcano-controllers-leader-election",
		"service/volcano-controllers-service",
		"deployment.apps/volcano-controllers",
		"queue.scheduling.volcano.sh/default",
		"queue.scheduling.volcano.sh/root",
	}
	created := mfCheckDryRunReport(t, out, want)
	for _, ref := range created {
		if got := strings.TrimSpace(mfKubectl(t, "get", ref, "-n", mfNamespace, "--ignore-not-found", "-o", "name")); got != "" {
			t.Errorf("%s exists after a dry run reported it created", got)
		}
	}

	all := mfRenderKustomize(t, filepath.Join(root, "manifests"))
	namespaces := 0
	for _, o := range all {
		if o.GetKind() == "Namespace" {
			namespaces++
		}
	}
	if namespaces != 1 {
		t.Errorf("manifests/ renders %d Namespace objects, want exactly 1", namespaces)
	}
	mfFindObject(t, all, "Deployment", "volcano-admission")
	mfFindObject(t, all, "Deployment", "volcano-controllers")
}

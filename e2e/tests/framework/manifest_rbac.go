package framework

// RBAC rules as rendered by the chart and the kustomize bases, checked verb for verb against
// what each binary calls (ours) or what Volcano's chart grants (Volcano's binaries).

import (
	"slices"
	"testing"

	rbacv1 "k8s.io/api/rbac/v1"
)

// Rules maps "<apiGroup> <resource>" to its sorted verbs.
type Rules map[string][]string

// ControllerClusterRules is our controller ClusterRole, rule for rule: exactly the calls of
// job-controller, queue-controller, pg-controller and gc-controller
// (spec controller-manager.md §1.13 "Minimal needs", spec job-controller.md §1.6), of the
// cronjob, jobflow, jobtemplate, hyperNode, colocation-config and sharding controllers
// (spec controller-manager.md §5), plus events (created and patched by the recorder, listed by
// the job controller's verdict pass).
var ControllerClusterRules = Rules{
	"scheduling.volcano.sh queues":          {"get", "list", "patch", "watch"},
	"scheduling.volcano.sh queues/status":   {"patch"},
	"scheduling.volcano.sh podgroups":       {"create", "delete", "get", "list", "update", "watch"},
	"bus.volcano.sh commands":               {"delete", "list", "watch"},
	"batch.volcano.sh jobs":                 {"create", "delete", "get", "list", "patch", "update", "watch"},
	"batch.volcano.sh jobs/status":          {"update"},
	"batch.volcano.sh cronjobs":             {"get", "list", "watch"},
	"batch.volcano.sh cronjobs/status":      {"update"},
	"flow.volcano.sh jobflows":              {"get", "list", "watch"},
	"flow.volcano.sh jobflows/status":       {"update"},
	"flow.volcano.sh jobtemplates":          {"get", "list", "watch"},
	"flow.volcano.sh jobtemplates/status":   {"update"},
	"topology.volcano.sh hypernodes":        {"create", "delete", "get", "list", "patch", "watch"},
	"topology.volcano.sh hypernodes/status": {"patch"},
	" nodes":                                {"list", "watch"},
	"shard.volcano.sh nodeshards":           {"create", "delete", "list", "update", "watch"},
	" pods":                                 {"create", "delete", "list", "patch", "watch"},
	" persistentvolumeclaims":               {"create", "list", "watch"},
	" services":                             {"create", "delete", "get"},
	" configmaps":                           {"create", "delete", "get", "list", "update", "watch"},
	" secrets":                              {"create", "delete", "get", "update"},
	"networking.k8s.io networkpolicies":     {"create", "delete", "get"},
	"scheduling.k8s.io priorityclasses":     {"list", "watch"},
	"apps replicasets":                      {"get", "list", "watch"},
	"apps statefulsets":                     {"get", "list", "watch"},
	"apps daemonsets":                       {"get"},
	"batch jobs":                            {"get"},
	" events":                               {"create", "list", "patch"},

	// colocation-config-controller: its informer (pods above: list, watch, patch).
	"config.volcano.sh colocationconfigurations": {"list", "watch"},
}

// ControllerLeaseRules: leader election on the Lease in the release namespace only.
var ControllerLeaseRules = Rules{
	"coordination.k8s.io leases": {"create", "get", "update"},
}

// VolcanoControllerClusterRules is Volcano's own controller ClusterRole (its chart,
// spec controller-manager.md §1.13), which rbac.volcanoCompatible renders.
var VolcanoControllerClusterRules = Rules{
	"apiextensions.k8s.io customresourcedefinitions": {"create", "delete", "get", "list", "watch"},
	"batch.volcano.sh jobs":                          {"create", "delete", "get", "list", "update", "watch"},
	"batch.volcano.sh jobs/status":                   {"patch", "update"},
	"batch.volcano.sh jobs/finalizers":               {"patch", "update"},
	"batch.volcano.sh cronjobs":                      {"create", "delete", "get", "list", "update", "watch"},
	"batch.volcano.sh cronjobs/status":               {"patch", "update"},
	"batch.volcano.sh cronjobs/finalizers":           {"patch", "update"},
	"bus.volcano.sh commands":                        {"delete", "get", "list", "watch"},
	" events":                                        {"create", "list", "patch", "update", "watch"},
	" pods":                                          {"create", "delete", "get", "list", "patch", "update", "watch"},
	" pods/finalizers":                               {"patch", "update"},
	" persistentvolumeclaims":                        {"create", "get", "list", "watch"},
	" services":                                      {"create", "delete", "get", "list", "watch"},
	" configmaps":                                    {"create", "delete", "get", "list", "update", "watch"},
	" secrets":                                       {"create", "delete", "get", "update"},
	"scheduling.incubator.k8s.io podgroups":          {"create", "delete", "get", "list", "patch", "update", "watch"},
	"scheduling.incubator.k8s.io queues":             {"create", "delete", "get", "list", "patch", "update", "watch"},
	"scheduling.incubator.k8s.io queues/status":      {"create", "delete", "get", "list", "patch", "update", "watch"},
	"scheduling.volcano.sh podgroups":                {"create", "delete", "get", "list", "patch", "update", "watch"},
	"scheduling.volcano.sh queues":                   {"create", "delete", "get", "list", "patch", "update", "watch"},
	"scheduling.volcano.sh queues/status":            {"create", "delete", "get", "list", "patch", "update", "watch"},
	"flow.volcano.sh jobflows":                       {"create", "delete", "get", "list", "update", "watch"},
	"flow.volcano.sh jobtemplates":                   {"create", "delete", "get", "list", "update", "watch"},
	"flow.volcano.sh jobflows/status":                {"patch", "update"},
	"flow.volcano.sh jobs/finalizers":                {"patch", "update"},
	"flow.volcano.sh jobtemplates/status":            {"patch", "update"},
	"flow.volcano.sh jobtemplates/finalizers":        {"patch", "update"},
	"scheduling.k8s.io priorityclasses":              {"create", "delete", "get", "list", "watch"},
	"networking.k8s.io networkpolicies":              {"create", "delete", "get"},
	"apps daemonsets":                                {"get"},
	"apps replicasets":                               {"get", "list", "watch"},
	"apps statefulsets":                              {"get", "list", "watch"},
	"batch jobs":                                     {"get"},
	"coordination.k8s.io leases":                     {"create", "get", "update", "watch"},
	"topology.volcano.sh hypernodes":                 {"create", "delete", "get", "list", "patch", "update", "watch"},
	"topology.volcano.sh hypernodes/status":          {"create", "delete", "get", "list", "patch", "update", "watch"},
	" nodes":                                         {"list", "watch"},
	"shard.volcano.sh nodeshards":                    {"create", "delete", "get", "list", "patch", "update", "watch"},
	"shard.volcano.sh nodeshards/status":             {"create", "delete", "get", "list", "patch", "update", "watch"},
	"config.volcano.sh colocationconfigurations":     {"get", "list", "watch"},
}

// WebhookRules is our webhook's ClusterRole apart from the webhook configurations (checked with
// their resourceNames by CheckWebhookRole): the Queue informer and live GET, events, and the
// Namespace informer and live GET of /podgroups/mutate when that path is enabled.
func WebhookRules(paths []string) Rules {
	r := Rules{
		"scheduling.volcano.sh queues": {"get", "list", "watch"},
		" events":                      {"create", "patch"},
	}
	if slices.Contains(paths, "/podgroups/mutate") {
		r[" namespaces"] = []string{"get", "list", "watch"}
	}
	return r
}

// VolcanoWebhookRules is Volcano's own admission ClusterRole (its chart, spec webhook.md §4.4),
// which rbac.volcanoCompatible renders: namespaces only when /podgroups/mutate is enabled.
func VolcanoWebhookRules(paths []string) Rules {
	r := Rules{
		" configmaps": {"get", "list", "watch"},
		"admissionregistration.k8s.io mutatingwebhookconfigurations":   {"create", "get", "list", "update", "watch"},
		"admissionregistration.k8s.io validatingwebhookconfigurations": {"create", "get", "list", "update", "watch"},
		"certificates.k8s.io certificatesigningrequests":               {"create", "delete", "get", "list"},
		"certificates.k8s.io certificatesigningrequests/approval":      {"create", "update"},
		"scheduling.incubator.k8s.io queues":                           {"get", "list", "watch"},
		"scheduling.volcano.sh queues":                                 {"get", "list", "watch"},
		" services":                                                    {"get"},
		"scheduling.incubator.k8s.io podgroups":                        {"get", "list", "watch"},
		"scheduling.volcano.sh podgroups":                              {"get", "list", "watch"},
	}
	if slices.Contains(paths, "/podgroups/mutate") {
		r[" namespaces"] = []string{"get", "list", "watch"}
	}
	return r
}

// RuleMap flattens rules into Rules, failing on a resource granted by two rules, on wildcards,
// and on resourceNames or non-resource URLs (CheckWebhookRole handles resourceNames).
func RuleMap(t testing.TB, what string, rules []rbacv1.PolicyRule) Rules {
	t.Helper()
	out := Rules{}
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
				verbs := SortedCopy(r.Verbs)
				if slices.Contains(verbs, "*") || g == "*" || res == "*" {
					t.Errorf("%s: wildcard in rule %+v", what, r)
				}
				out[key] = verbs
			}
		}
	}
	return out
}

// CheckRules asserts got grants exactly want, verb for verb.
func CheckRules(t testing.TB, what string, got, want Rules) {
	t.Helper()
	for key, verbs := range want {
		if !slices.Equal(got[key], SortedCopy(verbs)) {
			t.Errorf("%s: %q verbs %v, want %v", what, key, got[key], SortedCopy(verbs))
		}
	}
	for key, verbs := range got {
		if _, ok := want[key]; !ok {
			t.Errorf("%s: %q granted %v, which is not asked for", what, key, verbs)
		}
	}
}

// CheckWebhookRole checks our webhook's ClusterRole: get and update on exactly the webhook
// configurations of the enabled paths (by resourceNames, no rule for a kind with none: an
// empty resourceNames would grant all), and WebhookRules(paths) for the rest.
func CheckWebhookRole(t testing.TB, role rbacv1.ClusterRole, paths []string) {
	t.Helper()
	var rest []rbacv1.PolicyRule
	got := map[string][]string{}
	for _, rule := range role.Rules {
		if !slices.Contains(rule.APIGroups, "admissionregistration.k8s.io") {
			rest = append(rest, rule)
			continue
		}
		if len(rule.ResourceNames) == 0 {
			t.Errorf("ClusterRole %s grants %v on %v without resourceNames: that is every configuration in the cluster",
				role.Name, rule.Verbs, rule.Resources)
		}
		if !slices.Equal(SortedCopy(rule.Verbs), []string{"get", "update"}) {
			t.Errorf("ClusterRole %s grants %v on %v, want exactly get and update", role.Name, rule.Verbs, rule.Resources)
		}
		for _, res := range rule.Resources {
			got[res] = append(got[res], rule.ResourceNames...)
		}
	}
	for kind, resource := range map[string]string{WebhookMutating: "mutatingwebhookconfigurations", WebhookValidating: "validatingwebhookconfigurations"} {
		var want []string
		for _, reg := range RegistrationsFor(t, paths) {
			if reg.Kind == kind {
				want = append(want, reg.ConfigName())
			}
		}
		if !slices.Equal(SortedCopy(got[resource]), SortedCopy(want)) {
			t.Errorf("ClusterRole %s resourceNames for %s are %v, want %v", role.Name, resource, SortedCopy(got[resource]), SortedCopy(want))
		}
		delete(got, resource)
	}
	if len(got) != 0 {
		t.Errorf("ClusterRole %s grants admissionregistration.k8s.io resources %v", role.Name, SortedKeys(got))
	}
	CheckRules(t, "ClusterRole "+role.Name, RuleMap(t, "ClusterRole "+role.Name, rest), WebhookRules(paths))
}

// CheckControllerRBAC checks the controller-manager's ServiceAccount, ClusterRole and binding,
// and the leader-election Role and binding in ns, against want (ControllerClusterRules for
// ours).
func CheckControllerRBAC(t testing.TB, objs []ManifestObject, ns string, want Rules) {
	t.Helper()
	var role rbacv1.ClusterRole
	FindManifest(t, objs, "ClusterRole", "volcano-controllers").Into(t, &role)
	CheckRules(t, "ClusterRole volcano-controllers", RuleMap(t, "ClusterRole", role.Rules), want)
	var lease rbacv1.Role
	FindManifest(t, objs, "Role", "volcano-controllers-leader-election").Into(t, &lease)
	if lease.Namespace != ns {
		t.Errorf("leader-election Role in %q, want %s", lease.Namespace, ns)
	}
	CheckRules(t, "Role volcano-controllers-leader-election", RuleMap(t, "Role", lease.Rules), ControllerLeaseRules)

	var crb rbacv1.ClusterRoleBinding
	FindManifest(t, objs, "ClusterRoleBinding", "volcano-controllers-role").Into(t, &crb)
	var rb rbacv1.RoleBinding
	FindManifest(t, objs, "RoleBinding", "volcano-controllers-leader-election").Into(t, &rb)
	CheckBinding(t, "ClusterRoleBinding", crb.RoleRef, crb.Subjects, "ClusterRole", "volcano-controllers", ns, "volcano-controllers")
	CheckBinding(t, "RoleBinding", rb.RoleRef, rb.Subjects, "Role", "volcano-controllers-leader-election", ns, "volcano-controllers")
	FindManifest(t, objs, "ServiceAccount", "volcano-controllers")
}

// CheckBinding asserts a binding refers to role kind/name and binds exactly ServiceAccount
// ns/sa.
func CheckBinding(t testing.TB, what string, ref rbacv1.RoleRef, subjects []rbacv1.Subject, kind, name, ns, sa string) {
	t.Helper()
	if ref.Kind != kind || ref.Name != name {
		t.Errorf("%s roleRef %+v, want %s %s", what, ref, kind, name)
	}
	if len(subjects) != 1 || subjects[0].Kind != "ServiceAccount" || subjects[0].Name != sa || subjects[0].Namespace != ns {
		t.Errorf("%s subjects %+v, want ServiceAccount %s/%s", what, subjects, ns, sa)
	}
}

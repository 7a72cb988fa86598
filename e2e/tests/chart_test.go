package tests

// The Helm chart charts/vc-cpp, rendered with `helm template` (no cluster needed for most of
// these) and checked for what a user relies on: Volcano's object names and selectors, the
// admissions registered equal to the ones served and to the role's resourceNames, least
// privilege verb for verb, images, probes and shutdown timing, the serving certificate and its
// caBundle, nothing the chart must not own (Namespaces, Queues), Volcano's own binaries with
// values-volcano.yaml, and the kustomize bases in manifests/ as generated from it.

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"

	"vc-cpp.local/e2e/tests/framework"
)

// chNamespace is not volcano-system, so a namespace written into a template shows up.
const (
	chNamespace = "vc-chart-test"
	chRelease   = "vc-cpp"
)

func chChart(t *testing.T) string { return filepath.Join(mfRepoRoot(t), "charts", "vc-cpp") }

// chRender renders the chart into chNamespace with extra helm arguments.
func chRender(t *testing.T, args ...string) ([]framework.ManifestObject, string) {
	t.Helper()
	return framework.RenderHelmChart(t, chChart(t), chRelease, chNamespace, args...)
}

// chValuesFile writes values YAML to a file for --values (commas in --set need escaping).
func chValuesFile(t *testing.T, yaml string) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "values.yaml")
	mfWriteFile(t, f, []byte(yaml))
	return f
}

func chDeployment(t *testing.T, objs []framework.ManifestObject, name string) appsv1.Deployment {
	t.Helper()
	var d appsv1.Deployment
	framework.FindManifest(t, objs, "Deployment", name).Into(t, &d)
	return d
}

// chReadYAML decodes a YAML file of the chart into v.
func chReadYAML(t *testing.T, name string, v interface{}) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(chChart(t), name))
	if err != nil {
		t.Fatalf("%v", err)
	}
	js, err := utilyaml.ToJSON(raw)
	if err == nil {
		err = json.Unmarshal(js, v)
	}
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// chAppVersion is the chart's appVersion, the default tag of our images.
func chAppVersion(t *testing.T) string {
	t.Helper()
	var meta struct {
		AppVersion string `json:"appVersion"`
	}
	if chReadYAML(t, "Chart.yaml", &meta); meta.AppVersion == "" {
		t.Fatalf("Chart.yaml has no appVersion")
	}
	return meta.AppVersion
}

// chCheckOwnsOnlyItsObjects: the chart never creates a Namespace (the release namespace is the
// user's), never a CRD among its templates (crds/ installs them once and uninstall keeps them)
// and never a Queue Helm would delete on uninstall; every namespaced object is in the release
// namespace and carries the part-of label.
func chCheckOwnsOnlyItsObjects(t *testing.T, objs []framework.ManifestObject, raw string) {
	t.Helper()
	if strings.Contains(raw, "volcano-system") {
		t.Errorf("the render into %s names volcano-system somewhere: a namespace is hard-coded", chNamespace)
	}
	clusterScoped := map[string]bool{"ClusterRole": true, "ClusterRoleBinding": true,
		framework.WebhookMutating: true, framework.WebhookValidating: true}
	for _, o := range objs {
		switch {
		case o.GetKind() == "Namespace" || o.GetKind() == "CustomResourceDefinition":
			t.Errorf("the chart renders %s %s; it must not own it", o.GetKind(), o.GetName())
		case o.GetKind() == "Queue" && o.GetAnnotations()["helm.sh/resource-policy"] != "keep":
			t.Errorf("Queue %s without helm.sh/resource-policy: keep; helm uninstall would delete it", o.GetName())
		case !clusterScoped[o.GetKind()] && o.GetNamespace() != chNamespace:
			t.Errorf("%s %s is in namespace %q, want the release namespace %s", o.GetKind(), o.GetName(), o.GetNamespace(), chNamespace)
		}
		if o.GetLabels()["app.kubernetes.io/part-of"] != "vc-cpp" {
			t.Errorf("%s %s lacks label app.kubernetes.io/part-of=vc-cpp", o.GetKind(), o.GetName())
		}
	}
}

// TestChartLint: `helm lint --strict` passes with the default values and with each
// alternative this file renders.
func TestChartLint(t *testing.T) {
	chart := chChart(t)
	for _, args := range [][]string{nil, {"--values", filepath.Join(chart, "values-volcano.yaml")},
		{"--set", "certificate.source=cert-manager"}, {"--set", "certificate.source=existing"}} {
		framework.RunTool(t, framework.Helm(t), append([]string{"lint", "--strict", chart}, args...)...)
	}
}

// TestChartDefaults: one `helm install` with the default values is Volcano's stack under
// Volcano's names: our webhook with Volcano's seven admissions, a certificate made at install
// whose CA is every configuration's caBundle, our controller-manager, Volcano's scheduler, each
// under its own least-privilege identity.
func TestChartDefaults(t *testing.T) {
	objs, raw := chRender(t)
	chCheckOwnsOnlyItsObjects(t, objs, raw)

	var secret corev1.Secret
	framework.FindManifest(t, objs, "Secret", framework.WebhookSecret).Into(t, &secret)
	if secret.Type != corev1.SecretTypeTLS {
		t.Errorf("Secret type %q, want %s", secret.Type, corev1.SecretTypeTLS)
	}
	leaf := framework.CheckServingCertificate(t, secret.Data["tls.crt"], secret.Data["tls.key"], secret.Data["ca.crt"], chNamespace, "chart")
	chCheckKeyAlgorithm(t, leaf, secret.Data["ca.crt"], x509.ECDSA)
	framework.CheckAdmissionAgreement(t, objs, chNamespace, framework.VolcanoDefaultAdmissions, secret.Data["ca.crt"], false)

	version := chAppVersion(t)
	web := chDeployment(t, objs, "volcano-admission")
	framework.CheckWebhookDeployment(t, web, framework.WebhookImplOurs)
	ctl := chDeployment(t, objs, "volcano-controllers")
	framework.CheckControllersDeployment(t, ctl, chNamespace)
	framework.CheckControllerRBAC(t, objs, chNamespace, framework.ControllerClusterRules)
	sched := chDeployment(t, objs, "volcano-scheduler")
	for d, image := range map[*appsv1.Deployment]string{
		&web:   "docker.io/vc-cpp/vc-webhook-manager:" + version,
		&ctl:   "docker.io/vc-cpp/vc-controller-manager:" + version,
		&sched: "docker.io/volcanosh/vc-scheduler:v1.15.1",
	} {
		pod := d.Spec.Template.Spec
		if got := pod.Containers[0].Image; got != image {
			t.Errorf("Deployment %s image %q, want %q", d.Name, got, image)
		}
		if pod.PriorityClassName != "system-cluster-critical" {
			t.Errorf("Deployment %s priorityClassName %q, want system-cluster-critical", d.Name, pod.PriorityClassName)
		}
	}
	if got := framework.DeploymentFlag(t, web, "--log-format"); got != "text" {
		t.Errorf("webhook --log-format=%s, want text", got)
	}
	if preStop, grace := framework.CheckWebhookShutdown(t, web); preStop != 5 || grace != 40 {
		t.Errorf("webhook preStop sleep %d s, grace period %d s; want 5 and 40 (5 + 30 + 5)", preStop, grace)
	}

	for name, app := range map[string]string{"volcano-admission": "volcano-admission", "volcano-controllers": "volcano-controller"} {
		var pdb policyv1.PodDisruptionBudget
		framework.FindManifest(t, objs, "PodDisruptionBudget", name).Into(t, &pdb)
		if pdb.Spec.MinAvailable == nil || pdb.Spec.MinAvailable.IntValue() != 1 || pdb.Spec.Selector == nil ||
			!reflect.DeepEqual(pdb.Spec.Selector.MatchLabels, map[string]string{"app": app}) {
			t.Errorf("PodDisruptionBudget %s %s, want minAvailable 1 for app=%s", name, framework.ToJSON(pdb.Spec), app)
		}
	}
	var svc corev1.Service
	framework.FindManifest(t, objs, "Service", "volcano-controllers-service").Into(t, &svc)
	framework.CheckMetricsService(t, svc, 8081, "volcano-controller")
	if conf := chControllerConf(t, objs); conf != "" {
		t.Errorf("default volcano-controller.conf %q, want empty (network topology discovery off)", conf)
	}
	chCheckScheduler(t, objs, sched)
}

// chControllerConf: volcano-controller.conf of the rendered ConfigMap volcano-controller-configmap,
// which the controller-manager finds by Volcano's name (release "volcano", its own namespace).
func chControllerConf(t *testing.T, objs []framework.ManifestObject) string {
	t.Helper()
	var cm corev1.ConfigMap
	framework.FindManifest(t, objs, "ConfigMap", "volcano-controller-configmap").Into(t, &cm)
	conf, ok := cm.Data["volcano-controller.conf"]
	if !ok {
		t.Errorf("ConfigMap volcano-controller-configmap has no key volcano-controller.conf: %v", cm.Data)
	}
	return conf
}

// TestChartControllerConfigOverride: custom.controller_config_override, as a map or as a YAML
// string, becomes volcano-controller.conf holding the same document.
func TestChartControllerConfigOverride(t *testing.T) {
	want := map[string]interface{}{"networkTopologyDiscovery": []interface{}{map[string]interface{}{
		"source": "label", "enabled": true,
		"config": map[string]interface{}{"networkTopologyTypes": map[string]interface{}{
			"topologyA2": []interface{}{map[string]interface{}{"nodeLabel": "volcano.sh/hypernode"}}}}}}}
	asMap := "custom:\n  controller_config_override:\n    networkTopologyDiscovery:\n      - source: label\n        enabled: true\n" +
		"        config:\n          networkTopologyTypes:\n            topologyA2:\n              - nodeLabel: volcano.sh/hypernode\n"
	asString := "custom:\n  controller_config_override: |\n    networkTopologyDiscovery:\n    - source: label\n      enabled: true\n" +
		"      config:\n        networkTopologyTypes:\n          topologyA2:\n          - nodeLabel: volcano.sh/hypernode\n"
	for name, values := range map[string]string{"map": asMap, "string": asString} {
		objs, _ := chRender(t, "--values", chValuesFile(t, values))
		conf := chControllerConf(t, objs)
		var got map[string]interface{}
		if err := utilyaml.Unmarshal([]byte(conf), &got); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("override as a %s: volcano-controller.conf %q (%v), want %v", name, conf, err, want)
		}
	}
}

// chCheckScheduler: Volcano's scheduler as Volcano's chart installs it (names, selector,
// identity, Volcano's default configuration, metrics Service), under leader election here.
func chCheckScheduler(t *testing.T, objs []framework.ManifestObject, d appsv1.Deployment) {
	t.Helper()
	if d.Spec.Selector == nil || !reflect.DeepEqual(d.Spec.Selector.MatchLabels, map[string]string{"app": "volcano-scheduler"}) {
		t.Errorf("scheduler selector %s, want app=volcano-scheduler", framework.ToJSON(d.Spec.Selector))
	}
	pod := d.Spec.Template.Spec
	if pod.ServiceAccountName != "volcano-scheduler" {
		t.Errorf("scheduler serviceAccountName %q", pod.ServiceAccountName)
	}
	for flag, want := range map[string]string{"--leader-elect": "true", "--leader-elect-resource-namespace": chNamespace,
		"--enable-healthz": "true", "--enable-metrics": "true", "--listen-address": ":8080"} {
		if got := framework.DeploymentFlag(t, d, flag); got != want {
			t.Errorf("scheduler %s=%q, want %q", flag, got, want)
		}
	}
	conf := framework.DeploymentFlag(t, d, "--scheduler-conf")
	mounted := false
	for _, m := range pod.Containers[0].VolumeMounts {
		for _, v := range pod.Volumes {
			if v.Name == m.Name && v.ConfigMap != nil && v.ConfigMap.Name == "volcano-scheduler-configmap" && m.MountPath == filepath.Dir(conf) {
				mounted = true
			}
		}
	}
	if !mounted {
		t.Errorf("--scheduler-conf=%s is not in the mounted ConfigMap volcano-scheduler-configmap", conf)
	}
	var cm corev1.ConfigMap
	framework.FindManifest(t, objs, "ConfigMap", "volcano-scheduler-configmap").Into(t, &cm)
	got := cm.Data[filepath.Base(conf)]
	// Volcano's default scheduler.conf (its chart's config/volcano-scheduler.conf, v1.15.1).
	for _, want := range []string{`actions: "enqueue, allocate, backfill"`, "name: priority", "name: gang", "name: conformance",
		"name: overcommit", "name: drf", "name: predicates", "name: proportion", "name: nodeorder", "name: binpack"} {
		if !strings.Contains(got, want) {
			t.Errorf("scheduler configuration lacks %q:\n%s", want, got)
		}
	}
	var crb rbacv1.ClusterRoleBinding
	framework.FindManifest(t, objs, "ClusterRoleBinding", "volcano-scheduler-role").Into(t, &crb)
	framework.CheckBinding(t, "scheduler ClusterRoleBinding", crb.RoleRef, crb.Subjects, "ClusterRole", "volcano-scheduler", chNamespace, "volcano-scheduler")
	var role rbacv1.ClusterRole
	framework.FindManifest(t, objs, "ClusterRole", "volcano-scheduler").Into(t, &role)
	rules := framework.RuleMap(t, "ClusterRole volcano-scheduler", role.Rules)
	for key, verbs := range map[string][]string{" pods/binding": {"create"}, "scheduling.volcano.sh podgroups": {"list", "update", "watch"},
		"scheduling.volcano.sh queues": {"create", "delete", "get", "list", "update", "watch"}, "coordination.k8s.io leases": {"create", "get", "update", "watch"}} {
		if !slices.Equal(rules[key], verbs) {
			t.Errorf("scheduler ClusterRole %q verbs %v, want Volcano's %v", key, rules[key], verbs)
		}
	}
	var svc corev1.Service
	framework.FindManifest(t, objs, "Service", "volcano-scheduler-service").Into(t, &svc)
	framework.CheckMetricsService(t, svc, 8080, "volcano-scheduler")
}

// TestChartPodAdmissionsOptIn: adding the pod paths to Volcano's seven registers and serves
// exactly /pods/mutate and /pods/validate more, and lets the role write exactly their
// caBundles; /podgroups/mutate brings the namespace GET it needs.
func TestChartPodAdmissionsOptIn(t *testing.T) {
	defaults, _ := chRender(t)
	paths := append(slices.Clone(framework.VolcanoDefaultAdmissions), "/pods/mutate", "/pods/validate")
	values := chValuesFile(t, "custom:\n  enabled_admissions: \""+strings.Join(paths, ",")+"\"\n")
	objs, _ := chRender(t, "--values", values)
	var secret corev1.Secret
	framework.FindManifest(t, objs, "Secret", framework.WebhookSecret).Into(t, &secret)
	framework.CheckAdmissionAgreement(t, objs, chNamespace, paths, secret.Data["ca.crt"], false)
	var added []string
	for _, kind := range []string{framework.WebhookMutating, framework.WebhookValidating} {
		before := framework.ManifestsOfKind(defaults, kind)
		for name := range framework.ManifestsOfKind(objs, kind) {
			if _, ok := before[name]; !ok {
				added = append(added, name)
			}
		}
	}
	if want := []string{"volcano-admission-service-pods-mutate", "volcano-admission-service-pods-validate"}; !slices.Equal(framework.SortedCopy(added), want) {
		t.Errorf("enabling the pod admissions added configurations %v, want exactly %v", framework.SortedCopy(added), want)
	}

	all := chValuesFile(t, "custom:\n  enabled_admissions: \" "+strings.Join(framework.AllAdmissionPaths(), " , ")+" \"\n")
	objs, _ = chRender(t, "--values", all)
	framework.FindManifest(t, objs, "Secret", framework.WebhookSecret).Into(t, &secret)
	framework.CheckAdmissionAgreement(t, objs, chNamespace, framework.AllAdmissionPaths(), secret.Data["ca.crt"], false)
}

// TestChartVolcanoImages: values-volcano.yaml installs Volcano's own webhook and
// controller-manager with what they need (Volcano's roles, probes they answer, only flags they
// know), under the same names, selectors, Services and Secret, so `helm upgrade` switches in
// place either way.
func TestChartVolcanoImages(t *testing.T) {
	ours, _ := chRender(t)
	objs, raw := chRender(t, "--values", filepath.Join(chChart(t), "values-volcano.yaml"))
	chCheckOwnsOnlyItsObjects(t, objs, raw)
	web := chDeployment(t, objs, "volcano-admission")
	ctl := chDeployment(t, objs, "volcano-controllers")
	for d, image := range map[*appsv1.Deployment]string{&web: "docker.io/volcanosh/vc-webhook-manager:v1.15.1",
		&ctl: "docker.io/volcanosh/vc-controller-manager:v1.15.1"} {
		if got := d.Spec.Template.Spec.Containers[0].Image; got != image {
			t.Errorf("Deployment %s image %q, want %q", d.Name, got, image)
		}
	}
	var secret corev1.Secret
	framework.FindManifest(t, objs, "Secret", framework.WebhookSecret).Into(t, &secret)
	framework.CheckAdmissionAgreement(t, objs, chNamespace, framework.VolcanoDefaultAdmissions, secret.Data["ca.crt"], true)
	framework.CheckWebhookDeployment(t, web, framework.WebhookImplVolcano)
	framework.CheckControllersDeployment(t, ctl, chNamespace)
	if len(web.Spec.Template.Annotations) != 0 {
		t.Errorf("webhook pods carry %v; Volcano's webhook serves no metrics", web.Spec.Template.Annotations)
	}
	chCheckOnlyFlags(t, web, chVolcanoWebhookFlags)
	chCheckOnlyFlags(t, ctl, chVolcanoControllerFlags)

	var role rbacv1.ClusterRole
	framework.FindManifest(t, objs, "ClusterRole", "volcano-admission").Into(t, &role)
	framework.CheckRules(t, "ClusterRole volcano-admission", framework.RuleMap(t, "ClusterRole", role.Rules),
		framework.VolcanoWebhookRules(framework.VolcanoDefaultAdmissions))
	framework.CheckControllerRBAC(t, objs, chNamespace, framework.VolcanoControllerClusterRules)

	// Same objects, selectors and Service ports as with our images: an upgrade changes pods,
	// never what points at them.
	if got, want := chInventory(t, objs), chInventory(t, ours); !reflect.DeepEqual(got, want) {
		t.Errorf("objects with Volcano's images differ from ours in names, selectors or ports:\n volcano %v\n ours    %v", got, want)
	}
}

// chInventory maps kind/name to what must not change between implementations: a Deployment's
// selector, a Service's selector and ports, nothing else for the rest.
func chInventory(t *testing.T, objs []framework.ManifestObject) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, o := range objs {
		key := o.GetKind() + "/" + o.GetName()
		switch o.GetKind() {
		case "Deployment":
			var d appsv1.Deployment
			o.Into(t, &d)
			out[key] = framework.ToJSON(d.Spec.Selector)
		case "Service":
			var s corev1.Service
			o.Into(t, &s)
			out[key] = framework.ToJSON(s.Spec.Selector) + framework.ToJSON(s.Spec.Ports)
		default:
			out[key] = ""
		}
	}
	return out
}

// Flags Volcano's binaries accept (spec webhook.md §4.1, spec controller-manager.md §1.2-§1.4,
// klog's): an unknown flag makes them exit at start-up.
var (
	chKlogFlags           = []string{"-v", "--v", "--vmodule", "--logtostderr", "--alsologtostderr", "--log-dir", "--log-file", "--stderrthreshold"}
	chVolcanoWebhookFlags = append(slices.Clone(chKlogFlags), "--master", "--kubeconfig", "--kube-api-qps", "--kube-api-burst",
		"--tls-cert-file", "--tls-private-key-file", "--ca-cert-file", "--listen-address", "--port", "--webhook-namespace",
		"--webhook-service-name", "--webhook-url", "--enabled-admission", "--scheduler-name", "--admission-conf",
		"--enable-healthz", "--healthz-address", "--graceful-shutdown-time", "--enable-queue-allocated-pods-check",
		"--max-queue-depth", "--enable-root-queue-protection", "--feature-gates")
	chVolcanoControllerFlags = append(slices.Clone(chKlogFlags), "--master", "--kubeconfig", "--ca-cert-file", "--tls-cert-file",
		"--tls-private-key-file", "--kube-api-qps", "--kube-api-burst", "--worker-threads", "--worker-threads-for-cronjob",
		"--scheduler-name", "--max-requeue-num", "--healthz-address", "--enable-healthz", "--enable-metrics", "--listen-address",
		"--inherit-owner-annotations", "--worker-threads-for-podgroup", "--worker-threads-for-gc", "--worker-threads-for-queue",
		"--controllers", "--feature-gates", "--leader-elect", "--leader-elect-lease-duration", "--leader-elect-renew-deadline",
		"--leader-elect-retry-period", "--leader-elect-resource-lock", "--leader-elect-resource-name",
		"--leader-elect-resource-namespace")
)

func chCheckOnlyFlags(t *testing.T, d appsv1.Deployment, known []string) {
	t.Helper()
	for _, a := range d.Spec.Template.Spec.Containers[0].Args {
		name, _, _ := strings.Cut(a, "=")
		if !slices.Contains(known, name) {
			t.Errorf("Deployment %s passes %s, which Volcano's binary does not know", d.Name, a)
		}
	}
}

// chCheckKeyAlgorithm: the serving certificate and its CA (the first of caPEM) have keys of
// algorithm want, P-256 when ECDSA.
func chCheckKeyAlgorithm(t *testing.T, leaf *x509.Certificate, caPEM []byte, want x509.PublicKeyAlgorithm) {
	t.Helper()
	for name, c := range map[string]*x509.Certificate{"serving certificate": leaf, "CA": framework.PEMCertificates(t, caPEM)[0]} {
		if c.PublicKeyAlgorithm != want {
			t.Errorf("%s key is %s, want %s", name, c.PublicKeyAlgorithm, want)
			continue
		}
		if k, ok := c.PublicKey.(*ecdsa.PublicKey); ok && k.Curve != elliptic.P256() {
			t.Errorf("%s key is on curve %s, want P-256", name, k.Curve.Params().Name)
		}
		if k, ok := c.PublicKey.(*rsa.PublicKey); ok && k.N.BitLen() != 2048 {
			t.Errorf("%s key is RSA %d, want 2048", name, k.N.BitLen())
		}
	}
}

// TestChartRSAKey: certificate.keyAlgorithm=rsa makes RSA 2048 certificates, for clients or
// policies that need RSA.
func TestChartRSAKey(t *testing.T) {
	objs, _ := chRender(t, "--set", "certificate.keyAlgorithm=rsa")
	var secret corev1.Secret
	framework.FindManifest(t, objs, "Secret", framework.WebhookSecret).Into(t, &secret)
	leaf := framework.CheckServingCertificate(t, secret.Data["tls.crt"], secret.Data["tls.key"], secret.Data["ca.crt"], chNamespace, "chart rsa")
	chCheckKeyAlgorithm(t, leaf, secret.Data["ca.crt"], x509.RSA)
}

// chCertManagerKeys: "<algorithm> <size> [key encipherment]" of each cert-manager Certificate.
func chCertManagerKeys(objs []framework.ManifestObject) map[string]string {
	out := map[string]string{}
	for _, o := range objs {
		if o.GetAPIVersion() != "cert-manager.io/v1" || o.GetKind() != "Certificate" {
			continue
		}
		alg, _, _ := unstructured.NestedString(o.Object, "spec", "privateKey", "algorithm")
		size, _, _ := unstructured.NestedInt64(o.Object, "spec", "privateKey", "size")
		usages, _, _ := unstructured.NestedStringSlice(o.Object, "spec", "usages")
		out[o.GetName()] = fmt.Sprintf("%s %d", alg, size)
		if slices.Contains(usages, "key encipherment") {
			out[o.GetName()] += " key encipherment"
		}
	}
	return out
}

// TestChartCertManager: certificate.source=cert-manager renders the issuers and certificates
// instead of a Secret and caBundles, and no inject-ca-from annotation (the webhook writes the
// caBundles, keeping the previous CA through a rotation); their keys follow
// certificate.keyAlgorithm (key encipherment, RSA key transport, only with RSA).
func TestChartCertManager(t *testing.T) {
	objs, raw := chRender(t, "--set", "certificate.source=cert-manager")
	chCheckOwnsOnlyItsObjects(t, objs, raw)
	if s := framework.ManifestsOfKind(objs, "Secret"); len(s) != 0 {
		t.Errorf("renders Secrets %v; cert-manager writes the webhook's", framework.SortedKeys(s))
	}
	rest := framework.CheckCertManagerIssuance(t, objs, chNamespace)
	framework.CheckAdmissionAgreement(t, rest, chNamespace, framework.VolcanoDefaultAdmissions, nil, false)
	want := map[string]string{"volcano-admission-ca": "ECDSA 256", "volcano-admission-serving": "ECDSA 256"}
	if got := chCertManagerKeys(objs); !maps.Equal(got, want) {
		t.Errorf("Certificate keys %v, want %v", got, want)
	}
	rsaObjs, _ := chRender(t, "--set", "certificate.source=cert-manager", "--set", "certificate.keyAlgorithm=rsa")
	want = map[string]string{"volcano-admission-ca": "RSA 2048", "volcano-admission-serving": "RSA 2048 key encipherment"}
	if got := chCertManagerKeys(rsaObjs); !maps.Equal(got, want) {
		t.Errorf("with keyAlgorithm=rsa, Certificate keys %v, want %v", got, want)
	}
}

// TestChartExistingSecret: certificate.source=existing renders neither a Secret nor a caBundle
// (the webhook writes its CA there at start-up) nor anything of cert-manager's.
func TestChartExistingSecret(t *testing.T) {
	objs, raw := chRender(t, "--set", "certificate.source=existing")
	chCheckOwnsOnlyItsObjects(t, objs, raw)
	for _, o := range objs {
		if o.GetKind() == "Secret" || strings.HasPrefix(o.GetAPIVersion(), "cert-manager.io/") {
			t.Errorf("renders %s %s with certificate.source=existing", o.GetKind(), o.GetName())
		}
	}
	framework.CheckAdmissionAgreement(t, objs, chNamespace, framework.VolcanoDefaultAdmissions, nil, false)
}

// TestChartRejectsWhatCannotWork: values that would install something broken fail the render
// with a message naming the value.
func TestChartRejectsWhatCannotWork(t *testing.T) {
	helm, chart := framework.Helm(t), chChart(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--values", chValuesFile(t, "custom:\n  enabled_admissions: /jobs/mutate,/nope/validate\n")}, `unknown admission path "/nope/validate"`},
		{[]string{"--set", "admission.terminationGracePeriodSeconds=35"}, "admission.terminationGracePeriodSeconds=35 must exceed"},
		{[]string{"--set", "implementation=volcano"}, "rbac.volcanoCompatible=true"},
		{[]string{"--set", "implementation=go"}, "implementation must be"},
		{[]string{"--set", "custom.leader_elect_enable=false"}, "custom.controller_replicas > 1 needs custom.leader_elect_enable"},
		{[]string{"--set", "certificate.source=vault"}, "certificate.source must be"},
		{[]string{"--set", "certificate.keyAlgorithm=dsa"}, "certificate.keyAlgorithm must be ecdsa or rsa"},
		{[]string{"--set", "logFormat=xml"}, "logFormat must be"},
	} {
		_, stderr, err := framework.TryTool(helm, append([]string{"template", chRelease, chart, "--namespace", chNamespace}, c.args...)...)
		if err == nil || !strings.Contains(stderr, c.want) {
			t.Errorf("helm template %v: err %v, stderr %q; want a failure saying %q", c.args, err, stderr, c.want)
		}
	}
}

// TestChartShutdownTiming: the grace period follows the preStop sleep and
// --graceful-shutdown-time unless set, and a preStop sleep of 0 leaves no hook.
func TestChartShutdownTiming(t *testing.T) {
	for _, c := range []struct {
		set            string
		preStop, grace int64
	}{
		{"admission.gracefulShutdownSeconds=60", 5, 70},
		{"admission.terminationGracePeriodSeconds=100", 5, 100},
		{"admission.preStopSleepSeconds=0", 0, 35},
	} {
		objs, _ := chRender(t, "--set", c.set)
		d := chDeployment(t, objs, "volcano-admission")
		lc := d.Spec.Template.Spec.Containers[0].Lifecycle
		var preStop int64
		if lc != nil && lc.PreStop != nil && lc.PreStop.Sleep != nil {
			preStop = lc.PreStop.Sleep.Seconds
		}
		if grace := framework.Deref(d.Spec.Template.Spec.TerminationGracePeriodSeconds); preStop != c.preStop || grace != c.grace {
			t.Errorf("--set %s: preStop sleep %d s, grace %d s; want %d and %d", c.set, preStop, grace, c.preStop, c.grace)
		}
		if c.preStop == 0 && lc != nil {
			t.Errorf("--set %s: lifecycle %s, want none", c.set, framework.ToJSON(lc))
		}
	}
	objs, _ := chRender(t, "--set", "admission.gracefulShutdownSeconds=60")
	if got := framework.DeploymentFlag(t, chDeployment(t, objs, "volcano-admission"), "--graceful-shutdown-time"); got != "60s" {
		t.Errorf("--graceful-shutdown-time=%s, want 60s", got)
	}
}

// TestChartLeaderElectionOff: without leader election one replica each, rolled out by
// Recreate so two active controller-managers or schedulers never overlap, and no lease Role.
func TestChartLeaderElectionOff(t *testing.T) {
	objs, _ := chRender(t, "--set", "custom.leader_elect_enable=false,custom.controller_replicas=1")
	for _, name := range []string{"volcano-controllers", "volcano-scheduler"} {
		d := chDeployment(t, objs, name)
		if d.Spec.Strategy.Type != appsv1.RecreateDeploymentStrategyType {
			t.Errorf("Deployment %s strategy %s, want Recreate", name, d.Spec.Strategy.Type)
		}
		if got := framework.DeploymentFlag(t, d, "--leader-elect"); got != "false" {
			t.Errorf("Deployment %s --leader-elect=%s, want false", name, got)
		}
		if _, ok := framework.LookupDeploymentFlag(d, "--leader-elect-resource-namespace"); ok {
			t.Errorf("Deployment %s names a lease namespace without leader election", name)
		}
	}
	if roles := framework.ManifestsOfKind(objs, "Role"); len(roles) != 0 {
		t.Errorf("Roles %v rendered without leader election", framework.SortedKeys(roles))
	}
	if pdbs := framework.ManifestsOfKind(objs, "PodDisruptionBudget"); len(pdbs) != 1 {
		t.Errorf("PodDisruptionBudgets %v, want only the webhook's (one controller replica)", framework.SortedKeys(pdbs))
	}
}

// TestChartJobflowOptIns: custom.controller_jobflow_probes and custom.controller_jobflow_patches
// pass --jobflow-probes=true and --jobflow-patches=true to our controller-manager only; by
// default neither is passed (probes and patches ignored, as in Volcano).
func TestChartJobflowOptIns(t *testing.T) {
	flags := []string{"--jobflow-probes", "--jobflow-patches"}
	objs, _ := chRender(t)
	for _, flag := range flags {
		if got, ok := framework.LookupDeploymentFlag(chDeployment(t, objs, "volcano-controllers"), flag); ok {
			t.Errorf("default chart passes %s=%s, want no flag", flag, got)
		}
	}
	set := "custom.controller_jobflow_probes=true,custom.controller_jobflow_patches=true"
	objs, _ = chRender(t, "--set", set)
	for _, flag := range flags {
		if got := framework.DeploymentFlag(t, chDeployment(t, objs, "volcano-controllers"), flag); got != "true" {
			t.Errorf("%s=%s, want true", flag, got)
		}
	}
	objs, _ = chRender(t, "--values", filepath.Join(chChart(t), "values-volcano.yaml"), "--set", set)
	chCheckOnlyFlags(t, chDeployment(t, objs, "volcano-controllers"), chVolcanoControllerFlags)
}

// TestChartComponentsAndPlacement: each component can be left out, and Volcano's placement and
// label values reach the pods (a component's own value before default_*) without touching the
// selectors.
func TestChartComponentsAndPlacement(t *testing.T) {
	objs, _ := chRender(t, "--set", "custom.admission_enable=false,custom.scheduler_enable=false")
	for _, o := range objs {
		if strings.HasPrefix(o.GetName(), "volcano-admission") || strings.HasPrefix(o.GetName(), "volcano-scheduler") ||
			o.GetKind() == framework.WebhookMutating || o.GetKind() == framework.WebhookValidating {
			t.Errorf("%s %s rendered with the webhook and the scheduler disabled", o.GetKind(), o.GetName())
		}
	}
	chDeployment(t, objs, "volcano-controllers")

	values := chValuesFile(t, `custom:
  default_tolerations: [{key: batch, operator: Exists, effect: NoSchedule}]
  scheduler_tolerations: [{key: sched, operator: Exists, effect: NoSchedule}]
  default_ns: {pool: system}
  common_labels: {team: platform}
  admission_podLabels: {tier: admission}
`)
	objs, _ = chRender(t, "--values", values)
	for _, o := range objs {
		if o.GetLabels()["team"] != "platform" {
			t.Errorf("%s %s lacks the common label team=platform", o.GetKind(), o.GetName())
		}
	}
	for name, toleration := range map[string]string{"volcano-admission": "batch", "volcano-controllers": "batch", "volcano-scheduler": "sched"} {
		d := chDeployment(t, objs, name)
		pod := d.Spec.Template.Spec
		if len(pod.Tolerations) != 1 || pod.Tolerations[0].Key != toleration || pod.NodeSelector["pool"] != "system" {
			t.Errorf("Deployment %s tolerations %s nodeSelector %v, want %s and pool=system", name, framework.ToJSON(pod.Tolerations), pod.NodeSelector, toleration)
		}
		if len(d.Spec.Selector.MatchLabels) != 1 {
			t.Errorf("Deployment %s selector %v changed with labels", name, d.Spec.Selector.MatchLabels)
		}
	}
	if got := chDeployment(t, objs, "volcano-admission").Spec.Template.Labels["tier"]; got != "admission" {
		t.Errorf("webhook pod label tier=%q, want admission", got)
	}
}

// TestChartValuesDocumented: every value of values.yaml is named in the chart's README.
func TestChartValuesDocumented(t *testing.T) {
	var values map[string]interface{}
	chReadYAML(t, "values.yaml", &values)
	readme, err := os.ReadFile(filepath.Join(chChart(t), "README.md"))
	if err != nil {
		t.Fatalf("%v", err)
	}
	var walk func(prefix string, v interface{})
	walk = func(prefix string, v interface{}) {
		m, ok := v.(map[string]interface{})
		// A map with a value of its own (resources, certManager) is documented as a whole.
		if !ok || prefix == "custom.admission_resources" || prefix == "custom.controller_resources" || prefix == "custom.scheduler_resources" {
			if !bytes.Contains(readme, []byte("`"+prefix+"`")) {
				t.Errorf("charts/vc-cpp/README.md does not document `%s`", prefix)
			}
			return
		}
		for k, child := range m {
			walk(strings.TrimPrefix(prefix+"."+k, "."), child)
		}
	}
	walk("", values)
}

// TestChartGeneratesManifests: the kustomize bases under manifests/ are what `make manifests`
// renders from the chart now (byte for byte), and `kubectl kustomize` of each base yields the
// chart's objects unchanged (the hand-written Namespace and Queues aside).
func TestChartGeneratesManifests(t *testing.T) {
	root := mfRepoRoot(t)
	out := t.TempDir()
	cmd := exec.Command(filepath.Join(root, "manifests", "generate.sh"), out)
	cmd.Env = append(os.Environ(), "HELM="+framework.Helm(t))
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("manifests/generate.sh: %v\n%s", err, msg)
	}
	generated := map[string]bool{}
	err := filepath.WalkDir(out, func(path string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(out, path)
		generated[rel] = true
		want, _ := os.ReadFile(path)
		got, err := os.ReadFile(filepath.Join(root, "manifests", rel))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("manifests/%s differs from what make manifests renders from the chart (%v): run make manifests", rel, err)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("%v", err)
	}
	header := regexp.MustCompile(`\A# GENERATED by manifests/generate.sh`)
	err = filepath.WalkDir(filepath.Join(root, "manifests"), func(path string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(filepath.Join(root, "manifests"), path)
		if data, _ := os.ReadFile(path); header.Match(data) && !generated[rel] {
			t.Errorf("manifests/%s says it is generated, but make manifests no longer renders it: delete it", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("%v", err)
	}

	values := filepath.Join(root, "manifests", "values.yaml")
	chart, _ := framework.RenderHelmChart(t, chChart(t), chRelease, mfNamespace, "--values", values)
	certManager, _ := framework.RenderHelmChart(t, chChart(t), chRelease, mfNamespace, "--values", values, "--set", "certificate.source=cert-manager")
	// The controller-manager's objects are volcano-controllers* and volcano-controller-configmap.
	webhook := func(o framework.ManifestObject) bool {
		return !strings.HasPrefix(o.GetName(), "volcano-controller")
	}
	for _, c := range []struct {
		base  string
		chart []framework.ManifestObject
		keep  func(framework.ManifestObject) bool
	}{
		{"webhook", chart, webhook},
		{"controllers", chart, func(o framework.ManifestObject) bool { return !webhook(o) }},
		{"overlays/webhook-cert-manager", certManager, webhook},
	} {
		want := chCanonical(t, c.chart, c.keep)
		got := chCanonical(t, framework.RenderKustomize(t, filepath.Join(root, "manifests", c.base)),
			func(o framework.ManifestObject) bool { return o.GetKind() != "Namespace" && o.GetKind() != "Queue" })
		for key, js := range want {
			if got[key] != js {
				t.Errorf("kubectl kustomize manifests/%s: %s differs from the chart's\n kustomize %s\n chart     %s", c.base, key, got[key], js)
			}
		}
		for key := range got {
			if _, ok := want[key]; !ok {
				t.Errorf("kubectl kustomize manifests/%s renders %s, which the chart does not", c.base, key)
			}
		}
	}
}

// chCanonical maps kind/name to the object's JSON (keys sorted) for the objects keep accepts.
func chCanonical(t *testing.T, objs []framework.ManifestObject, keep func(framework.ManifestObject) bool) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, o := range objs {
		if keep(o) {
			out[o.GetKind()+"/"+o.GetName()] = framework.ToJSON(o.Object)
		}
	}
	return out
}

// TestChartServerDryRun: the API server accepts every object of the default install (our
// images, Volcano's scheduler, the generated certificate) and stores nothing.
func TestChartServerDryRun(t *testing.T) {
	clients := mfLoadClients(t)
	mfEnsureWebhookNamespace(t, clients)
	before := mfSnapshotWebhookConfigs(t, clients)
	objs, raw := framework.RenderHelmChart(t, chChart(t), chRelease, mfNamespace)
	file := filepath.Join(t.TempDir(), "chart.yaml")
	mfWriteFile(t, file, []byte(raw))
	report := mfParseDryRunReport(t, mfKubectl(t, "apply", "--dry-run=server", "-f", file))
	if len(report) != len(objs) {
		t.Errorf("server dry run reported %d objects, the chart renders %d: %v", len(report), len(objs), report)
	}
	mfCheckWebhookConfigsUnchanged(t, clients, before)
}

// TestChartUpgradeKeepsCertificate: an upgrade renders the Secret and every caBundle from the
// Secret already in the cluster (lookup), so it never rotates the certificate under running
// pods. Checked with `helm template --dry-run=server --is-upgrade`, which performs the same
// lookup (and, as an upgrade, does not refuse objects that already exist).
func TestChartUpgradeKeepsCertificate(t *testing.T) {
	f := framework.New(t, "e2e-chart-cert")
	first, _ := framework.RenderHelmChart(t, chChart(t), chRelease, f.Namespace)
	secret := framework.FindManifest(t, first, "Secret", framework.WebhookSecret)
	file := filepath.Join(t.TempDir(), "secret.json")
	mfWriteFile(t, file, secret.JSON)
	mfKubectl(t, "apply", "-f", file)
	var stored corev1.Secret
	secret.Into(t, &stored)

	again, _ := framework.RenderHelmChart(t, chChart(t), chRelease, f.Namespace, "--dry-run=server", "--is-upgrade")
	var kept corev1.Secret
	framework.FindManifest(t, again, "Secret", framework.WebhookSecret).Into(t, &kept)
	for _, k := range []string{"ca.crt", "tls.crt", "tls.key"} {
		if !bytes.Equal(kept.Data[k], stored.Data[k]) {
			t.Errorf("the upgrade render changed %s of the stored Secret", k)
		}
	}
	framework.CheckAdmissionAgreement(t, again, f.Namespace, framework.VolcanoDefaultAdmissions, stored.Data["ca.crt"], false)
}

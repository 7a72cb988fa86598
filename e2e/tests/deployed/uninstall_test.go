package deployed

import (
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"vc-cpp.local/e2e/tests/framework"
)

// `helm uninstall` removes what the chart created and nothing else: the CRDs, the Queues, the
// users' Jobs and namespaces stay. It ends the stack, so e2e/run-deployed.sh runs it last, alone
// (its name does not match the others' TestDeployed prefix).
func TestUninstallKeepsUserObjects(t *testing.T) {
	f := framework.New(t, "e2e-uninstall")
	ns := framework.DeployedNamespace()
	queue := "e2e-uninst-" + f.Suffix
	f.CreateQueue(queue, 1)
	job := f.CreateJob(framework.NewJob(f.Namespace, framework.JobSpec{Name: "kept", Queue: queue, MinAvailable: 1,
		Tasks: []framework.Task{{Name: "t", Replicas: 1, CPU: "10m"}}}))

	framework.InstallScript(t, nil, "uninstall")

	for _, name := range []string{framework.WebhookDeployment, framework.ControllersDeployment, framework.SchedulerDeployment} {
		if _, err := f.Kube.AppsV1().Deployments(ns).Get(t.Context(), name, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
			t.Errorf("deployment %s/%s after uninstall: err %v, want NotFound", ns, name, err)
		}
	}
	hooks, err := f.Kube.AdmissionregistrationV1().ValidatingWebhookConfigurations().List(t.Context(), metav1.ListOptions{})
	if err != nil {
		t.Fatalf("%v", err)
	}
	for _, h := range hooks.Items {
		t.Errorf("validating webhook configuration %s is left after uninstall", h.Name)
	}
	// The CRDs stay: the API server still serves every Volcano resource.
	for gv, resources := range map[string][]string{
		"batch.volcano.sh/v1alpha1":     {"jobs", "cronjobs"},
		"scheduling.volcano.sh/v1beta1": {"queues", "podgroups"},
		"bus.volcano.sh/v1alpha1":       {"commands"},
		"flow.volcano.sh/v1alpha1":      {"jobflows", "jobtemplates"},
		"topology.volcano.sh/v1alpha1":  {"hypernodes"},
	} {
		list, err := f.Kube.Discovery().ServerResourcesForGroupVersion(gv)
		if err != nil {
			t.Errorf("%s after uninstall: %v", gv, err)
			continue
		}
		served := map[string]bool{}
		for _, r := range list.APIResources {
			served[r.Name] = true
		}
		for _, r := range resources {
			if !served[r] {
				t.Errorf("%s %s is no longer served after uninstall", gv, r)
			}
		}
	}
	for _, q := range []string{"root", "default", queue} {
		if _, err := f.Volcano.SchedulingV1beta1().Queues().Get(t.Context(), q, metav1.GetOptions{}); err != nil {
			t.Errorf("queue %s after uninstall: %v", q, err)
		}
	}
	if _, err := f.GetJob(job.Name); err != nil {
		t.Errorf("job %s/%s after uninstall: %v", f.Namespace, job.Name, err)
	}
	for _, n := range []string{f.Namespace, ns} {
		if got, err := f.Kube.CoreV1().Namespaces().Get(t.Context(), n, metav1.GetOptions{}); err != nil || got.DeletionTimestamp != nil {
			t.Errorf("namespace %s after uninstall: %v %v", n, err, got.DeletionTimestamp)
		}
	}
	// Nothing the chart made may linger half-deleted either.
	f.WaitFor("the release's pods gone", 2*time.Minute, func() (bool, string, error) {
		pods, err := f.Kube.CoreV1().Pods(ns).List(t.Context(), metav1.ListOptions{})
		if err != nil {
			return false, "", err
		}
		return len(pods.Items) == 0, framework.PodsSummary(pods.Items), nil
	})
}

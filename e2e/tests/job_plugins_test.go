package tests

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	batchv1alpha1 "volcano.sh/apis/pkg/apis/batch/v1alpha1"

	"vc-cpp.local/e2e/tests/framework"
)

// TestJobRayPlugin: with plugins {ray: []} (the webhook adds svc) the controller creates the
// ClusterIP Service <job>-head-svc selecting the head pod with the ports gcs 6379, dashboard 8265
// and client-server 10001, starts the head container with `ray start --head ...` and those
// ports, and points the workers at <job>-head-0.<job>:6379 (spec job-controller.md §5.7).
func TestJobRayPlugin(t *testing.T) {
	f := framework.New(t, "e2e-job-ray")
	const name = "raycluster"
	spec := newJob(f, name, 3, runForever("head", 1), runForever("worker", 2))
	spec.Spec.Tasks[0].Template.Spec.Containers[0].Name = "head"
	spec.Spec.Tasks[1].Template.Spec.Containers[0].Name = "worker"
	spec.Spec.Plugins = map[string][]string{"ray": {}}
	job := f.CreateJob(spec)

	pods := f.WaitJobPods(name, "3 Running", framework.JobTimeout, func(p []corev1.Pod) bool { return framework.AllRunning(p, 3) })
	var svc *corev1.Service
	f.WaitFor("Service "+name+"-head-svc", framework.JobTimeout, func() (bool, string, error) {
		var err error
		svc, err = f.Kube.CoreV1().Services(f.Namespace).Get(t.Context(), name+"-head-svc", metav1.GetOptions{})
		if err != nil {
			return false, "", err
		}
		return true, fmt.Sprintf("type=%s ports=%v", svc.Spec.Type, svc.Spec.Ports), nil
	})
	checkJobOwnerRef(t, "Service "+svc.Name, svc, job)
	if svc.Spec.Type != corev1.ServiceTypeClusterIP || svc.Spec.ClusterIP == corev1.ClusterIPNone {
		t.Errorf("Service %s: type=%s clusterIP=%s, want a ClusterIP service (not headless)", svc.Name, svc.Spec.Type, svc.Spec.ClusterIP)
	}
	wantSelector := map[string]string{batchv1alpha1.JobNameKey: name, batchv1alpha1.JobNamespaceKey: f.Namespace,
		batchv1alpha1.TaskSpecKey: "head"}
	if fmt.Sprint(svc.Spec.Selector) != fmt.Sprint(wantSelector) {
		t.Errorf("Service %s: selector %v, want %v", svc.Name, svc.Spec.Selector, wantSelector)
	}
	rayPorts := []struct {
		name string
		port int32
	}{{"gcs", 6379}, {"dashboard", 8265}, {"client-server", 10001}}
	var gotPorts, wantPorts []string
	for _, p := range svc.Spec.Ports {
		target := p.TargetPort
		gotPorts = append(gotPorts, fmt.Sprintf("%s:%d->%s/%s", p.Name, p.Port, target.String(), p.Protocol))
	}
	for _, p := range rayPorts {
		wantPorts = append(wantPorts, fmt.Sprintf("%s:%d->%s/%s", p.name, p.port, p.name, corev1.ProtocolTCP))
	}
	if fmt.Sprint(gotPorts) != fmt.Sprint(wantPorts) {
		t.Errorf("Service %s: ports %v, want %v", svc.Name, gotPorts, wantPorts)
	}

	headCmd := []string{"sh", "-c", "ray start --head --block --dashboard-host=0.0.0.0 --port=6379 --dashboard-port=8265 --ray-client-server-port=10001"}
	workerCmd := []string{"sh", "-c", fmt.Sprintf("ray start --block --address=%s.%s:6379", podName(name, "head", 0), name)}
	for _, p := range pods {
		c := p.Spec.Containers[0]
		switch p.Labels[batchv1alpha1.TaskSpecKey] {
		case "head":
			if fmt.Sprintf("%q", c.Command) != fmt.Sprintf("%q", headCmd) {
				t.Errorf("pod %s container %s: command %q, want %q", p.Name, c.Name, c.Command, headCmd)
			}
			ports := map[string]int32{}
			for _, cp := range c.Ports {
				ports[cp.Name] = cp.ContainerPort
			}
			for _, rp := range rayPorts {
				if ports[rp.name] != rp.port {
					t.Errorf("pod %s container %s: ports %v, want %s=%d", p.Name, c.Name, c.Ports, rp.name, rp.port)
				}
			}
		case "worker":
			if fmt.Sprintf("%q", c.Command) != fmt.Sprintf("%q", workerCmd) {
				t.Errorf("pod %s container %s: command %q, want %q", p.Name, c.Name, c.Command, workerCmd)
			}
		}
	}
	f.WaitJob(name, "controlledResources mark ray and svc", framework.JobTimeout, func(j *batchv1alpha1.Job) bool {
		return j.Status.ControlledResources["plugin-ray"] == "ray" && j.Status.ControlledResources["plugin-svc"] == "svc"
	})
}

// TestJobSvcPlugin: with plugins {svc: []} the controller creates the ConfigMap <job>-svc with
// each task's hosts (<pod>.<job>) and counts, the headless Service <job> and the NetworkPolicy
// <job> over the job's pods, and gives each pod hostname/subdomain, the VC_<TASK>_HOSTS/_NUM
// variables from the ConfigMap and the ConfigMap mounted at /etc/volcano
// (spec job-controller.md §5.2).
func TestJobSvcPlugin(t *testing.T) {
	f := framework.New(t, "e2e-job-svc")
	const name = "svcjob"
	spec := newJob(f, name, 3, runForever("master", 1), runForever("worker-x", 2))
	spec.Spec.Plugins = map[string][]string{"svc": {}}
	job := f.CreateJob(spec)
	pods := f.WaitJobPods(name, "3 Running", framework.JobTimeout, func(p []corev1.Pod) bool { return framework.AllRunning(p, 3) })
	f.WaitFor("svc plugin objects exist", framework.JobTimeout, svcObjectsCount(f, name, 3))
	cmName := name + "-svc"
	jobPodLabels := map[string]string{batchv1alpha1.JobNameKey: name, batchv1alpha1.JobNamespaceKey: f.Namespace}

	cm, err := f.Kube.CoreV1().ConfigMaps(f.Namespace).Get(t.Context(), cmName, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("get ConfigMap %s: %v", cmName, err)
	}
	checkJobOwnerRef(t, "ConfigMap "+cmName, cm, job)
	host := func(task string, i int) string { return podName(name, task, i) + "." + name }
	wantData := map[string]string{
		"master.host":       host("master", 0),
		"VC_MASTER_HOSTS":   host("master", 0),
		"VC_MASTER_NUM":     "1",
		"worker_x.host":     host("worker-x", 0) + "\n" + host("worker-x", 1),
		"VC_WORKER_X_HOSTS": host("worker-x", 0) + "," + host("worker-x", 1),
		"VC_WORKER_X_NUM":   "2",
	}
	if fmt.Sprint(cm.Data) != fmt.Sprint(wantData) {
		t.Errorf("ConfigMap %s data %q, want exactly %q", cmName, cm.Data, wantData)
	}

	svc, err := f.Kube.CoreV1().Services(f.Namespace).Get(t.Context(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("get Service %s: %v", name, err)
	}
	checkJobOwnerRef(t, "Service "+name, svc, job)
	if svc.Spec.ClusterIP != corev1.ClusterIPNone || len(svc.Spec.Ports) != 0 || svc.Spec.PublishNotReadyAddresses ||
		fmt.Sprint(svc.Spec.Selector) != fmt.Sprint(jobPodLabels) {
		t.Errorf("Service %s: clusterIP=%q ports=%v publishNotReadyAddresses=%v selector=%v, want headless, no ports, false, %v",
			name, svc.Spec.ClusterIP, svc.Spec.Ports, svc.Spec.PublishNotReadyAddresses, svc.Spec.Selector, jobPodLabels)
	}

	np, err := f.Kube.NetworkingV1().NetworkPolicies(f.Namespace).Get(t.Context(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("get NetworkPolicy %s: %v", name, err)
	}
	checkJobOwnerRef(t, "NetworkPolicy "+name, np, job)
	npOK := fmt.Sprint(np.Spec.PodSelector.MatchLabels) == fmt.Sprint(jobPodLabels) &&
		fmt.Sprint(np.Spec.PolicyTypes) == "[Ingress]" && len(np.Spec.Ingress) == 1 &&
		len(np.Spec.Ingress[0].From) == 1 && np.Spec.Ingress[0].From[0].PodSelector != nil &&
		fmt.Sprint(np.Spec.Ingress[0].From[0].PodSelector.MatchLabels) == fmt.Sprint(jobPodLabels)
	if !npOK {
		t.Errorf("NetworkPolicy %s: spec %+v, want podSelector %v, one ingress rule from the same pods, policyTypes [Ingress]",
			name, np.Spec, jobPodLabels)
	}

	wantEnv := []string{"VC_MASTER_HOSTS", "VC_MASTER_NUM", "VC_WORKER_X_HOSTS", "VC_WORKER_X_NUM"}
	for _, p := range pods {
		checkSvcPod(t, &p, name, cmName, wantEnv)
	}
	f.WaitJob(name, "controlledResources mark svc", framework.JobTimeout, func(j *batchv1alpha1.Job) bool {
		return j.Status.ControlledResources["plugin-svc"] == "svc"
	})
}

func checkSvcPod(t *testing.T, p *corev1.Pod, job, cmName string, wantEnv []string) {
	t.Helper()
	if p.Spec.Hostname != p.Name || p.Spec.Subdomain != job {
		t.Errorf("pod %s: hostname=%q subdomain=%q, want %q and %q", p.Name, p.Spec.Hostname, p.Spec.Subdomain, p.Name, job)
	}
	var volume *corev1.Volume
	for i := range p.Spec.Volumes {
		if p.Spec.Volumes[i].Name == cmName {
			volume = &p.Spec.Volumes[i]
		}
	}
	if volume == nil || volume.ConfigMap == nil || volume.ConfigMap.Name != cmName {
		t.Errorf("pod %s: volumes %+v, want %s from ConfigMap %s", p.Name, p.Spec.Volumes, cmName, cmName)
	}
	for _, c := range p.Spec.Containers {
		env := envOf(c)
		var names []string
		for n := range env {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range wantEnv {
			e, ok := env[n]
			ref := (*corev1.ConfigMapKeySelector)(nil)
			if ok && e.ValueFrom != nil {
				ref = e.ValueFrom.ConfigMapKeyRef
			}
			if ref == nil || ref.Name != cmName || ref.Key != n {
				t.Errorf("pod %s container %s: env %s not from ConfigMap %s key %s (env names %s)",
					p.Name, c.Name, n, cmName, n, strings.Join(names, ","))
			}
		}
		mounted := false
		for _, m := range c.VolumeMounts {
			mounted = mounted || m.Name == cmName && m.MountPath == "/etc/volcano"
		}
		if !mounted {
			t.Errorf("pod %s container %s: mounts %+v, want %s at /etc/volcano", p.Name, c.Name, c.VolumeMounts, cmName)
		}
	}
}

// The JobFlow opt-ins of ours (--jobflow-probes, --jobflow-patches), which Volcano lacks: each
// test runs against our controller-manager only; the e2e cluster turns both flags on.
package tests

import (
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	batchv1alpha1 "volcano.sh/apis/pkg/apis/batch/v1alpha1"
	flowv1alpha1 "volcano.sh/apis/pkg/apis/flow/v1alpha1"

	"vc-cpp.local/e2e/tests/framework"
)

// freePort returns a loopback port nothing listens on (the kernel's pick, released at once).
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listen: %v", err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	return port
}

// probeChecks reads vc_cpp_jobflow_probe_checks_total for a kind and result from the
// controller's /metrics (0 while the series does not exist yet).
func probeChecks(c *framework.LocalCluster, kind, result string) (float64, error) {
	return controllerCounter(c, fmt.Sprintf(`vc_cpp_jobflow_probe_checks_total{kind="%s",result="%s"}`, kind, result))
}

// waitProbeFailures waits until the controller has failed `more` further checks of a kind.
func waitProbeFailures(f *framework.Framework, c *framework.LocalCluster, kind string, more float64) {
	f.T.Helper()
	start, err := probeChecks(c, kind, "failed")
	if err != nil {
		f.T.Fatalf("read /metrics: %v", err)
	}
	f.WaitFor(fmt.Sprintf("%v more failed %s probe checks", more, kind), 2*time.Minute,
		func() (bool, string, error) {
			n, err := probeChecks(c, kind, "failed")
			if err != nil {
				return false, err.Error(), nil
			}
			return n >= start+more, fmt.Sprintf("failed %s checks %v (from %v)", kind, n, start), nil
		})
}

func jobAbsent(f *framework.Framework, name string) {
	f.T.Helper()
	if _, err := f.GetJob(name); !apierrors.IsNotFound(err) {
		f.T.Fatalf("job %s exists while its probe fails (err %v)", name, err)
	}
}

func waitJobCreated(f *framework.Framework, name string) {
	f.T.Helper()
	f.WaitFor("job "+name+" created", 2*time.Minute, func() (bool, string, error) {
		_, err := f.GetJob(name)
		if apierrors.IsNotFound(err) {
			return false, "not found", nil
		}
		return err == nil, fmt.Sprint(err), err
	})
}

// TestControllersJobFlowProbesGateSteps (ours, --jobflow-probes; docs/jobflow-probes.md): a
// server step that keeps running, a client whose TCP probe and task-status probe name the
// server's task, and a client whose HTTP probe does. The server's pod is hostNetwork on a kwok
// node, so its IP is the node's, 127.0.0.1, where this test opens the ports. Neither client is
// created while its port is closed (the controller is seen failing the checks), the TCP client is
// created once the port listens, the HTTP client only once the endpoint answers 200 rather than
// 503, and the probe's header reaches the endpoint. Volcano ignores probes, so the reference
// would create both clients only once the server completed: ours only.
func TestControllersJobFlowProbesGateSteps(t *testing.T) {
	if framework.ControllersImpl() == "reference" {
		t.Skip("Volcano's jobflow-controller ignores dependsOn.probe (the probes are a vc-cpp opt-in)")
	}
	f := framework.New(t, "e2e-ctl-flowp")
	c := framework.LoadLocalCluster(t)
	f.WaitQueueOpen("default")
	tcpPort, httpPort := freePort(t), freePort(t)

	server := newJob(f, "server", 1, endsWith("srv", 1, "10m", 0)).Spec
	server.Tasks[0].Template.Spec.HostNetwork = true
	if _, err := f.Volcano.FlowV1alpha1().JobTemplates(f.Namespace).Create(t.Context(), &flowv1alpha1.JobTemplate{
		ObjectMeta: metav1.ObjectMeta{Name: "server", Namespace: f.Namespace}, Spec: server,
	}, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create jobtemplate server: %v", err)
	}
	createJobTemplate(t, f, "tcp-client", endsWith("work", 1, "2s", 0))
	createJobTemplate(t, f, "http-client", endsWith("work", 1, "2s", 0))
	tcpClient := step("tcp-client", "server")
	tcpClient.DependsOn.Probe = &flowv1alpha1.Probe{
		TcpSocketList:  []flowv1alpha1.TcpSocket{{TaskName: "srv", Port: tcpPort}},
		TaskStatusList: []flowv1alpha1.TaskStatus{{TaskName: "srv", Phase: "Running"}},
	}
	httpClient := step("http-client", "server")
	httpClient.DependsOn.Probe = &flowv1alpha1.Probe{HttpGetList: []flowv1alpha1.HttpGet{{
		TaskName: "srv", Path: "/ready", Port: httpPort,
		HTTPHeader: corev1.HTTPHeader{Name: "X-Flow", Value: "probed"}}}}
	createJobFlow(t, f, "probed", flowv1alpha1.Retain, step("server"), tcpClient, httpClient)

	f.WaitFor("the server's pod running", 2*time.Minute, func() (bool, string, error) {
		j, err := f.GetJob("probed-server")
		if err != nil {
			return false, err.Error(), nil
		}
		return j.Status.Running == 1, fmt.Sprintf("phase %s running %d", j.Status.State.Phase, j.Status.Running), nil
	})
	// Both ports closed: the controller tries each and the clients wait.
	waitProbeFailures(f, c, "tcpSocket", 2)
	waitProbeFailures(f, c, "httpGet", 2)
	jobAbsent(f, "probed-tcp-client")
	jobAbsent(f, "probed-http-client")

	tcp, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", tcpPort))
	if err != nil {
		t.Fatalf("listen on the probed TCP port %d: %v", tcpPort, err)
	}
	defer tcp.Close()
	go func() {
		for {
			conn, err := tcp.Accept()
			if err != nil {
				return
			}
			conn.Close()
		}
	}()
	waitJobCreated(f, "probed-tcp-client")

	// The HTTP endpoint answers 503 until ready, then 200; it keeps the headers it saw.
	var ready atomic.Bool
	var mu sync.Mutex
	var headers []string
	var answered atomic.Int64
	httpListener, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", httpPort))
	if err != nil {
		t.Fatalf("listen on the probed HTTP port %d: %v", httpPort, err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		headers = append(headers, r.URL.Path+" X-Flow="+r.Header.Get("X-Flow"))
		mu.Unlock()
		answered.Add(1)
		if !ready.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusOK)
	})}
	go srv.Serve(httpListener)
	defer srv.Close()
	f.WaitFor("two probes answered 503", 2*time.Minute, func() (bool, string, error) {
		n := answered.Load()
		return n >= 2, fmt.Sprintf("%d requests", n), nil
	})
	jobAbsent(f, "probed-http-client")
	ready.Store(true)
	waitJobCreated(f, "probed-http-client")

	mu.Lock()
	seen := append([]string(nil), headers...)
	mu.Unlock()
	if len(seen) == 0 || seen[0] != "/ready X-Flow=probed" {
		t.Errorf("requests seen by the probed endpoint: %v, want /ready with X-Flow: probed", seen)
	}
	jf, err := f.Volcano.FlowV1alpha1().JobFlows(f.Namespace).Get(t.Context(), "probed", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("get jobflow: %v", err)
	}
	if jf.Status.State.Phase != flowv1alpha1.Running {
		t.Errorf("flow %s, want Running (the server still runs)", flowSummary(jf))
	}
	if strings.Contains(strings.Join(jf.Status.CompletedJobs, ","), "probed-server") {
		t.Errorf("the server completed before the test ended: %s", flowSummary(jf))
	}
}

// TestControllersJobFlowPatchesMergeIntoTheTemplate (ours, --jobflow-patches;
// docs/jobflow-patches.md): a step's patch.jobSpec is merged into its JobTemplate for that step's
// Job only. The patched Job has the patch's replicas, label and variable with the template's
// image, command and pod annotations kept; a flow using the same template without a patch gets the
// template as it is; the template itself is unchanged; and the patched Job runs to the flow's
// Succeed. Volcano ignores patches: ours only.
func TestControllersJobFlowPatchesMergeIntoTheTemplate(t *testing.T) {
	if framework.ControllersImpl() == "reference" {
		t.Skip("Volcano's jobflow-controller ignores flows[].patch (the patches are a vc-cpp opt-in)")
	}
	f := framework.New(t, "e2e-ctl-flowpa")
	f.WaitQueueOpen("default")
	createJobTemplate(t, f, "train", endsWith("work", 1, "2s", 0))
	patched := step("train")
	patched.Patch = &flowv1alpha1.Patch{JobSpec: batchv1alpha1.JobSpec{Tasks: []batchv1alpha1.TaskSpec{{
		Name: "work", Replicas: 2,
		Template: corev1.PodTemplateSpec{
			ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"variant": "fast"}},
			Spec: corev1.PodSpec{Containers: []corev1.Container{{
				Name: "main", Env: []corev1.EnvVar{{Name: "MODE", Value: "fast"}}}}},
		},
	}}}}
	createJobFlow(t, f, "patched", flowv1alpha1.Retain, patched)
	createJobFlow(t, f, "plain", flowv1alpha1.Retain, step("train"))

	waitFlowPhase(f, "patched", flowv1alpha1.Succeed, 3*time.Minute)
	waitFlowPhase(f, "plain", flowv1alpha1.Succeed, 3*time.Minute)
	job, err := f.GetJob("patched-train")
	if err != nil {
		t.Fatalf("job patched-train: %v", err)
	}
	if len(job.Spec.Tasks) != 1 {
		t.Fatalf("patched-train has %d tasks, want 1 (merged by name): %s", len(job.Spec.Tasks), framework.ToJSON(job.Spec.Tasks))
	}
	task := job.Spec.Tasks[0]
	pod := task.Template
	if task.Replicas != 2 || pod.Labels["variant"] != "fast" ||
		pod.Annotations[framework.AnnotationSucceedAfter] != "2s" || len(pod.Spec.Containers) != 1 {
		t.Errorf("patched task: replicas %d labels %v annotations %v containers %d; want 2, variant=fast, "+
			"the template's annotation, 1 container", task.Replicas, pod.Labels, pod.Annotations, len(pod.Spec.Containers))
	}
	if len(pod.Spec.Containers) == 1 {
		c := pod.Spec.Containers[0]
		if c.Image != "busybox" || len(c.Command) == 0 || len(c.Env) != 1 || c.Env[0].Value != "fast" {
			t.Errorf("patched container %s: want the template's image and command with MODE=fast", framework.ToJSON(c))
		}
	}
	plain, err := f.GetJob("plain-train")
	if err != nil {
		t.Fatalf("job plain-train: %v", err)
	}
	if r := plain.Spec.Tasks[0].Replicas; r != 1 || plain.Spec.Tasks[0].Template.Labels["variant"] != "" {
		t.Errorf("unpatched step: replicas %d labels %v, want the template's (1, no variant)", r, plain.Spec.Tasks[0].Template.Labels)
	}
	tmpl, err := f.Volcano.FlowV1alpha1().JobTemplates(f.Namespace).Get(t.Context(), "train", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("get jobtemplate train: %v", err)
	}
	if r := tmpl.Spec.Tasks[0].Replicas; r != 1 {
		t.Errorf("the JobTemplate itself was changed: replicas %d", r)
	}
}

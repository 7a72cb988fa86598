package deployed

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"vc-cpp.local/e2e/tests/framework"
)

// TestDeployedWebhookSigstopTurnsNotReady: a webhook container whose process is stopped
// (SIGSTOP, as a wedged process looks from outside) turns its pod NotReady within the readiness
// probe's budget (periodSeconds x failureThreshold + timeoutSeconds, plus a few seconds for the
// kubelet to report), and admissions keep succeeding through the other replica once the
// endpoint is gone. SIGCONT afterwards; the pod turns Ready again without a restart.
//
// Requests the API server had already sent to the stopped replica, or sends before the
// endpoint removal reaches it, wait for the webhook timeout and fail (failurePolicy Fail): they
// are logged, not counted. The stream that must not fail starts once the pod is NotReady and
// the endpoint removal has had a few seconds to propagate.
func TestDeployedWebhookSigstopTurnsNotReady(t *testing.T) {
	f := framework.New(t, "e2e-deployed-sigstop")
	ns := framework.DeployedNamespace()
	d, pods, err := f.DeploymentPods(ns, framework.WebhookDeployment)
	if err != nil {
		t.Fatalf("%v", err)
	}
	if len(pods) < 2 {
		t.Fatalf("%d webhook pods; the scenario needs another replica to keep admitting", len(pods))
	}
	probe := d.Spec.Template.Spec.Containers[0].ReadinessProbe
	if probe == nil {
		t.Fatalf("the webhook container has no readiness probe")
	}
	budget := time.Duration(probe.PeriodSeconds*probe.FailureThreshold+probe.TimeoutSeconds)*time.Second + 5*time.Second
	victim := pods[0]
	f.WaitFor("pod "+victim.Name+" Ready", time.Minute, func() (bool, string, error) {
		return podReady(t, f, ns, victim.Name)
	})

	before := f.StartAdmissionStream(250 * time.Millisecond)
	if err := signalContainer(t, victim, "SIGSTOP"); err != nil {
		t.Fatalf("%v", err)
	}
	stopped := time.Now()
	continued := false
	t.Cleanup(func() {
		if !continued {
			if err := signalContainer(t, victim, "SIGCONT"); err != nil {
				t.Logf("%v", err)
			}
		}
	})
	f.WaitFor("pod "+victim.Name+" NotReady", 3*budget, func() (bool, string, error) {
		ready, summary, err := podReady(t, f, ns, victim.Name)
		return !ready, summary, err
	})
	took := time.Since(stopped)
	sent, failures := before.Stop()
	t.Logf("pod %s NotReady %v after SIGSTOP (budget %v); meanwhile %d admissions, %d failed:\n%s",
		victim.Name, took.Round(time.Millisecond), budget, sent, len(failures),
		strings.Join(failures[:min(len(failures), 10)], "\n"))
	if took > budget {
		t.Errorf("pod %s turned NotReady %v after SIGSTOP, more than the probe budget %v", victim.Name, took, budget)
	}

	// The API server routes to the Service's endpoints; start counting once the slice says the
	// stopped pod is not ready.
	f.WaitFor("the Service's endpoints to drop "+victim.Name, time.Minute, func() (bool, string, error) {
		return endpointNotReady(t, f, ns, victim.Name)
	})
	after := f.StartAdmissionStream(250 * time.Millisecond)
	finishStream(t, f, after, 40, "while "+victim.Name+" is stopped and NotReady")

	if err := signalContainer(t, victim, "SIGCONT"); err != nil {
		t.Errorf("%v", err)
	}
	continued = true
	f.WaitFor("pod "+victim.Name+" Ready again", 3*budget, func() (bool, string, error) {
		return podReady(t, f, ns, victim.Name)
	})
	p, err := f.Kube.CoreV1().Pods(ns).Get(t.Context(), victim.Name, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("pod %s: %v", victim.Name, err)
	}
	if len(p.Status.ContainerStatuses) > 0 && len(victim.Status.ContainerStatuses) > 0 &&
		p.Status.ContainerStatuses[0].RestartCount != victim.Status.ContainerStatuses[0].RestartCount {
		t.Logf("note: the container was restarted (liveness) while stopped: restarts %d -> %d",
			victim.Status.ContainerStatuses[0].RestartCount, p.Status.ContainerStatuses[0].RestartCount)
	}
}

// endpointNotReady reports whether no EndpointSlice of the webhook Service lists pod as ready.
func endpointNotReady(t *testing.T, f *framework.Framework, ns, pod string) (bool, string, error) {
	t.Helper()
	slices, err := f.Kube.DiscoveryV1().EndpointSlices(ns).List(t.Context(),
		metav1.ListOptions{LabelSelector: "kubernetes.io/service-name=volcano-admission-service"})
	if err != nil {
		return false, "", err
	}
	for _, s := range slices.Items {
		for _, e := range s.Endpoints {
			if e.TargetRef != nil && e.TargetRef.Name == pod && (e.Conditions.Ready == nil || *e.Conditions.Ready) {
				return false, "still ready in " + s.Name, nil
			}
		}
	}
	return true, fmt.Sprintf("%d slices", len(slices.Items)), nil
}

func podReady(t *testing.T, f *framework.Framework, ns, name string) (bool, string, error) {
	t.Helper()
	p, err := f.Kube.CoreV1().Pods(ns).Get(t.Context(), name, metav1.GetOptions{})
	if err != nil {
		return false, "", err
	}
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue, fmt.Sprintf("Ready=%s since %v", c.Status, c.LastTransitionTime.Time), nil
		}
	}
	return false, "no Ready condition", nil
}

// signalContainer sends sig to the process of the pod's first container on the real node,
// through the node's containerd (ctr): SIGKILL as an OOM kill or a crash would end it, SIGSTOP
// as a wedged process looks from outside.
func signalContainer(t *testing.T, p corev1.Pod, sig string) error {
	t.Helper()
	id := framework.ContainerID(&p, 0)
	if id == "" {
		return fmt.Errorf("pod %s has no started containerd container", p.Name)
	}
	c := framework.LoadLocalCluster(t)
	out, err := exec.Command("ctr", "--address", c.Var("CONTAINERD_SOCK"), "--namespace", "k8s.io",
		"task", "kill", "--signal", sig, id).CombinedOutput()
	if err != nil {
		return fmt.Errorf("ctr task kill --signal %s %s (pod %s): %v: %s", sig, id, p.Name, err, out)
	}
	return nil
}

// finishStream waits for more admissions of stream, stops it and fails t for any failed one,
// naming what was going on.
func finishStream(t *testing.T, f *framework.Framework, stream *framework.AdmissionStream, more int, during string) {
	t.Helper()
	target := stream.Sent() + more
	f.WaitFor(fmt.Sprintf("%d more admissions %s", more, during), time.Minute, func() (bool, string, error) {
		n := stream.Sent()
		return n >= target, fmt.Sprintf("%d sent", n), nil
	})
	sent, failures := stream.Stop()
	t.Logf("admissions %s: %d sent, %d failed", during, sent, len(failures))
	if len(failures) > 0 {
		t.Errorf("%d of %d admissions failed %s; first ones:\n%s", len(failures), sent, during,
			strings.Join(failures[:min(len(failures), 10)], "\n"))
	}
}

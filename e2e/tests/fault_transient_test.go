package tests

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	batchv1alpha1 "volcano.sh/apis/pkg/apis/batch/v1alpha1"

	"vc-cpp.local/e2e/tests/framework"
)

// podCreateOutage is how long the Job controller's pod creates fail (issue 44: five minutes, far
// longer than the 15 failed syncs of --max-requeue-num take with the queue's backoff).
const podCreateOutage = 5 * time.Minute

// maxRequeueNum is the controller-manager's --max-requeue-num (its default, which the harness
// keeps): Volcano terminates a Job after this many failed syncs, whatever failed.
const maxRequeueNum = 15

// deadWebhook is an admission webhook endpoint that is down: it accepts each connection the API
// server opens and closes it at once, so every call fails and, with failurePolicy Fail, the API
// server answers the create with 500 InternalError "failed calling webhook". It counts the calls.
type deadWebhook struct {
	listener net.Listener
	calls    atomic.Int64
	done     sync.WaitGroup
}

func startDeadWebhook(t *testing.T) *deadWebhook {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listen for the dead webhook: %v", err)
	}
	w := &deadWebhook{listener: l}
	w.done.Add(1)
	go func() {
		defer w.done.Done()
		for {
			conn, err := l.Accept()
			if err != nil {
				return // closed
			}
			w.calls.Add(1)
			conn.Close()
		}
	}()
	t.Cleanup(w.stop)
	return w
}

func (w *deadWebhook) stop() {
	w.listener.Close()
	w.done.Wait()
}

// registerDeadPodWebhook registers a validating webhook with failurePolicy Fail on pod creates in
// namespace ns only, pointing at w: "another webhook with Fail on pods" that is down. Returns its
// name; the test removes it to end the outage (and at cleanup in any case).
func registerDeadPodWebhook(t *testing.T, f *framework.Framework, w *deadWebhook) string {
	t.Helper()
	fail, none := admissionv1.Fail, admissionv1.SideEffectClassNone
	timeout := int32(5)
	url := "https://" + w.listener.Addr().String() + "/validate-pods"
	name := "e2e-dead-pod-webhook-" + f.Suffix
	cfg := &admissionv1.ValidatingWebhookConfiguration{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Webhooks: []admissionv1.ValidatingWebhook{{
			Name:                    "dead-pods.e2e.vc-cpp.local",
			AdmissionReviewVersions: []string{"v1"},
			ClientConfig:            admissionv1.WebhookClientConfig{URL: &url},
			FailurePolicy:           &fail,
			SideEffects:             &none, // so that a dry-run create calls it too (the probe below)
			TimeoutSeconds:          &timeout,
			NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{
				"kubernetes.io/metadata.name": f.Namespace}},
			Rules: []admissionv1.RuleWithOperations{{
				Operations: []admissionv1.OperationType{admissionv1.Create},
				Rule: admissionv1.Rule{APIGroups: []string{""}, APIVersions: []string{"v1"},
					Resources: []string{"pods"}},
			}},
		}},
	}
	hooks := f.Kube.AdmissionregistrationV1().ValidatingWebhookConfigurations()
	if _, err := hooks.Create(t.Context(), cfg, metav1.CreateOptions{}); err != nil {
		t.Fatalf("register the dead pod webhook: %v", err)
	}
	t.Cleanup(func() { removeWebhook(t, f, name) })
	// The API server picks the configuration up from its own informer: wait until a (dry-run)
	// pod create in the namespace is refused the way the Job controller's will be.
	probe := framework.NewVolcanoPod(f.Namespace, "outage-probe", "10m", nil)
	framework.WaitFor(t, "pod creates in "+f.Namespace+" fail on the dead webhook", time.Minute,
		func() (bool, string, error) {
			_, err := f.Kube.CoreV1().Pods(f.Namespace).Create(t.Context(), probe,
				metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
			if err == nil {
				return false, "a dry-run pod create still passes", nil
			}
			if !apierrors.IsInternalError(err) || !strings.Contains(err.Error(), "failed calling webhook") {
				return false, "", fmt.Errorf("a dry-run pod create failed otherwise than on the webhook: %w", err)
			}
			return true, err.Error(), nil
		})
	return name
}

// removeWebhook also runs at cleanup, when t.Context() is already cancelled.
func removeWebhook(t *testing.T, f *framework.Framework, name string) {
	err := f.Kube.AdmissionregistrationV1().ValidatingWebhookConfigurations().Delete(
		context.Background(), name, metav1.DeleteOptions{})
	if err != nil && !apierrors.IsNotFound(err) {
		t.Errorf("remove webhook configuration %s: %v", name, err)
	}
}

// stopped reports whether a job phase means the controller gave the job up.
func stopped(phase batchv1alpha1.JobPhase) bool {
	switch phase {
	case batchv1alpha1.Terminating, batchv1alpha1.Terminated, batchv1alpha1.Failed,
		batchv1alpha1.Aborting, batchv1alpha1.Aborted:
		return true
	}
	return false
}

// TestFaultJobSurvivesPodCreateOutage: for podCreateOutage every pod create of the Job controller in
// the test's namespace fails with 500 InternalError (another admission webhook, failurePolicy
// Fail, is down). The Job must not be terminated, though far more than --max-requeue-num syncs
// fail, and once the webhook is gone it must run to completion. Volcano counts every failed sync
// and terminates the Job (docs/compat.md), so the test runs against ours only. It takes about
// podCreateOutage plus a minute; named TestFault* so that the lagged passes (^Test(Controllers|Job|
// Gang)) do not run it again.
func TestFaultJobSurvivesPodCreateOutage(t *testing.T) {
	if framework.ControllersImpl() == "reference" {
		t.Skip("Volcano's controller-manager terminates a Job after --max-requeue-num failed syncs, " +
			"transient or not (a vc-cpp difference, docs/compat.md)")
	}
	cluster := framework.LoadLocalCluster(t)
	f := framework.New(t, "e2e-transient")
	webhook := startDeadWebhook(t)
	hook := registerDeadPodWebhook(t, f, webhook)
	const series = `vc_cpp_controller_transient_errors_total{controller="job-controller"}`
	before, err := controllerCounter(cluster, series)
	if err != nil {
		t.Fatalf("read %s: %v", series, err)
	}

	const name = "outage"
	job := f.CreateJob(faultJob(f.Namespace, name, 2, "5s"))
	start := time.Now()
	t.Logf("pod creates in %s fail for %v from now (webhook at %s)", f.Namespace, podCreateOutage,
		webhook.listener.Addr())
	framework.Consistently(t, "job "+name+" not given up", podCreateOutage, func() (bool, string, error) {
		j, err := f.GetJob(name)
		if err != nil {
			return false, "", err
		}
		summary := framework.JobStatusSummary(j)
		if j.Status.Succeeded > 0 || j.Status.Running > 0 {
			return false, "", errors.New("pods ran during the outage, so it did not hold: " + summary)
		}
		return !stopped(j.Status.State.Phase), summary, nil
	})
	after, err := controllerCounter(cluster, series)
	if err != nil {
		t.Fatalf("read %s: %v", series, err)
	}
	failedSyncs := after - before
	t.Logf("outage of %v over: the dead webhook took %d calls; %s went from %v to %v",
		time.Since(start).Round(time.Second), webhook.calls.Load(), series, before, after)
	if failedSyncs <= maxRequeueNum {
		t.Fatalf("only %v job syncs failed transiently during the outage; the test needs more than "+
			"--max-requeue-num (%d) to show they do not count", failedSyncs, maxRequeueNum)
	}
	assertFailedCreateEvent(t, f, job)

	removeWebhook(t, f, hook)
	end := time.Now()
	// Retries of a transient failure wait at most --transient-retry-max-delay (30 s).
	f.WaitJobPhase(name, batchv1alpha1.Completed, 3*time.Minute)
	t.Logf("job %s Completed %v after the outage ended", name, time.Since(end).Round(time.Second))
}

// assertFailedCreateEvent checks that the job's pod creates did meet the dead webhook: a
// FailedCreate Warning naming it is on the job.
func assertFailedCreateEvent(t *testing.T, f *framework.Framework, job *batchv1alpha1.Job) {
	t.Helper()
	evs, err := f.Kube.CoreV1().Events(f.Namespace).List(t.Context(), metav1.ListOptions{
		FieldSelector: "involvedObject.uid=" + string(job.UID)})
	if err != nil {
		t.Fatalf("list the job's events: %v", err)
	}
	var seen []string
	for _, e := range evs.Items {
		if e.Type == "Warning" && e.Reason == "FailedCreate" && strings.Contains(e.Message, "failed calling webhook") {
			t.Logf("event: %s %s (x%d): %s", e.Type, e.Reason, e.Count, e.Message)
			return
		}
		seen = append(seen, e.Reason)
	}
	t.Fatalf("no FailedCreate event naming the webhook on the job; events: %v", seen)
}

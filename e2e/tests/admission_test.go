package tests

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"vc-cpp.local/e2e/tests/framework"
)

// Volcano's exact text for the job-level rule "minAvailable must not exceed the sum of the
// tasks' replicas" on CREATE (spec webhook.md §2.2 step 6; the webhook trims the leading space).
const minAvailableAboveReplicasMsg = "job 'minAvailable' should not be greater than total replicas in tasks;"

// TestJobMinAvailableAboveReplicasDenied: a Job asking for more pods to be available than it
// has replicas can never run, and the validating webhook refuses to store it.
func TestJobMinAvailableAboveReplicasDenied(t *testing.T) {
	f := framework.New(t, "e2e-admission")
	jobs := f.Volcano.BatchV1alpha1().Jobs(f.Namespace)
	f.WaitQueueOpen("default")

	spec := framework.JobSpec{
		Name:         "min-above-replicas",
		Queue:        "default", // created by the scheduler at start-up
		MinAvailable: 5,
		Tasks:        []framework.Task{{Name: "worker", Replicas: 3, CPU: "100m"}},
	}

	// Control: the same job with minAvailable equal to its replicas is admitted. A dry run goes
	// through the webhooks (they declare sideEffects NoneOnDryRun) but stores nothing.
	valid := spec
	valid.MinAvailable = 3
	dryRun := metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}}
	if _, err := jobs.Create(t.Context(), framework.NewJob(f.Namespace, valid), dryRun); err != nil {
		t.Fatalf("control job (minAvailable == replicas) was not admitted: %v", err)
	}

	_, err := jobs.Create(t.Context(), framework.NewJob(f.Namespace, spec), metav1.CreateOptions{})
	if err == nil {
		t.Fatalf("job with minAvailable 5 and 3 replicas was admitted; expected a webhook denial")
	}
	t.Logf("create denied: %v", err)

	// The API server reports a webhook denial as `admission webhook "<name>" denied the request:
	// <message>`. Volcano sets no status code, and the API server raises any code below 400
	// to 400 Bad Request (observed with IMPL=reference), so that is what clients see.
	msg := err.Error()
	if !strings.Contains(msg, "admission webhook") || !strings.Contains(msg, "denied the request") {
		t.Errorf("error is not an admission webhook denial: %q", msg)
	}
	if !strings.Contains(msg, minAvailableAboveReplicasMsg) {
		t.Errorf("denial message %q does not contain Volcano's text %q", msg, minAvailableAboveReplicasMsg)
	}
	var status *apierrors.StatusError
	if !errors.As(err, &status) {
		t.Errorf("error is %T, not an API status error", err)
	} else if code := status.ErrStatus.Code; code != http.StatusBadRequest {
		t.Errorf("denial has HTTP code %d, want %d", code, http.StatusBadRequest)
	}

	if _, err := jobs.Get(t.Context(), spec.Name, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("GET of the denied job: want NotFound, got %v", err)
	}
	list, err := jobs.List(t.Context(), metav1.ListOptions{})
	if err != nil {
		t.Fatalf("list jobs: %v", err)
	}
	if n := len(list.Items); n != 0 {
		t.Errorf("namespace holds %d jobs after the denial, want 0", n)
	}
}

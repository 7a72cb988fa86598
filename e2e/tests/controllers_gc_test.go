package tests

import (
	"fmt"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	batchv1alpha1 "volcano.sh/apis/pkg/apis/batch/v1alpha1"

	"vc-cpp.local/e2e/tests/framework"
)

// gcSlack is how late after its TTL a finished job may start being deleted: the finish time is
// kept in whole seconds, and the test polls.
const gcSlack = 5 * time.Second

// TestControllersGCDeletesFinishedJobAfterTTL: a Job with ttlSecondsAfterFinished 5 is deleted
// about 5 s after it finishes, not before, together with its pods (foreground deletion), and a
// finished Job without a TTL stays (spec controller-manager.md §4).
func TestControllersGCDeletesFinishedJobAfterTTL(t *testing.T) {
	f := framework.New(t, "e2e-ctl-gc")
	f.WaitQueueOpen("default")
	const ttlSeconds = 5
	short := func(name string) *batchv1alpha1.Job {
		return framework.NewJob(f.Namespace, framework.JobSpec{
			Name: name, Queue: "default", MinAvailable: 1,
			Tasks: []framework.Task{{Name: "work", Replicas: 1, CPU: "100m",
				Annotations: map[string]string{framework.AnnotationSucceedAfter: "2s"}}},
		})
	}
	withTTL := short("with-ttl")
	ttl := int32(ttlSeconds)
	withTTL.Spec.TTLSecondsAfterFinished = &ttl
	f.CreateJob(withTTL)
	f.CreateJob(short("without-ttl"))

	done := f.WaitJobPhase("with-ttl", batchv1alpha1.Completed, 2*time.Minute)
	finished := done.Status.State.LastTransitionTime.Time
	if finished.IsZero() {
		t.Fatalf("completed job has no lastTransitionTime: %s", framework.JobStatusSummary(done))
	}
	expires := finished.Add(ttlSeconds * time.Second)

	// The first moment the job is seen being deleted (deletionTimestamp set, or already gone).
	var deleting time.Time
	f.WaitFor("job with-ttl being deleted", ttlSeconds*time.Second+time.Minute, func() (bool, string, error) {
		j, err := f.GetJob("with-ttl")
		switch {
		case apierrors.IsNotFound(err):
		case err != nil:
			return false, "", err
		case j.DeletionTimestamp == nil:
			return false, framework.JobStatusSummary(j), nil
		}
		deleting = time.Now()
		return true, fmt.Sprintf("finished %s, deletion seen %v after the finish",
			finished.Format(time.RFC3339), deleting.Sub(finished).Round(time.Millisecond)), nil
	})
	// lastTransitionTime is truncated to the second, so the real finish is up to 1 s later.
	if deleting.Before(expires.Add(-time.Second)) {
		t.Errorf("deleted %v before its TTL ran out (finished %s, ttl %ds)", expires.Sub(deleting), finished, ttlSeconds)
	}
	if deleting.After(expires.Add(gcSlack)) {
		t.Errorf("deleted %v after its TTL ran out, allowed %v", deleting.Sub(expires), gcSlack)
	}

	f.WaitJobGone("with-ttl", time.Minute)
	f.WaitFor("pods of with-ttl gone", time.Minute, func() (bool, string, error) {
		pods, err := f.Kube.CoreV1().Pods(f.Namespace).List(t.Context(), metav1.ListOptions{
			LabelSelector: batchv1alpha1.JobNameKey + "=with-ttl"})
		if err != nil {
			return false, "", err
		}
		return len(pods.Items) == 0, framework.PodsSummary(pods.Items), nil
	})

	j := f.WaitJobPhase("without-ttl", batchv1alpha1.Completed, time.Minute)
	if j.DeletionTimestamp != nil {
		t.Errorf("job without a TTL is being deleted: %s", framework.JobStatusSummary(j))
	}
}

package framework

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	busv1alpha1 "volcano.sh/apis/pkg/apis/bus/v1alpha1"
	schedulingv1beta1 "volcano.sh/apis/pkg/apis/scheduling/v1beta1"
)

// Names under which the admission webhooks are registered with the API server (Volcano's Helm
// chart, reproduced by e2e/cluster/webhooks.sh). The API server puts them in every denial:
// `admission webhook "<name>" denied the request: <message>`.
const (
	WebhookValidateJob      = "validatejob.volcano.sh"
	WebhookValidateQueue    = "validatequeue.volcano.sh"
	WebhookValidatePodGroup = "validatepodgroup.volcano.sh"
)

// WebhookCacheTimeout bounds how long a test waits for the webhook's informer caches to catch
// up with a queue it just created, closed or deleted. The caches lag the API server by
// milliseconds normally; the margin is for a busy machine.
const WebhookCacheTimeout = 20 * time.Second

// DryRunCreate sends a create through admission (every Volcano webhook declares sideEffects
// NoneOnDryRun) without storing anything; the response is the object as it would be stored.
func DryRunCreate() metav1.CreateOptions {
	return metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}}
}

// DryRunUpdate is DryRunCreate for updates.
func DryRunUpdate() metav1.UpdateOptions {
	return metav1.UpdateOptions{DryRun: []string{metav1.DryRunAll}}
}

// DryRunDelete is DryRunCreate for deletes.
func DryRunDelete() metav1.DeleteOptions {
	return metav1.DeleteOptions{DryRun: []string{metav1.DryRunAll}}
}

// DenialProblem returns "" if err is a denial by the named admission webhook whose message
// contains every one of parts, and otherwise says what is wrong with it.
func DenialProblem(err error, webhook string, parts ...string) string {
	if err == nil {
		return "the request was admitted"
	}
	msg := err.Error()
	prefix := fmt.Sprintf("admission webhook %q denied the request: ", webhook)
	if !strings.Contains(msg, prefix) {
		return fmt.Sprintf("error is not a denial by %s: %q", webhook, msg)
	}
	var missing []string
	for _, p := range parts {
		if !strings.Contains(msg, p) {
			missing = append(missing, fmt.Sprintf("%q", p))
		}
	}
	if len(missing) > 0 {
		return fmt.Sprintf("denial %q lacks %s", msg, strings.Join(missing, ", "))
	}
	return ""
}

// ExpectDenied fails t unless err is a denial by webhook containing every one of parts.
// Denials are also checked to be API status errors with HTTP code 400: Volcano's webhook sets
// no code and the API server raises a missing or lower code to 400 Bad Request, so that is
// what clients see (a webhook that is down produces a 500 that also names the webhook).
func ExpectDenied(t testing.TB, err error, webhook string, parts ...string) {
	t.Helper()
	if p := DenialProblem(err, webhook, parts...); p != "" {
		t.Errorf("%s", p)
		return
	}
	var status *apierrors.StatusError
	switch {
	case !errors.As(err, &status):
		t.Errorf("denial is %T, not an API status error: %v", err, err)
	case status.ErrStatus.Code != http.StatusBadRequest:
		t.Errorf("denial has HTTP code %d, want %d: %v", status.ErrStatus.Code, http.StatusBadRequest, err)
	}
	t.Logf("denied as expected: %v", err)
}

// WaitDenied retries attempt until it is denied by webhook with every one of parts. It is for
// denials that depend on the webhook's queue cache having seen a change the test just made;
// attempt must be a dry run (an admitted attempt must not store anything).
func WaitDenied(t testing.TB, what string, attempt func() error, webhook string, parts ...string) {
	t.Helper()
	WaitFor(t, what, WebhookCacheTimeout, func() (bool, string, error) {
		if p := DenialProblem(attempt(), webhook, parts...); p != "" {
			return false, p, nil
		}
		return true, "denied", nil
	})
}

// parentNotYetKnown matches the queue denials that only mean the webhook's cache has not yet
// seen a parent queue the test just created.
func parentNotYetKnown(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "denied the request") && strings.Contains(msg, "parent queue") &&
		strings.Contains(msg, "not found")
}

// CreateQueueObject creates q as given (any spec, parent or annotations), retrying while the
// webhook only reports that the parent queue is not in its cache yet, and registers its
// deletion at t's cleanup. Queues created this way are deleted in reverse order of creation
// and each deletion is retried while the webhook still counts a just-deleted child, so trees
// of queues are torn down safely. Unlike CreateQueue it does not wait for the queue to be Open
// and must not be used for queues that PodGroups will name.
func (f *Framework) CreateQueueObject(t testing.TB, q *schedulingv1beta1.Queue) *schedulingv1beta1.Queue {
	t.Helper()
	var created *schedulingv1beta1.Queue
	WaitFor(t, "create queue "+q.Name, WebhookCacheTimeout, func() (bool, string, error) {
		out, err := f.Volcano.SchedulingV1beta1().Queues().Create(ctx(), q, metav1.CreateOptions{})
		if err == nil {
			created = out
			return true, "created", nil
		}
		if parentNotYetKnown(err) {
			return false, "", err
		}
		t.Fatalf("create queue %s: %v", q.Name, err)
		return false, "", err
	})
	f.DeleteQueueAtCleanup(t, q.Name)
	return created
}

// DeleteQueueAtCleanup registers the deletion of a queue the test created by other means (kubectl,
// or a create that was wrongly admitted) at t's cleanup, with the retries of CreateQueueObject.
func (f *Framework) DeleteQueueAtCleanup(t testing.TB, name string) {
	t.Cleanup(func() { f.deleteQueueEventually(t, name) })
}

// deleteQueueEventually deletes a queue created by CreateQueueObject, retrying webhook denials
// that come from cache lag (a child deleted a moment ago, or the queue itself not yet seen),
// then waits until it is gone.
func (f *Framework) deleteQueueEventually(t testing.TB, name string) {
	if os.Getenv("E2E_KEEP") != "" {
		t.Logf("E2E_KEEP set: leaving queue %s", name)
		return
	}
	queues := f.Volcano.SchedulingV1beta1().Queues()
	seen, err := Poll(QueueDeleteTimeout, func() (bool, string, error) {
		err := queues.Delete(ctx(), name, metav1.DeleteOptions{})
		switch {
		case err == nil || apierrors.IsNotFound(err):
		case strings.Contains(err.Error(), "denied the request"):
			return false, err.Error(), nil
		default:
			return false, "", err
		}
		_, err = queues.Get(ctx(), name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return true, "gone", nil
		}
		return false, "deleted, still present", err
	})
	if err != nil {
		t.Errorf("cleanup: queue %s not deleted within %v: %v (last seen: %s)", name, QueueDeleteTimeout, err, seen)
	}
}

// CloseQueue closes a queue the way `vcctl queue operate --action close` does (SendCloseQueue),
// then waits until the queue's status.state is Closed. The queue must have no PodGroups, or it
// stays Closing.
func (f *Framework) CloseQueue(t testing.TB, name string) {
	t.Helper()
	f.SendCloseQueue(t, name)
	WaitFor(t, "queue "+name+" Closed", QueueReadyTimeout, func() (bool, string, error) {
		q, err := f.Volcano.SchedulingV1beta1().Queues().Get(ctx(), name, metav1.GetOptions{})
		if err != nil {
			return false, "", err
		}
		return q.Status.State == schedulingv1beta1.QueueStateClosed, "state=" + string(q.Status.State), nil
	})
}

// SendCloseQueue creates a bus.volcano.sh Command with action CloseQueue targeting the queue (in
// the test namespace; the queue controller handles Commands in any namespace and deletes them),
// without waiting for its effect.
func (f *Framework) SendCloseQueue(t testing.TB, name string) {
	t.Helper()
	q, err := f.Volcano.SchedulingV1beta1().Queues().Get(ctx(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("get queue %s: %v", name, err)
	}
	yes := true
	target := metav1.OwnerReference{
		APIVersion: schedulingv1beta1.SchemeGroupVersion.String(), Kind: "Queue",
		Name: q.Name, UID: q.UID, Controller: &yes, BlockOwnerDeletion: &yes,
	}
	cmd := &busv1alpha1.Command{
		ObjectMeta: metav1.ObjectMeta{
			GenerateName:    name + "-closequeue-",
			Namespace:       f.Namespace,
			OwnerReferences: []metav1.OwnerReference{target},
		},
		Action:       string(busv1alpha1.CloseQueueAction),
		TargetObject: &target,
	}
	if _, err := f.Volcano.BusV1alpha1().Commands(f.Namespace).Create(ctx(), cmd, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create CloseQueue command for %s: %v", name, err)
	}
}

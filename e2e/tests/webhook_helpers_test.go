package tests

import (
	"sort"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	batchv1alpha1 "volcano.sh/apis/pkg/apis/batch/v1alpha1"
	schedulingv1beta1 "volcano.sh/apis/pkg/apis/scheduling/v1beta1"

	"vc-cpp.local/e2e/tests/framework"
)

// The fixed parts of Volcano's denial texts that more than one webhook test uses
// (spec webhook.md §2.2, §3.1). Backquotes inside are part of the messages.
const (
	immutableJobFieldsMsg = "job updates may not change fields other than `minAvailable`, `tasks[*].replicas under spec` and `PriorityClassName`"
	closedQueueJobMsg     = "can only submit job to queue with state `Open`, queue `%s` status is `Closed`;"
)

// bareTask is a task with nothing but a name, a replica count and a one-container template, so
// that every default the mutating webhook adds is visible.
func bareTask(name string, replicas int32) batchv1alpha1.TaskSpec {
	return batchv1alpha1.TaskSpec{
		Name:     name,
		Replicas: replicas,
		Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
			RestartPolicy: corev1.RestartPolicyNever,
			Containers:    []corev1.Container{{Name: "main", Image: "busybox"}},
		}},
	}
}

// bareJob is a Job without queue, scheduler, minAvailable or maxRetry.
func bareJob(ns, name string, tasks ...batchv1alpha1.TaskSpec) *batchv1alpha1.Job {
	return &batchv1alpha1.Job{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec:       batchv1alpha1.JobSpec{Tasks: tasks},
	}
}

func int32p(v int32) *int32 { return &v }
func intp(v int) *int       { return &v }

// expectJobAbsent checks a denied Job was not stored; a Job that was wrongly stored is deleted.
func expectJobAbsent(t *testing.T, f *framework.Framework, name string) {
	t.Helper()
	jobs := f.Volcano.BatchV1alpha1().Jobs(f.Namespace)
	_, err := jobs.Get(t.Context(), name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return
	}
	t.Errorf("GET of denied job %s: want NotFound, got %v", name, err)
	if err == nil {
		_ = jobs.Delete(t.Context(), name, metav1.DeleteOptions{})
	}
}

// expectQueueAbsent checks a denied Queue was not stored; a Queue that was wrongly stored is
// deleted at cleanup.
func expectQueueAbsent(t *testing.T, f *framework.Framework, name string) {
	t.Helper()
	_, err := f.Volcano.SchedulingV1beta1().Queues().Get(t.Context(), name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return
	}
	t.Errorf("GET of denied queue %s: want NotFound, got %v", name, err)
	if err == nil {
		f.DeleteQueueAtCleanup(t, name)
	}
}

// expectPodGroupAbsent checks a denied PodGroup was not stored.
func expectPodGroupAbsent(t *testing.T, f *framework.Framework, name string) {
	t.Helper()
	_, err := f.Volcano.SchedulingV1beta1().PodGroups(f.Namespace).Get(t.Context(), name, metav1.GetOptions{})
	if !apierrors.IsNotFound(err) {
		t.Errorf("GET of denied podgroup %s: want NotFound, got %v", name, err)
	}
}

// newQueue builds a Queue; parent may be empty.
func newQueue(name, parent string, capability, deserved, guarantee corev1.ResourceList) *schedulingv1beta1.Queue {
	return &schedulingv1beta1.Queue{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: schedulingv1beta1.QueueSpec{
			Parent:     parent,
			Capability: capability,
			Deserved:   deserved,
			Guarantee:  schedulingv1beta1.Guarantee{Resource: guarantee},
		},
	}
}

// bracketList returns the space-separated items of the first "<label>[...]" in msg, sorted.
func bracketList(msg, label string) []string {
	i := strings.Index(msg, label+"[")
	if i < 0 {
		return nil
	}
	rest := msg[i+len(label)+1:]
	j := strings.Index(rest, "]")
	if j < 0 {
		return nil
	}
	items := strings.Fields(rest[:j])
	sort.Strings(items)
	return items
}

// The events and actions a user policy may name (spec webhook.md §5.4), sorted.
var (
	allowedPolicyEvents  = []string{"*", "JobUpdated", "PodEvicted", "PodFailed", "PodPending", "TaskCompleted", "TaskFailed", "Unknown"}
	allowedPolicyActions = []string{"AbortJob", "CompleteJob", "RestartJob", "RestartPartition", "RestartPod", "RestartTask", "ResumeJob", "TerminateJob"}
)

// expectPolicyLists checks the " valid events are [...], valid actions are [...];" tail of a
// policy denial. Volcano prints both lists in random (Go map) order, so they are compared as sets.
func expectPolicyLists(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		return
	}
	msg := err.Error()
	if got := bracketList(msg, "valid events are "); strings.Join(got, " ") != strings.Join(allowedPolicyEvents, " ") {
		t.Errorf("valid events listed %v, want %v in any order (message %q)", got, allowedPolicyEvents, msg)
	}
	if got := bracketList(msg, "valid actions are "); strings.Join(got, " ") != strings.Join(allowedPolicyActions, " ") {
		t.Errorf("valid actions listed %v, want %v in any order (message %q)", got, allowedPolicyActions, msg)
	}
	if !strings.HasSuffix(msg, "];") {
		t.Errorf("policy denial %q does not end with \"];\"", msg)
	}
}

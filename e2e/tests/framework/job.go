package framework

import (
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	batchv1alpha1 "volcano.sh/apis/pkg/apis/batch/v1alpha1"
)

// Annotations understood by the harness's kwok stages (e2e/cluster/kwok-stages.yaml). Volcano's
// job controller copies task template annotations onto the pods it creates.
const (
	AnnotationStartDelay   = "harness.kwok.io/start-delay"
	AnnotationSucceedAfter = "harness.kwok.io/succeed-after"
	AnnotationFailAfter    = "harness.kwok.io/fail-after"
	AnnotationExitCode     = "harness.kwok.io/exit-code"
)

// SchedulerName is the Volcano scheduler's name in the e2e cluster.
const SchedulerName = "volcano"

// Task describes one task of a Volcano Job: Replicas pods from one template.
type Task struct {
	Name     string
	Replicas int32
	// CPU and Memory are the container's requests ("100m", "1", "128Mi"); empty means none.
	CPU    string
	Memory string
	// Annotations go on the pod template, e.g. AnnotationSucceedAfter.
	Annotations  map[string]string
	NodeSelector map[string]string
	Tolerations  []corev1.Toleration
}

// JobSpec describes a Volcano Job the way the scenarios need it.
type JobSpec struct {
	Name         string
	Queue        string
	MinAvailable int32
	Tasks        []Task
}

// NewJob builds a batch.volcano.sh/v1alpha1 Job in namespace ns. The pods run image busybox;
// kwok never runs it, the harness annotations decide how each pod ends.
func NewJob(ns string, spec JobSpec) *batchv1alpha1.Job {
	job := &batchv1alpha1.Job{
		ObjectMeta: metav1.ObjectMeta{Name: spec.Name, Namespace: ns},
		Spec: batchv1alpha1.JobSpec{
			SchedulerName: SchedulerName,
			MinAvailable:  spec.MinAvailable,
			Queue:         spec.Queue,
		},
	}
	for _, t := range spec.Tasks {
		job.Spec.Tasks = append(job.Spec.Tasks, newTask(t))
	}
	return job
}

func newTask(t Task) batchv1alpha1.TaskSpec {
	requests := corev1.ResourceList{}
	if t.CPU != "" {
		requests[corev1.ResourceCPU] = resource.MustParse(t.CPU)
	}
	if t.Memory != "" {
		requests[corev1.ResourceMemory] = resource.MustParse(t.Memory)
	}
	annotations := map[string]string{}
	for k, v := range t.Annotations {
		annotations[k] = v
	}
	return batchv1alpha1.TaskSpec{
		Name:     t.Name,
		Replicas: t.Replicas,
		Template: corev1.PodTemplateSpec{
			ObjectMeta: metav1.ObjectMeta{Annotations: annotations},
			Spec: corev1.PodSpec{
				SchedulerName: SchedulerName,
				RestartPolicy: corev1.RestartPolicyNever,
				NodeSelector:  t.NodeSelector,
				Tolerations:   t.Tolerations,
				Containers: []corev1.Container{{
					Name:      "main",
					Image:     "busybox",
					Command:   []string{"sh", "-c", "sleep 3600"},
					Resources: corev1.ResourceRequirements{Requests: requests},
				}},
			},
		},
	}
}

// queueNotReadyForWebhook matches the job-validation denials that only mean the webhook's
// queue cache has not caught up with a queue the test just created or opened.
func queueNotReadyForWebhook(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "unable to find job queue") ||
		strings.Contains(msg, "can only submit job to queue with state `Open`")
}

// CreateJob creates job and returns the stored object. The admission webhook checks the
// queue against an informer cache that lags the API server slightly, so a denial that
// only says the queue is unknown or not yet Open is retried for a short while.
func (f *Framework) CreateJob(job *batchv1alpha1.Job) *batchv1alpha1.Job {
	f.T.Helper()
	var created *batchv1alpha1.Job
	f.WaitFor("create job "+job.Namespace+"/"+job.Name, 30*time.Second, func() (bool, string, error) {
		out, err := f.Volcano.BatchV1alpha1().Jobs(job.Namespace).Create(ctx(), job, metav1.CreateOptions{})
		if err == nil {
			created = out
			return true, "created uid=" + string(out.UID), nil
		}
		if queueNotReadyForWebhook(err) {
			return false, "", err
		}
		f.T.Fatalf("create job %s/%s: %v", job.Namespace, job.Name, err)
		return false, "", err
	})
	return created
}

// GetJob reads a job; NotFound is returned as an error like any other.
func (f *Framework) GetJob(name string) (*batchv1alpha1.Job, error) {
	return f.Volcano.BatchV1alpha1().Jobs(f.Namespace).Get(ctx(), name, metav1.GetOptions{})
}

// JobStatusSummary renders the status fields a failure message needs.
func JobStatusSummary(j *batchv1alpha1.Job) string {
	s := j.Status
	return fmt.Sprintf("phase=%q pending=%d running=%d succeeded=%d failed=%d terminating=%d minAvailable=%d version=%d retry=%d",
		s.State.Phase, s.Pending, s.Running, s.Succeeded, s.Failed, s.Terminating, s.MinAvailable,
		s.Version, s.RetryCount)
}

// WaitJobPhase waits until the job's status.state.phase is phase.
func (f *Framework) WaitJobPhase(name string, phase batchv1alpha1.JobPhase, timeout time.Duration) *batchv1alpha1.Job {
	f.T.Helper()
	var last *batchv1alpha1.Job
	f.WaitFor(fmt.Sprintf("job %s phase %s", name, phase), timeout, func() (bool, string, error) {
		j, err := f.GetJob(name)
		if err != nil {
			return false, "", err
		}
		last = j
		return j.Status.State.Phase == phase, JobStatusSummary(j), nil
	})
	return last
}

// WaitJobGone waits until the job no longer exists.
func (f *Framework) WaitJobGone(name string, timeout time.Duration) {
	f.T.Helper()
	f.WaitFor("job "+name+" deleted", timeout, func() (bool, string, error) {
		j, err := f.GetJob(name)
		if apierrors.IsNotFound(err) {
			return true, "gone", nil
		}
		if err != nil {
			return false, "", err
		}
		return false, fmt.Sprintf("still present, deletionTimestamp=%v finalizers=%v %s",
			j.DeletionTimestamp, j.Finalizers, JobStatusSummary(j)), nil
	})
}

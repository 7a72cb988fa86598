package framework

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	batchv1alpha1 "volcano.sh/apis/pkg/apis/batch/v1alpha1"
	schedulingv1beta1 "volcano.sh/apis/pkg/apis/scheduling/v1beta1"
)

// JobTimeout bounds one step of a Job scenario (a phase change, pods appearing): the scheduler
// admits a PodGroup within a couple of its periods and kwok starts pods at once, so a minute is
// plenty even on a busy machine.
const JobTimeout = 90 * time.Second

// PodGroupName is the name the job controller gives a Job's PodGroup: <job>-<job uid>.
func PodGroupName(job *batchv1alpha1.Job) string {
	return job.Name + "-" + string(job.UID)
}

// ControlledBy reports whether obj's controller owner reference names the object with uid.
func ControlledBy(obj metav1.Object, uid types.UID) bool {
	ref := metav1.GetControllerOf(obj)
	return ref != nil && ref.UID == uid
}

// WaitJob waits until cond holds for the stored job and returns the job it last read.
func (f *Framework) WaitJob(name, what string, timeout time.Duration, cond func(*batchv1alpha1.Job) bool) *batchv1alpha1.Job {
	f.T.Helper()
	var last *batchv1alpha1.Job
	f.WaitFor(fmt.Sprintf("job %s: %s", name, what), timeout, func() (bool, string, error) {
		j, err := f.GetJob(name)
		if err != nil {
			return false, "", err
		}
		last = j
		return cond(j), JobStatusSummary(j), nil
	})
	return last
}

// ListJobPods lists the pods of the test namespace labelled with the job's name (every pod the
// job controller creates carries volcano.sh/job-name), whichever Job instance owns them.
func (f *Framework) ListJobPods(jobName string) ([]corev1.Pod, error) {
	list, err := f.Kube.CoreV1().Pods(f.Namespace).List(ctx(), metav1.ListOptions{
		LabelSelector: batchv1alpha1.JobNameKey + "=" + jobName})
	if err != nil {
		return nil, err
	}
	sort.Slice(list.Items, func(i, j int) bool { return list.Items[i].Name < list.Items[j].Name })
	return list.Items, nil
}

// WaitJobPods waits until cond holds for the job's pods (sorted by name) and returns them.
func (f *Framework) WaitJobPods(jobName, what string, timeout time.Duration, cond func([]corev1.Pod) bool) []corev1.Pod {
	f.T.Helper()
	var last []corev1.Pod
	f.WaitFor(fmt.Sprintf("pods of job %s: %s", jobName, what), timeout, func() (bool, string, error) {
		pods, err := f.ListJobPods(jobName)
		if err != nil {
			return false, "", err
		}
		last = pods
		return cond(pods), JobPodsSummary(pods), nil
	})
	return last
}

// JobPodsSummary renders what the Job scenarios look at in a pod: phase, owner, the job version
// and retry count it was created for, and whether it is being deleted.
func JobPodsSummary(pods []corev1.Pod) string {
	var parts []string
	for _, p := range pods {
		owner := "-"
		if ref := metav1.GetControllerOf(&p); ref != nil {
			owner = string(ref.UID)
		}
		deleting := ""
		if p.DeletionTimestamp != nil {
			deleting = " deleting"
		}
		parts = append(parts, fmt.Sprintf("%s(%s owner=%s version=%s retry=%s%s)", p.Name, p.Status.Phase, owner,
			p.Annotations[batchv1alpha1.JobVersion], p.Annotations[batchv1alpha1.JobRetryCountKey], deleting))
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// PodNames returns the names of pods in their order.
func PodNames(pods []corev1.Pod) []string {
	names := make([]string, 0, len(pods))
	for _, p := range pods {
		names = append(names, p.Name)
	}
	return names
}

// AllRunning reports whether there are exactly n pods, none being deleted, all bound and Running.
func AllRunning(pods []corev1.Pod, n int) bool {
	if len(pods) != n {
		return false
	}
	for _, p := range pods {
		if p.DeletionTimestamp != nil || p.Spec.NodeName == "" || p.Status.Phase != corev1.PodRunning {
			return false
		}
	}
	return true
}

// UpdateJob reads the job, applies mutate and writes it back, retrying on write conflicts (the
// controller updates the job's status concurrently). Any other error fails the test.
func (f *Framework) UpdateJob(name string, mutate func(*batchv1alpha1.Job)) *batchv1alpha1.Job {
	f.T.Helper()
	var out *batchv1alpha1.Job
	f.WaitFor("update job "+name, 30*time.Second, func() (bool, string, error) {
		j, err := f.GetJob(name)
		if err != nil {
			return false, "", err
		}
		mutate(j)
		out, err = f.Volcano.BatchV1alpha1().Jobs(f.Namespace).Update(ctx(), j, metav1.UpdateOptions{})
		if apierrors.IsConflict(err) {
			return false, "", err
		}
		if err != nil {
			f.T.Fatalf("update job %s: %v", name, err)
		}
		return true, "updated, resourceVersion " + out.ResourceVersion, nil
	})
	return out
}

// DeleteJob deletes a job with the given propagation policy (the API default when empty).
func (f *Framework) DeleteJob(name string, propagation metav1.DeletionPropagation) {
	f.T.Helper()
	opts := metav1.DeleteOptions{}
	if propagation != "" {
		opts.PropagationPolicy = &propagation
	}
	if err := f.Volcano.BatchV1alpha1().Jobs(f.Namespace).Delete(ctx(), name, opts); err != nil {
		f.T.Fatalf("delete job %s: %v", name, err)
	}
}

// GetPodGroup reads a PodGroup of the test namespace.
func (f *Framework) GetPodGroup(name string) (*schedulingv1beta1.PodGroup, error) {
	return f.Volcano.SchedulingV1beta1().PodGroups(f.Namespace).Get(ctx(), name, metav1.GetOptions{})
}

// WaitPodGroup waits until the named PodGroup exists and returns it.
func (f *Framework) WaitPodGroup(name string, timeout time.Duration) *schedulingv1beta1.PodGroup {
	f.T.Helper()
	var pg *schedulingv1beta1.PodGroup
	f.WaitFor("PodGroup "+name+" exists", timeout, func() (bool, string, error) {
		var err error
		pg, err = f.GetPodGroup(name)
		if apierrors.IsNotFound(err) {
			return false, "not found", nil
		}
		if err != nil {
			return false, "", err
		}
		return true, fmt.Sprintf("phase=%q minMember=%d", pg.Status.Phase, pg.Spec.MinMember), nil
	})
	return pg
}

// vcctlTimeout bounds one vcctl run.
const vcctlTimeout = 60 * time.Second

// VcctlPath finds Volcano's vcctl: $VCCTL, else the copy the cluster scripts cache under
// ~/.cache/vc-cpp/bin/volcano-*/, else vcctl on PATH.
func VcctlPath() (string, error) { return findTool("VCCTL", "volcano", "vcctl") }

// Vcctl runs vcctl against the cluster of KUBECONFIG (passed with -k, which every job
// subcommand accepts) and returns its output and exit code; failing to start it fails t.
func Vcctl(t testing.TB, args ...string) KubectlResult {
	t.Helper()
	path, err := VcctlPath()
	if err != nil {
		t.Fatalf("%v", err)
	}
	c, cancel := context.WithTimeout(context.Background(), vcctlTimeout)
	defer cancel()
	cmd := exec.CommandContext(c, path, append(args, "-k", os.Getenv("KUBECONFIG"))...)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	res := KubectlResult{Stdout: stdout.String(), Stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit) && c.Err() == nil:
		res.ExitCode = exit.ExitCode()
	default:
		t.Fatalf("vcctl %s: %v (%s)", strings.Join(args, " "), err, res)
	}
	t.Logf("vcctl %s: %s", strings.Join(args, " "), res)
	return res
}

package tests

import (
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	batchv1alpha1 "volcano.sh/apis/pkg/apis/batch/v1alpha1"

	"vc-cpp.local/e2e/tests/framework"
)

// TestJobDependsOn: the worker task depends on the master task, so the worker pods are created only
// once the master pod is Running with its containers ready (spec job-controller.md §4.6). The
// recorder's pod watch delivers pod changes in commit order, so "created after" is read from its
// sequence.
func TestJobDependsOn(t *testing.T) {
	f := framework.New(t, "e2e-job-depends")
	rec := f.NewRecorder()
	const name = "depends"
	// minAvailable 1: the gang is the master alone, otherwise the scheduler would wait for
	// workers that are only created once the master runs.
	spec := newJob(f, name, 1, runForever("master", 1), runForever("worker", 2))
	spec.Spec.Tasks[1].DependsOn = &batchv1alpha1.DependsOn{Name: []string{"master"}}
	job := f.CreateJob(spec)

	f.WaitJobPods(name, "master and 2 workers Running", 2*framework.JobTimeout, func(p []corev1.Pod) bool {
		return framework.AllRunning(p, 3)
	})
	events := rec.PodsOwnedBy(job.UID)
	masterRunning := -1
	firstWorker := map[string]int{}
	for _, e := range events {
		switch e.Name {
		case podName(name, "master", 0):
			if masterRunning < 0 && e.Phase == corev1.PodRunning {
				masterRunning = e.Seq
			}
		case podName(name, "worker", 0), podName(name, "worker", 1):
			if _, seen := firstWorker[e.Name]; !seen {
				firstWorker[e.Name] = e.Seq
			}
		}
	}
	if masterRunning < 0 {
		t.Fatalf("master pod never observed Running:\n%s", framework.PodTimeline(events))
	}
	for _, w := range []string{podName(name, "worker", 0), podName(name, "worker", 1)} {
		seq, ok := firstWorker[w]
		if !ok || seq < masterRunning {
			t.Errorf("worker pod %s first seen at #%d, master Running at #%d: want workers created only after the master runs\n%s",
				w, seq, masterRunning, framework.PodTimeline(events))
		}
	}
}

// TestJobScaleUpDown: raising a task's replicas creates the missing pods <job>-<task>-<i>;
// lowering them deletes the pods with index >= replicas and keeps the others
// (spec job-controller.md §7.1).
func TestJobScaleUpDown(t *testing.T) {
	f := framework.New(t, "e2e-job-scale")
	const name = "scale"
	one := int32(1)
	spec := newJob(f, name, 1, runForever("work", 2))
	spec.Spec.Tasks[0].MinAvailable = &one
	f.CreateJob(spec)

	initial := f.WaitJobPods(name, "2 Running", framework.JobTimeout, func(p []corev1.Pod) bool { return framework.AllRunning(p, 2) })
	keep := initial[0]
	setReplicas := func(n int32) {
		f.UpdateJob(name, func(j *batchv1alpha1.Job) { j.Spec.Tasks[0].Replicas = n })
	}
	wantNames := func(n int) string {
		var names []string
		for i := 0; i < n; i++ {
			names = append(names, podName(name, "work", i))
		}
		return fmt.Sprint(names)
	}

	setReplicas(4)
	f.WaitJobPods(name, "4 Running", framework.JobTimeout, func(p []corev1.Pod) bool {
		return framework.AllRunning(p, 4) && fmt.Sprint(framework.PodNames(p)) == wantNames(4)
	})
	f.WaitJob(name, "status counts 4 running", framework.JobTimeout, func(j *batchv1alpha1.Job) bool {
		return j.Status.Running == 4 && j.Status.State.Phase == batchv1alpha1.Running
	})

	setReplicas(1)
	pods := f.WaitJobPods(name, "only work-0 left", framework.JobTimeout, func(p []corev1.Pod) bool {
		return fmt.Sprint(framework.PodNames(p)) == wantNames(1)
	})
	if pods[0].UID != keep.UID {
		t.Errorf("pod %s was replaced while scaling (uid %s, was %s)", pods[0].Name, pods[0].UID, keep.UID)
	}
	f.WaitJob(name, "status counts 1 running", framework.JobTimeout, func(j *batchv1alpha1.Job) bool {
		return j.Status.Running == 1 && j.Status.State.Phase == batchv1alpha1.Running
	})
}

// TestJobDeleteCleansUp: deleting a running Job (default propagation) removes its pods, its
// PodGroup and the svc plugin's Service, ConfigMap and NetworkPolicy: everything the controller
// creates is owned by the Job (spec job-controller.md §0.6, §7.2).
func TestJobDeleteCleansUp(t *testing.T) {
	f := framework.New(t, "e2e-job-delete")
	const name = "doomed"
	spec := newJob(f, name, 2, runForever("work", 2))
	spec.Spec.Plugins = map[string][]string{"svc": {}}
	job := f.CreateJob(spec)
	f.WaitJobPods(name, "2 Running", framework.JobTimeout, func(p []corev1.Pod) bool { return framework.AllRunning(p, 2) })
	f.WaitPodGroup(framework.PodGroupName(job), framework.JobTimeout)
	f.WaitFor("svc plugin objects exist", framework.JobTimeout, svcObjectsCount(f, name, 3))

	f.DeleteJob(name, "")
	f.WaitJobGone(name, framework.JobTimeout)
	f.WaitFor("pods and PodGroup of the deleted job gone", framework.JobTimeout, liveOwned(f, job.UID, 0, 0, 0))
	f.WaitFor("svc plugin objects gone", framework.JobTimeout, svcObjectsCount(f, name, 0))
}

// svcObjectsCount waits for the number of svc plugin objects of the job (Service <job>,
// ConfigMap <job>-svc, NetworkPolicy <job>) that exist to be want.
func svcObjectsCount(f *framework.Framework, job string, want int) framework.Condition {
	return func() (bool, string, error) {
		var present []string
		if _, err := f.Kube.CoreV1().Services(f.Namespace).Get(f.T.Context(), job, metav1.GetOptions{}); err == nil {
			present = append(present, "Service")
		}
		if _, err := f.Kube.CoreV1().ConfigMaps(f.Namespace).Get(f.T.Context(), job+"-svc", metav1.GetOptions{}); err == nil {
			present = append(present, "ConfigMap")
		}
		if _, err := f.Kube.NetworkingV1().NetworkPolicies(f.Namespace).Get(f.T.Context(), job, metav1.GetOptions{}); err == nil {
			present = append(present, "NetworkPolicy")
		}
		return len(present) == want, fmt.Sprintf("present %v", present), nil
	}
}

// TestJobDeleteRecreateSameName (volcano#2044): a Job deleted and at once re-created under the
// same name converges: the new Job runs with pods controlled by the new UID and annotated with
// the new PodGroup <job>-<new uid>, and nothing of the old Job remains.
func TestJobDeleteRecreateSameName(t *testing.T) {
	f := framework.New(t, "e2e-job-recreate")
	const name = "again"
	build := func() *batchv1alpha1.Job { return newJob(f, name, 2, runForever("work", 2)) }
	old := f.CreateJob(build())
	f.WaitJobPods(name, "2 Running", framework.JobTimeout, func(p []corev1.Pod) bool { return framework.AllRunning(p, 2) })

	f.DeleteJob(name, "")
	var fresh *batchv1alpha1.Job
	f.WaitFor("re-create job "+name, 30*time.Second, func() (bool, string, error) {
		out, err := f.Volcano.BatchV1alpha1().Jobs(f.Namespace).Create(t.Context(), build(), metav1.CreateOptions{})
		if apierrors.IsAlreadyExists(err) {
			return false, "", err // the old object is still being removed
		}
		if err != nil {
			t.Fatalf("re-create job %s: %v", name, err)
		}
		fresh = out
		return true, "created uid=" + string(out.UID), nil
	})
	if fresh.UID == old.UID {
		t.Fatalf("re-created job has the old uid %s", old.UID)
	}

	f.WaitJobPods(name, "2 Running pods of the new job", 2*framework.JobTimeout, func(p []corev1.Pod) bool {
		if !framework.AllRunning(p, 2) {
			return false
		}
		for _, pod := range p {
			if !framework.ControlledBy(&pod, fresh.UID) ||
				pod.Annotations[framework.AnnotationGroupName] != framework.PodGroupName(fresh) {
				return false
			}
		}
		return true
	})
	f.WaitJob(name, "Running", framework.JobTimeout, phaseIs(batchv1alpha1.Running))
	f.WaitPodGroup(framework.PodGroupName(fresh), framework.JobTimeout)
	f.WaitFor("nothing of the old job left", framework.JobTimeout, liveOwned(f, old.UID, 0, 0, 0))
}

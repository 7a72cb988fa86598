package main

import (
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	batchv1alpha1 "volcano.sh/apis/pkg/apis/batch/v1alpha1"
	flowv1alpha1 "volcano.sh/apis/pkg/apis/flow/v1alpha1"
)

// schedulerName is the scheduler of every benchmark pod: the cluster's Volcano scheduler, which
// the controller-manager under test is started for (--scheduler-name=volcano).
const schedulerName = "volcano"

// succeedAfterAnnotation asks the cluster's kwok stages (e2e/cluster/kwok-stages.yaml) to end a
// Running pod Succeeded after the duration it holds.
const succeedAfterAnnotation = "harness.kwok.io/succeed-after"

// placement pins benchmark pods to the benchmark's nodes: run.sh labels those nodes key=value
// and taints them key=value:NoSchedule, so the pods select them and tolerate the taint, and no
// other test's pod lands there.
type placement struct {
	key, value string
}

func parsePlacement(s string) (placement, error) {
	key, value, ok := strings.Cut(s, "=")
	if !ok || key == "" || value == "" {
		return placement{}, fmt.Errorf("placement %q is not key=value", s)
	}
	return placement{key: key, value: value}, nil
}

// podSpec is what every benchmark pod runs: one container with tiny requests (the nodes are kwok
// fakes, nothing is pulled or started), placed on the benchmark nodes.
func podSpec(p placement) corev1.PodSpec {
	return corev1.PodSpec{
		SchedulerName: schedulerName,
		NodeSelector:  map[string]string{p.key: p.value},
		Tolerations: []corev1.Toleration{{
			Key: p.key, Operator: corev1.TolerationOpEqual, Value: p.value,
			Effect: corev1.TaintEffectNoSchedule,
		}},
		Containers: []corev1.Container{{
			Name:  "main",
			Image: "busybox",
			Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{
				corev1.ResourceCPU:    resource.MustParse("1m"),
				corev1.ResourceMemory: resource.MustParse("1Mi"),
			}},
		}},
	}
}

// jobName is the name of the i-th benchmark job; names sort in creation order.
func jobName(i int) string { return fmt.Sprintf("bench-%04d", i) }

// benchJob is the i-th benchmark job: tasks t0..t<tasks-1> of one replica each, all needed
// (minAvailable = tasks), in queue, so each job becomes one PodGroup of `tasks` pods.
func benchJob(i, tasks int, queue string, p placement) *batchv1alpha1.Job {
	job := &batchv1alpha1.Job{
		ObjectMeta: metav1.ObjectMeta{Name: jobName(i)},
		Spec: batchv1alpha1.JobSpec{
			SchedulerName: schedulerName,
			MinAvailable:  int32(tasks),
			Queue:         queue,
		},
	}
	for t := 0; t < tasks; t++ {
		job.Spec.Tasks = append(job.Spec.Tasks, batchv1alpha1.TaskSpec{
			Name:     fmt.Sprintf("t%d", t),
			Replicas: 1,
			Template: corev1.PodTemplateSpec{Spec: podSpec(p)},
		})
	}
	return job
}

// benchPod is the i-th pod of the ceiling run: the same spec as a job's task pod, no owner.
func benchPod(i int, p placement) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("pod-%05d", i)},
		Spec:       podSpec(p),
	}
}

// finishingJobSpec is the spec of a one-task, one-pod Volcano Job whose pod kwok ends Succeeded
// `after` it runs, so the Job completes: the Job of every CronJob run and JobFlow step.
func finishingJobSpec(queue string, p placement, after time.Duration) batchv1alpha1.JobSpec {
	return batchv1alpha1.JobSpec{
		SchedulerName: schedulerName,
		MinAvailable:  1,
		Queue:         queue,
		Tasks: []batchv1alpha1.TaskSpec{{
			Name:     "t0",
			Replicas: 1,
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{succeedAfterAnnotation: after.String()}},
				Spec:       podSpec(p),
			},
		}},
	}
}

// cronJobName is the name of the i-th benchmark CronJob; names sort in creation order.
func cronJobName(i int) string { return fmt.Sprintf("cron-%04d", i) }

// benchCronJob is the i-th benchmark CronJob: a run every minute, runs allowed to overlap, and
// `history` completed (and failed) Jobs kept, so that the namespace does not fill up with them.
func benchCronJob(i int, job batchv1alpha1.JobSpec, history int32) *batchv1alpha1.CronJob {
	return &batchv1alpha1.CronJob{
		ObjectMeta: metav1.ObjectMeta{Name: cronJobName(i)},
		Spec: batchv1alpha1.CronJobSpec{
			Schedule:                   "* * * * *",
			ConcurrencyPolicy:          batchv1alpha1.AllowConcurrent,
			SuccessfulJobsHistoryLimit: &history,
			FailedJobsHistoryLimit:     &history,
			JobTemplate:                batchv1alpha1.JobTemplateSpec{Spec: job},
		},
	}
}

// flowSteps is the DAG every benchmark JobFlow runs, one JobTemplate per step: a; then b and c
// after a; then d after b and c; then e after d.
var flowSteps = []flowv1alpha1.Flow{
	{Name: "a"},
	{Name: "b", DependsOn: &flowv1alpha1.DependsOn{Targets: []string{"a"}}},
	{Name: "c", DependsOn: &flowv1alpha1.DependsOn{Targets: []string{"a"}}},
	{Name: "d", DependsOn: &flowv1alpha1.DependsOn{Targets: []string{"b", "c"}}},
	{Name: "e", DependsOn: &flowv1alpha1.DependsOn{Targets: []string{"d"}}},
}

// benchJobTemplate is the JobTemplate of one step of flowSteps.
func benchJobTemplate(step string, job batchv1alpha1.JobSpec) *flowv1alpha1.JobTemplate {
	return &flowv1alpha1.JobTemplate{ObjectMeta: metav1.ObjectMeta{Name: step}, Spec: job}
}

// flowName is the name of the i-th benchmark JobFlow; its steps' Jobs are <flow>-<step>.
func flowName(i int) string { return fmt.Sprintf("flow-%04d", i) }

// benchJobFlow is the i-th benchmark JobFlow: flowSteps, its Jobs kept when it succeeds.
func benchJobFlow(i int) *flowv1alpha1.JobFlow {
	flows := make([]flowv1alpha1.Flow, len(flowSteps))
	for k := range flowSteps {
		flowSteps[k].DeepCopyInto(&flows[k])
	}
	return &flowv1alpha1.JobFlow{
		ObjectMeta: metav1.ObjectMeta{Name: flowName(i)},
		Spec:       flowv1alpha1.JobFlowSpec{Flows: flows, JobRetainPolicy: flowv1alpha1.Retain},
	}
}

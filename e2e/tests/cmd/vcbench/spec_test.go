package main

import (
	"reflect"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	batchv1alpha1 "volcano.sh/apis/pkg/apis/batch/v1alpha1"
	flowv1alpha1 "volcano.sh/apis/pkg/apis/flow/v1alpha1"
)

func TestBenchJobNeedsEveryTaskAndPinsPodsToTheBenchNodes(t *testing.T) {
	p := placement{key: "example.com/bench", value: "controller"}
	job := benchJob(7, 4, "bench", p)
	if job.Name != "bench-0007" || job.Spec.MinAvailable != 4 || job.Spec.Queue != "bench" ||
		job.Spec.SchedulerName != "volcano" || len(job.Spec.Tasks) != 4 {
		t.Fatalf("job = %s minAvailable %d queue %q scheduler %q tasks %d", job.Name,
			job.Spec.MinAvailable, job.Spec.Queue, job.Spec.SchedulerName, len(job.Spec.Tasks))
	}
	for i, task := range job.Spec.Tasks {
		if task.Replicas != 1 {
			t.Errorf("task %d has %d replicas, want 1", i, task.Replicas)
		}
		checkPlacement(t, task.Name, task.Template.Spec, p)
	}
	if job.Spec.Tasks[0].Name == job.Spec.Tasks[1].Name {
		t.Errorf("task names repeat: %q", job.Spec.Tasks[0].Name)
	}
}

func TestBenchPodHasTheTaskPodSpec(t *testing.T) {
	p := placement{key: "k", value: "v"}
	pod := benchPod(12, p)
	if pod.Name != "pod-00012" {
		t.Errorf("name = %q, want pod-00012", pod.Name)
	}
	checkPlacement(t, pod.Name, pod.Spec, p)
}

func checkPlacement(t *testing.T, what string, spec corev1.PodSpec, p placement) {
	t.Helper()
	if spec.SchedulerName != "volcano" || spec.NodeSelector[p.key] != p.value {
		t.Errorf("%s: scheduler %q nodeSelector %v", what, spec.SchedulerName, spec.NodeSelector)
	}
	want := corev1.Toleration{Key: p.key, Operator: corev1.TolerationOpEqual, Value: p.value,
		Effect: corev1.TaintEffectNoSchedule}
	if len(spec.Tolerations) != 1 || spec.Tolerations[0] != want {
		t.Errorf("%s: tolerations %v, want only %v", what, spec.Tolerations, want)
	}
}

func TestParsePlacementRequiresKeyAndValue(t *testing.T) {
	if p, err := parsePlacement("a/b=c"); err != nil || p.key != "a/b" || p.value != "c" {
		t.Errorf(`parsePlacement("a/b=c") = %+v, %v`, p, err)
	}
	for _, bad := range []string{"", "a", "=c", "a="} {
		if _, err := parsePlacement(bad); err == nil {
			t.Errorf("parsePlacement(%q) accepted", bad)
		}
	}
}

func TestFinishingJobSpecRunsOnePodThatKwokEnds(t *testing.T) {
	p := placement{key: "k", value: "v"}
	spec := finishingJobSpec("bench", p, 1500*time.Millisecond)
	if spec.MinAvailable != 1 || spec.Queue != "bench" || spec.SchedulerName != "volcano" ||
		len(spec.Tasks) != 1 || spec.Tasks[0].Replicas != 1 {
		t.Fatalf("spec = %+v, want one task of one replica in queue bench", spec)
	}
	if got := spec.Tasks[0].Template.Annotations[succeedAfterAnnotation]; got != "1.5s" {
		t.Errorf("succeed-after annotation = %q, want 1.5s", got)
	}
	checkPlacement(t, "task t0", spec.Tasks[0].Template.Spec, p)
}

func TestBenchCronJobRunsEveryMinuteAndKeepsLittleHistory(t *testing.T) {
	cj := benchCronJob(3, finishingJobSpec("bench", placement{key: "k", value: "v"}, time.Second), 1)
	s := cj.Spec
	if cj.Name != "cron-0003" || s.Schedule != "* * * * *" || s.ConcurrencyPolicy != batchv1alpha1.AllowConcurrent {
		t.Errorf("cronjob %s schedule %q policy %q", cj.Name, s.Schedule, s.ConcurrencyPolicy)
	}
	if s.SuccessfulJobsHistoryLimit == nil || *s.SuccessfulJobsHistoryLimit != 1 ||
		s.FailedJobsHistoryLimit == nil || *s.FailedJobsHistoryLimit != 1 {
		t.Errorf("history limits %v %v, want 1 and 1", s.SuccessfulJobsHistoryLimit, s.FailedJobsHistoryLimit)
	}
	if len(s.JobTemplate.Spec.Tasks) != 1 || s.JobTemplate.Spec.Queue != "bench" {
		t.Errorf("job template = %+v", s.JobTemplate.Spec)
	}
}

func TestBenchJobFlowRunsTheFiveStepDag(t *testing.T) {
	flow := benchJobFlow(12)
	if flow.Name != "flow-0012" || flow.Spec.JobRetainPolicy != flowv1alpha1.Retain {
		t.Errorf("flow %s retain policy %q", flow.Name, flow.Spec.JobRetainPolicy)
	}
	deps := map[string]string{}
	for _, step := range flow.Spec.Flows {
		deps[step.Name] = ""
		if step.DependsOn != nil {
			deps[step.Name] = strings.Join(step.DependsOn.Targets, ",")
		}
	}
	want := map[string]string{"a": "", "b": "a", "c": "a", "d": "b,c", "e": "d"}
	if !reflect.DeepEqual(deps, want) {
		t.Errorf("steps and their targets = %v, want %v", deps, want)
	}
	// Each flow owns its steps: changing one flow leaves the next one alone.
	flow.Spec.Flows[1].DependsOn.Targets[0] = "changed"
	if again := benchJobFlow(13); again.Spec.Flows[1].DependsOn.Targets[0] != "a" {
		t.Errorf("benchJobFlow shares its steps between flows")
	}
	if jt := benchJobTemplate("d", finishingJobSpec("bench", placement{key: "k", value: "v"}, time.Second)); jt.Name != "d" ||
		len(jt.Spec.Tasks) != 1 {
		t.Errorf("job template %s with %d tasks, want d with 1", jt.Name, len(jt.Spec.Tasks))
	}
}

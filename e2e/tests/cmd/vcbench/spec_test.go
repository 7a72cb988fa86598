package main

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
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

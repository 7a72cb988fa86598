package tests

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	batchv1alpha1 "volcano.sh/apis/pkg/apis/batch/v1alpha1"

	"vc-cpp.local/e2e/tests/framework"
)

// updateJob reads the job, applies change and writes it back, retrying write conflicts (the
// job controller writes the job's status concurrently). It returns the error of the write.
func updateJob(t *testing.T, f *framework.Framework, name string, change func(*batchv1alpha1.Job)) error {
	t.Helper()
	jobs := f.Volcano.BatchV1alpha1().Jobs(f.Namespace)
	var err error
	for attempt := 0; attempt < 10; attempt++ {
		var j *batchv1alpha1.Job
		j, err = jobs.Get(t.Context(), name, metav1.GetOptions{})
		if err != nil {
			t.Fatalf("get job %s: %v", name, err)
		}
		change(j)
		_, err = jobs.Update(t.Context(), j, metav1.UpdateOptions{})
		if !apierrors.IsConflict(err) {
			return err
		}
	}
	return err
}

// TestWebhookJobUpdates: on UPDATE, /jobs/validate lets only minAvailable, the tasks' replicas
// and minAvailable (and priorityClassName) change, still within the replica rules, and leaves
// metadata alone (spec webhook.md §3.1). A denied update leaves the stored spec unchanged.
func TestWebhookJobUpdates(t *testing.T) {
	f := framework.New(t, "e2e-wh-jobupd")
	queue := "e2e-wh-jobupd-" + f.Suffix
	f.CreateQueue(queue, 1)
	name := "updated"
	f.CreateJob(framework.NewJob(f.Namespace, framework.JobSpec{
		Name: name, Queue: queue, MinAvailable: 3,
		Tasks: []framework.Task{{Name: "head", Replicas: 1, CPU: "10m"}, {Name: "worker", Replicas: 2, CPU: "10m"}},
	}))

	type check func(t *testing.T, j *batchv1alpha1.Job)
	cases := []struct {
		name   string
		change func(*batchv1alpha1.Job)
		parts  []string // nil: the update is admitted
		stored check    // for admitted updates: what the stored job shows
	}{{
		name:   "lower job minAvailable",
		change: func(j *batchv1alpha1.Job) { j.Spec.MinAvailable = 2 },
		stored: func(t *testing.T, j *batchv1alpha1.Job) {
			if j.Spec.MinAvailable != 2 {
				t.Errorf("minAvailable %d, want 2", j.Spec.MinAvailable)
			}
		},
	}, {
		name:   "raise task replicas and task minAvailable",
		change: func(j *batchv1alpha1.Job) { j.Spec.Tasks[1].Replicas = 3; j.Spec.Tasks[1].MinAvailable = int32p(1) },
		stored: func(t *testing.T, j *batchv1alpha1.Job) {
			w := j.Spec.Tasks[1]
			if w.Replicas != 3 || w.MinAvailable == nil || *w.MinAvailable != 1 {
				t.Errorf("worker replicas=%d minAvailable=%v, want 3 and 1", w.Replicas, w.MinAvailable)
			}
		},
	}, {
		name:   "change labels",
		change: func(j *batchv1alpha1.Job) { j.Labels = map[string]string{"e2e": "relabelled"} },
		stored: func(t *testing.T, j *batchv1alpha1.Job) {
			if j.Labels["e2e"] != "relabelled" {
				t.Errorf("labels %v, want e2e=relabelled", j.Labels)
			}
		},
	}, {
		name:   "change a task template",
		change: func(j *batchv1alpha1.Job) { j.Spec.Tasks[0].Template.Spec.Containers[0].Image = "nginx" },
		parts:  []string{immutableJobFieldsMsg},
	}, {
		name: "change a task template's resources",
		change: func(j *batchv1alpha1.Job) {
			c := &j.Spec.Tasks[0].Template.Spec.Containers[0]
			c.Resources.Limits = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1")}
		},
		parts: []string{immutableJobFieldsMsg},
	}, {
		name:   "move to another queue",
		change: func(j *batchv1alpha1.Job) { j.Spec.Queue = "default" },
		parts:  []string{immutableJobFieldsMsg},
	}, {
		name:   "change maxRetry",
		change: func(j *batchv1alpha1.Job) { j.Spec.MaxRetry = 5 },
		parts:  []string{immutableJobFieldsMsg},
	}, {
		name:   "change schedulerName",
		change: func(j *batchv1alpha1.Job) { j.Spec.SchedulerName = "other-scheduler" },
		parts:  []string{immutableJobFieldsMsg},
	}, {
		name:   "add a plugin",
		change: func(j *batchv1alpha1.Job) { j.Spec.Plugins = map[string][]string{"env": {}} },
		parts:  []string{immutableJobFieldsMsg},
	}, {
		name: "add a task",
		change: func(j *batchv1alpha1.Job) {
			j.Spec.Tasks = append(j.Spec.Tasks, *j.Spec.Tasks[1].DeepCopy())
			j.Spec.Tasks[2].Name = "extra"
		},
		parts: []string{"job updates may not add or remove tasks"},
	}, {
		name:   "remove a task",
		change: func(j *batchv1alpha1.Job) { j.Spec.Tasks = j.Spec.Tasks[1:]; j.Spec.MinAvailable = 1 },
		parts:  []string{"job updates may not add or remove tasks"},
	}, {
		name:   "job minAvailable above total replicas",
		change: func(j *batchv1alpha1.Job) { j.Spec.MinAvailable = 99 },
		parts:  []string{"job 'minAvailable' must not be greater than total replicas"},
	}, {
		name:   "task minAvailable above its replicas",
		change: func(j *batchv1alpha1.Job) { j.Spec.Tasks[1].MinAvailable = int32p(9) },
		parts:  []string{"'minAvailable' must be <= 'replicas' in task: worker"},
	}}

	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before, err := f.GetJob(name)
			if err != nil {
				t.Fatalf("get job: %v", err)
			}
			err = updateJob(t, f, name, tc.change)
			after, getErr := f.GetJob(name)
			if getErr != nil {
				t.Fatalf("get job after the update: %v", getErr)
			}
			if tc.parts == nil {
				if err != nil {
					t.Fatalf("update was refused: %v", err)
				}
				tc.stored(t, after)
				return
			}
			framework.ExpectDenied(t, err, framework.WebhookValidateJob, tc.parts...)
			if !equality.Semantic.DeepEqual(before.Spec, after.Spec) {
				t.Errorf("stored spec changed by a denied update:\nbefore %+v\nafter  %+v", before.Spec, after.Spec)
			}
		})
	}
}

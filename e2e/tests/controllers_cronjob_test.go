package tests

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	batchv1alpha1 "volcano.sh/apis/pkg/apis/batch/v1alpha1"

	"vc-cpp.local/e2e/tests/framework"
)

// The CronJob tests use "@every 10s" schedules: robfig's constant-delay schedules, which both
// webhooks accept, give a run every ten seconds from the CronJob's creation. A Job is named after
// its run's minute, so runs within one minute share a name and at most one Job a minute is made:
// the tests wait for conditions on runs (about a minute apart), never for a fixed time.
const cronEvery = "@every 10s"

func newCronJob(ns, name string, policy batchv1alpha1.ConcurrencyPolicy, succeedAfter string) *batchv1alpha1.CronJob {
	job := framework.NewJob(ns, framework.JobSpec{
		Name: "template", Queue: "default", MinAvailable: 1,
		Tasks: []framework.Task{{Name: "work", Replicas: 1, CPU: "100m",
			Annotations: map[string]string{framework.AnnotationSucceedAfter: succeedAfter}}},
	})
	return &batchv1alpha1.CronJob{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec: batchv1alpha1.CronJobSpec{
			Schedule:          cronEvery,
			ConcurrencyPolicy: policy,
			JobTemplate: batchv1alpha1.JobTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"cron": name},
					Annotations: map[string]string{"from": "template"}},
				Spec: job.Spec,
			},
		},
	}
}

// cronJobs lists the Volcano Jobs the CronJob controls, oldest first.
func cronJobs(f *framework.Framework, cj *batchv1alpha1.CronJob) ([]batchv1alpha1.Job, error) {
	list, err := f.Volcano.BatchV1alpha1().Jobs(f.Namespace).List(f.T.Context(), metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	var out []batchv1alpha1.Job
	for _, j := range list.Items {
		if ref := metav1.GetControllerOf(&j); ref != nil && ref.UID == cj.UID {
			out = append(out, j)
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].CreationTimestamp.Before(&out[b].CreationTimestamp) })
	return out, nil
}

func jobsSummary(jobs []batchv1alpha1.Job) string {
	var parts []string
	for _, j := range jobs {
		parts = append(parts, fmt.Sprintf("%s=%s", j.Name, j.Status.State.Phase))
	}
	return "[" + strings.Join(parts, " ") + "]"
}

func cronEventReasons(f *framework.Framework, name string) (map[string]int, error) {
	evs, err := f.Kube.CoreV1().Events(f.Namespace).List(f.T.Context(), metav1.ListOptions{
		FieldSelector: "involvedObject.kind=CronJob,involvedObject.name=" + name})
	if err != nil {
		return nil, err
	}
	out := map[string]int{}
	for _, e := range evs.Items {
		out[e.Reason] += int(max(e.Count, 1))
	}
	return out, nil
}

// TestControllersCronJobRunsAndKeepsHistory: an Allow CronJob makes a Job per run, named
// <cronjob>-<scheduled unix minutes> with the template's labels and annotations, the
// scheduled-timestamp annotation and a controller reference; completed Jobs leave
// status.active and set lastSuccessfulTime; with successfulJobsHistoryLimit 1 older completed
// Jobs are deleted (spec controller-manager.md §5.4).
func TestControllersCronJobRunsAndKeepsHistory(t *testing.T) {
	f := framework.New(t, "e2e-ctl-cron")
	f.WaitQueueOpen("default")
	cj := newCronJob(f.Namespace, "tick", batchv1alpha1.AllowConcurrent, "1s")
	one := int32(1)
	cj.Spec.SuccessfulJobsHistoryLimit = &one
	cj, err := f.Volcano.BatchV1alpha1().CronJobs(f.Namespace).Create(f.T.Context(), cj, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create cronjob: %v", err)
	}
	created := cj.CreationTimestamp.Time

	// Two runs completed, the older one deleted by the history limit.
	var completed int
	f.WaitFor("two runs of tick completed, history trimmed to one", 3*time.Minute, func() (bool, string, error) {
		jobs, err := cronJobs(f, cj)
		if err != nil {
			return false, "", err
		}
		completed = 0
		for _, j := range jobs {
			if j.Status.State.Phase == batchv1alpha1.Completed {
				completed++
			}
		}
		reasons, err := cronEventReasons(f, "tick")
		if err != nil {
			return false, "", err
		}
		return reasons["SuccessfulCreate"] >= 2 && reasons["SuccessfulDelete"] >= 1 && completed <= 1,
			fmt.Sprintf("jobs %s events %v", jobsSummary(jobs), reasons), nil
	})

	jobs, err := cronJobs(f, cj)
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range jobs {
		if j.Labels["cron"] != "tick" || j.Annotations["from"] != "template" {
			t.Errorf("job %s lacks the template's labels or annotations: %v %v", j.Name, j.Labels, j.Annotations)
		}
		stamp, err := time.Parse(time.RFC3339, j.Annotations[batchv1alpha1.CronJobScheduledTimestampAnnotation])
		if err != nil {
			t.Errorf("job %s: scheduled timestamp annotation: %v", j.Name, err)
			continue
		}
		if want := fmt.Sprintf("tick-%d", stamp.Unix()/60); j.Name != want {
			t.Errorf("job named %s, want %s for the run at %s", j.Name, want, stamp)
		}
		if since := stamp.Sub(created); since < 10*time.Second || since%(10*time.Second) != 0 {
			t.Errorf("job %s scheduled at %s: not a 10 s step from the creation at %s", j.Name, stamp, created)
		}
		if ref := metav1.GetControllerOf(&j); ref == nil || ref.Kind != "CronJob" || ref.Name != "tick" {
			t.Errorf("job %s has controller %v, want the CronJob", j.Name, ref)
		}
	}

	got, err := f.Volcano.BatchV1alpha1().CronJobs(f.Namespace).Get(f.T.Context(), "tick", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Status.LastScheduleTime == nil || got.Status.LastSuccessfulTime == nil {
		t.Errorf("status lacks lastScheduleTime or lastSuccessfulTime: %+v", got.Status)
	}
	for _, ref := range got.Status.Active {
		for _, j := range jobs {
			if j.UID == ref.UID && j.Status.State.Phase == batchv1alpha1.Completed {
				t.Errorf("completed job %s still in status.active", j.Name)
			}
		}
	}
}

// TestControllersCronJobForbidAndSuspend: with Forbid, a run that comes while the previous Job
// still runs is skipped (ForbidConcurrent), so only one Job exists; a suspended CronJob makes
// no Jobs at all.
func TestControllersCronJobForbidAndSuspend(t *testing.T) {
	f := framework.New(t, "e2e-ctl-cronf")
	f.WaitQueueOpen("default")
	forbid := newCronJob(f.Namespace, "forbid", batchv1alpha1.ForbidConcurrent, "10m")
	forbid, err := f.Volcano.BatchV1alpha1().CronJobs(f.Namespace).Create(f.T.Context(), forbid, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create cronjob: %v", err)
	}
	suspended := newCronJob(f.Namespace, "paused", batchv1alpha1.AllowConcurrent, "1s")
	yes := true
	suspended.Spec.Suspend = &yes
	suspended, err = f.Volcano.BatchV1alpha1().CronJobs(f.Namespace).Create(f.T.Context(), suspended, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create cronjob: %v", err)
	}

	most, seenJobs := 0, ""
	f.WaitFor("a run of forbid skipped while its first Job runs", 90*time.Second, func() (bool, string, error) {
		jobs, err := cronJobs(f, forbid)
		if err != nil {
			return false, "", err
		}
		reasons, err := cronEventReasons(f, "forbid")
		if err != nil {
			return false, "", err
		}
		if len(jobs) > most {
			most, seenJobs = len(jobs), jobsSummary(jobs)
		}
		return len(jobs) >= 1 && reasons["ForbidConcurrent"] >= 1,
			fmt.Sprintf("jobs %s events %v", jobsSummary(jobs), reasons), nil
	})
	if most > 1 {
		t.Errorf("Forbid made a second job while the first ran: %s", seenJobs)
	}
	got, err := f.Volcano.BatchV1alpha1().CronJobs(f.Namespace).Get(f.T.Context(), "forbid", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Status.Active) != 1 {
		t.Errorf("forbid status.active = %v, want the one running Job", got.Status.Active)
	}
	jobs, err := cronJobs(f, suspended)
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 0 {
		t.Errorf("suspended CronJob made jobs: %s", jobsSummary(jobs))
	}
	if evs, err := cronEventReasons(f, "paused"); err == nil && evs["SuccessfulCreate"] != 0 {
		t.Errorf("suspended CronJob recorded SuccessfulCreate: %v", evs)
	}
}

// TestControllersCronJobActiveListIsTheRunningJobs: under each concurrency policy, status.active
// names exactly the CronJob's running Jobs, and the controller never reports its own Jobs stale
// or orphaned. Replace deletes the running Job at the next minute's run and makes the new one;
// Forbid skips the runs while its Job runs; Allow keeps both. The new Job of a run is recorded in
// status.active at once, when the controller's Job cache may not have seen it yet: a controller
// that trusted that cache over its own write dropped it as "no longer exists" (StaleReference)
// and then called it orphaned (OrphanedJob), leaving status.active empty while the Job ran. Run
// under the lagging-cache mode (make e2e-lag) this finds such a decision at once.
func TestControllersCronJobActiveListIsTheRunningJobs(t *testing.T) {
	f := framework.New(t, "e2e-ctl-cronact")
	f.WaitQueueOpen("default")
	policies := map[string]batchv1alpha1.ConcurrencyPolicy{
		"replace": batchv1alpha1.ReplaceConcurrent,
		"forbid":  batchv1alpha1.ForbidConcurrent,
		"allow":   batchv1alpha1.AllowConcurrent,
	}
	made := map[string]*batchv1alpha1.CronJob{}
	for name, policy := range policies {
		cj, err := f.Volcano.BatchV1alpha1().CronJobs(f.Namespace).Create(f.T.Context(),
			newCronJob(f.Namespace, name, policy, "10m"), metav1.CreateOptions{})
		if err != nil {
			t.Fatalf("create cronjob %s: %v", name, err)
		}
		made[name] = cj
	}

	// Each policy has acted on a second minute's run.
	f.WaitFor("replace replaced its Job, forbid skipped a run, allow made a second Job", 3*time.Minute, func() (bool, string, error) {
		var notes []string
		done := true
		for _, name := range []string{"replace", "forbid", "allow"} {
			jobs, err := cronJobs(f, made[name])
			if err != nil {
				return false, "", err
			}
			reasons, err := cronEventReasons(f, name)
			if err != nil {
				return false, "", err
			}
			notes = append(notes, fmt.Sprintf("%s: jobs %s events %v", name, jobsSummary(jobs), reasons))
			switch name {
			case "replace":
				done = done && reasons["ReplaceConcurrent"] >= 1 && reasons["SuccessfulCreate"] >= 2
			case "forbid":
				done = done && reasons["ForbidConcurrent"] >= 1
			case "allow":
				done = done && reasons["SuccessfulCreate"] >= 2
			}
		}
		return done, strings.Join(notes, "; "), nil
	})

	// status.active settles on the running Jobs (a status write trails the Job it records).
	for _, name := range []string{"replace", "forbid", "allow"} {
		f.WaitFor("status.active of "+name+" is its running Jobs", 30*time.Second, func() (bool, string, error) {
			jobs, err := cronJobs(f, made[name])
			if err != nil {
				return false, "", err
			}
			running := map[string]string{}
			for _, j := range jobs {
				if j.DeletionTimestamp == nil && j.Status.State.Phase != batchv1alpha1.Completed &&
					j.Status.State.Phase != batchv1alpha1.Failed && j.Status.State.Phase != batchv1alpha1.Terminated {
					running[string(j.UID)] = j.Name
				}
			}
			got, err := f.Volcano.BatchV1alpha1().CronJobs(f.Namespace).Get(f.T.Context(), name, metav1.GetOptions{})
			if err != nil {
				return false, "", err
			}
			active := map[string]string{}
			for _, ref := range got.Status.Active {
				active[string(ref.UID)] = ref.Name
			}
			same := len(active) == len(running)
			for uid := range running {
				_, ok := active[uid]
				same = same && ok
			}
			// Replace and Forbid run one Job at a time; Allow has made two by now (or a third).
			count := len(running) == 1
			if name == "allow" {
				count = len(running) >= 2
			}
			return same && count, fmt.Sprintf("running %v, status.active %v", running, active), nil
		})
	}

	for _, name := range []string{"replace", "forbid", "allow"} {
		reasons, err := cronEventReasons(f, name)
		if err != nil {
			t.Fatal(err)
		}
		if reasons["StaleReference"] != 0 || reasons["OrphanedJob"] != 0 {
			t.Errorf("%s: the controller reported its own Jobs stale or orphaned: events %v", name, reasons)
		}
		if name == "replace" && reasons["SuccessfulDelete"] < 1 {
			t.Errorf("replace: no SuccessfulDelete for the replaced Job: events %v", reasons)
		}
	}
}

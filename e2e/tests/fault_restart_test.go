package tests

import (
	"fmt"
	"net/http"
	"syscall"
	"testing"
	"time"

	batchv1alpha1 "volcano.sh/apis/pkg/apis/batch/v1alpha1"

	"vc-cpp.local/e2e/tests/framework"
)

// Fault scenarios: a component of the local cluster is killed while the
// controller-manager is busy, e2e/cluster/up.sh brings it back, and every job must still
// converge with nothing created twice. Each test restores the cluster with up.sh at cleanup.

// TestFaultControllerKilledWhileJobsAreCreated kills -9 the controller-manager halfway through
// the concurrent creation of 200 jobs, lets the rest be created while it is down, restarts it
// with up.sh, and checks every job completes with one PodGroup and one pod, each created once.
func TestFaultControllerKilledWhileJobsAreCreated(t *testing.T) {
	const jobCount, killAfter = 200, 100
	cluster := framework.LoadLocalCluster(t)
	f := framework.New(t, "e2e-fault-cm-kill")
	cluster.RestoreAtCleanup(t)
	podLog, pgLog := startPodLog(t, f), startPodGroupLog(t, f)
	oldPid := cluster.AlivePid(t, "controllers")

	names := make([]string, jobCount)
	jobs := make([]*batchv1alpha1.Job, jobCount)
	for i := range jobs {
		names[i] = fmt.Sprintf("job-%03d", i)
		jobs[i] = faultJob(f.Namespace, names[i], 1, "20s")
	}
	halfway := make(chan struct{})
	createErrs := make(chan []error, 1)
	start := time.Now()
	go func() {
		createErrs <- createJobsConcurrently(f, jobs, 8, func(n int64) {
			if n == killAfter {
				close(halfway)
			}
		})
	}()
	select {
	case <-halfway:
	case errs := <-createErrs:
		t.Fatalf("job creation ended before %d jobs were created: %v", killAfter, errs)
	case <-time.After(2 * time.Minute):
		t.Fatalf("fewer than %d jobs created within 2 minutes", killAfter)
	}
	framework.KillPid(t, oldPid, syscall.SIGKILL)
	framework.WaitPidGone(t, oldPid, 10*time.Second)
	t.Logf("killed the controller-manager (pid %d) %v after the first create, with %d jobs created, "+
		"%d PodGroups and %d pods seen so far", oldPid, time.Since(start).Round(time.Millisecond), killAfter,
		len(pgLog.snapshot()), len(podLog.snapshot()))

	// The remaining jobs are created while no controller runs: the restarted one must find
	// them in its initial list, next to the ones its predecessor left half-synced.
	if errs := <-createErrs; len(errs) > 0 {
		t.Fatalf("%d jobs could not be created; first: %v", len(errs), errs[0])
	}
	t.Logf("all %d jobs created after %v; restarting the controller-manager with up.sh",
		jobCount, time.Since(start).Round(time.Millisecond))
	if !cluster.Up(t) {
		t.FailNow()
	}
	newPid := cluster.AlivePid(t, "controllers")
	if newPid == oldPid {
		t.Fatalf("up.sh left pid %d in the pid file: the controller-manager was not restarted", newPid)
	}

	final := waitJobsCompleted(t, f, names, 4*time.Minute)
	t.Logf("all %d jobs Completed %v after the first create", jobCount, time.Since(start).Round(time.Second))
	assertConvergedOnce(t, final, names, 1, podLog, pgLog)
}

// TestFaultApiServerRestart kills -9 kube-apiserver while 20 jobs run and has up.sh start it
// again: every job completes, nothing is created twice, and the controller-manager rode out
// the outage in the same process and reports healthy.
func TestFaultApiServerRestart(t *testing.T) {
	const jobCount, replicas = 20, 2
	cluster := framework.LoadLocalCluster(t)
	f := framework.New(t, "e2e-fault-apiserver")
	cluster.RestoreAtCleanup(t)
	podLog, pgLog := startPodLog(t, f), startPodGroupLog(t, f)
	cmPid := cluster.AlivePid(t, "controllers")

	names := make([]string, jobCount)
	jobs := make([]*batchv1alpha1.Job, jobCount)
	for i := range jobs {
		names[i] = fmt.Sprintf("job-%02d", i)
		jobs[i] = faultJob(f.Namespace, names[i], replicas, "25s")
	}
	if errs := createJobsConcurrently(f, jobs, 4, func(int64) {}); len(errs) > 0 {
		t.Fatalf("%d jobs could not be created; first: %v", len(errs), errs[0])
	}
	// Restart while the pods run. They succeed 25 s after starting and the API server takes
	// 10-20 s to come back, so the controller sees some finish in its relist after the
	// outage and others through its re-established watches.
	for _, n := range names {
		f.WaitJobPhase(n, batchv1alpha1.Running, framework.JobTimeout)
	}

	apiPid := cluster.AlivePid(t, "kube-apiserver")
	killedAt := time.Now()
	framework.KillPid(t, apiPid, syscall.SIGKILL)
	framework.WaitPidGone(t, apiPid, 10*time.Second)
	if code, _, err := framework.HTTPGet(cluster.ControllersHealthz()); err != nil {
		t.Logf("controller-manager healthz during the outage: %v", err)
	} else {
		t.Logf("controller-manager healthz during the outage: HTTP %d", code)
	}
	if !cluster.Up(t) {
		t.FailNow()
	}
	t.Logf("kube-apiserver back (new pid %d) %v after the kill", cluster.AlivePid(t, "kube-apiserver"),
		time.Since(killedAt).Round(time.Millisecond))

	final := waitJobsCompleted(t, f, names, 3*time.Minute)
	t.Logf("all %d jobs Completed %v after the kill", jobCount, time.Since(killedAt).Round(time.Second))
	assertConvergedOnce(t, final, names, replicas, podLog, pgLog)

	if pid, err := cluster.Pid("controllers"); err != nil || pid != cmPid || !framework.ProcessAlive(cmPid) {
		t.Errorf("the controller-manager did not survive the API server restart: pid before %d, pid file now %d "+
			"(err %v), old process alive %v", cmPid, pid, err, framework.ProcessAlive(cmPid))
	}
	code, body, err := framework.HTTPGet(cluster.ControllersHealthz())
	if err != nil || code != http.StatusOK {
		t.Errorf("controller-manager %s after the restart: HTTP %d %q, err %v",
			cluster.ControllersHealthz(), code, framework.Tail(body, 3), err)
	}
}

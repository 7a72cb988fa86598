package tests

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	batchv1alpha1 "volcano.sh/apis/pkg/apis/batch/v1alpha1"

	"vc-cpp.local/e2e/tests/framework"
)

const (
	leaseNamespace = "volcano-system"
	leaseName      = "vc-controller-manager"
)

// maxTakeover bounds the time from kill -9 of the leader until the other replica holds the
// Lease. Our target is 17 s: the 15 s lease duration plus one 2 s retry period.
// Volcano's elector (client-go) cannot promise that: it counts the lease duration from when it
// first saw the last renewal and polls every retry period plus up to 120% jitter (2 to 4.4 s),
// so it may see the renewal 4.4 s late and the expiry 4.4 s late again: 15 + 2 × 4.4 s. The
// reference is held to that bound, so the scenario still checks it fails over at all.
func maxTakeover(impl string) time.Duration {
	if impl == "reference" {
		return 24 * time.Second
	}
	return 17 * time.Second
}

// acquiredLine returns the line in which a replica logged that it holds the Lease, or "".
// client-go logs "Successfully acquired lease", ours "successfully acquired lease".
func acquiredLine(log string) string {
	for _, line := range strings.Split(log, "\n") {
		if strings.Contains(strings.ToLower(line), "successfully acquired lease") {
			return line
		}
	}
	return ""
}

// identityField matches the identity our controller-manager logs for itself.
var identityField = regexp.MustCompile(`\bidentity="?([A-Za-z0-9._:-]+)`)

// ownIdentities returns the identities a replica logged as its own (none for Volcano's).
func ownIdentities(log string) map[string]bool {
	out := map[string]bool{}
	for _, m := range identityField.FindAllStringSubmatch(log, -1) {
		out[m[1]] = true
	}
	return out
}

// replica is one controller-manager process the failover test runs.
type replica struct {
	*framework.Process
	metrics string // URL of its /metrics
	healthz string // URL of its /healthz
}

// requests returns the process's API requests so far by HTTP method.
func (r *replica) requests() (map[string]float64, error) {
	code, body, err := framework.HTTPGet(r.metrics)
	if err == nil && code != 200 {
		err = fmt.Errorf("HTTP %d", code)
	}
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", r.Name, r.metrics, err)
	}
	return requestsByMethod(body), nil
}

// writes returns the process's write requests (POST, PUT, PATCH, DELETE) so far by method.
func (r *replica) writes(t *testing.T) map[string]float64 {
	t.Helper()
	reqs, err := r.requests()
	if err != nil {
		t.Fatalf("%v", err)
	}
	out := map[string]float64{}
	for method, n := range reqs {
		switch method {
		case "POST", "PUT", "PATCH", "DELETE":
			out[method] = n
		}
	}
	return out
}

// stopClusterControllers stops the cluster's controller-manager and returns its command line:
// binary, kubeconfig and flags exactly as up.sh chose them for IMPL_CONTROLLERS.
func stopClusterControllers(t *testing.T, cluster *framework.LocalCluster) []string {
	t.Helper()
	pid := cluster.AlivePid(t, "controllers")
	argv, err := framework.ProcessCmdline(pid)
	if err != nil {
		t.Fatalf("command line of the controller-manager: %v", err)
	}
	framework.KillPid(t, pid, syscall.SIGTERM)
	if _, err := framework.Poll(15*time.Second, func() (bool, string, error) {
		return !framework.ProcessAlive(pid), "", nil
	}); err != nil {
		t.Logf("controller-manager pid %d ignored SIGTERM for 15 s; killing it", pid)
		framework.KillPid(t, pid, syscall.SIGKILL)
	}
	framework.WaitPidGone(t, pid, 10*time.Second)
	t.Logf("stopped the cluster's controller-manager (pid %d): %v", pid, argv)
	return argv
}

// startReplica starts copy i of the controller-manager command line argv with leader election
// on and healthz/metrics on free ports, logging to $STATE_DIR/logs/fault-cm-<i>.log.
func startReplica(t *testing.T, cluster *framework.LocalCluster, argv []string, i int) *replica {
	t.Helper()
	healthz, metrics := framework.FreePort(t), framework.FreePort(t)
	args := argv
	var err error
	for flag, value := range map[string]string{
		"leader-elect":    "true",
		"healthz-address": "127.0.0.1:" + strconv.Itoa(healthz),
		"listen-address":  "127.0.0.1:" + strconv.Itoa(metrics),
		"enable-healthz":  "true",
		"enable-metrics":  "true",
	} {
		if args, err = framework.ReplaceFlag(args, flag, value); err != nil {
			t.Fatalf("controller-manager command line: %v", err)
		}
	}
	args = append(args, "--leader-elect-resource-namespace="+leaseNamespace)
	name := fmt.Sprintf("fault-cm-%d", i)
	p := framework.StartProcess(t, name, cluster.LogPath(name), args)
	r := &replica{Process: p,
		healthz: fmt.Sprintf("http://127.0.0.1:%d/healthz", healthz),
		metrics: fmt.Sprintf("http://127.0.0.1:%d/metrics", metrics)}
	framework.WaitHealthy(t, r.healthz, 30*time.Second)
	return r
}

// leaseHolder returns the Lease's holderIdentity ("" when absent or released).
func leaseHolder(f *framework.Framework) (string, error) {
	l, err := f.Kube.CoordinationV1().Leases(leaseNamespace).Get(context.Background(), leaseName, metav1.GetOptions{})
	if err != nil {
		return "", err
	}
	if l.Spec.HolderIdentity == nil {
		return "", nil
	}
	return *l.Spec.HolderIdentity, nil
}

func deleteLease(t *testing.T, f *framework.Framework) {
	err := f.Kube.CoordinationV1().Leases(leaseNamespace).Delete(context.Background(), leaseName, metav1.DeleteOptions{})
	if err != nil && !apierrors.IsNotFound(err) {
		t.Errorf("delete Lease %s/%s: %v", leaseNamespace, leaseName, err)
	}
}

// TestFaultLeaderFailover runs two leader-elected controller-managers in place of the cluster's
// one, checks only the Lease holder writes, kills -9 the holder and measures how long the other
// takes to hold the Lease and to serve a job created right after the kill.
func TestFaultLeaderFailover(t *testing.T) {
	cluster := framework.LoadLocalCluster(t)
	f := framework.New(t, "e2e-fault-leader")
	cluster.RestoreAtCleanup(t)
	// A Lease left by an earlier run would name a dead holder and delay the first election by
	// a lease duration; the cluster's own controller-manager runs without election, so the
	// Lease is removed before and after.
	deleteLease(t, f)
	t.Cleanup(func() { deleteLease(t, f) })
	argv := stopClusterControllers(t, cluster)
	replicas := []*replica{startReplica(t, cluster, argv, 1)}

	var holder string
	f.WaitFor("Lease "+leaseNamespace+"/"+leaseName+" held", 60*time.Second, func() (bool, string, error) {
		h, err := leaseHolder(f)
		holder = h
		return h != "", "holder=" + h, err
	})
	// The second replica starts once the Lease exists: two started together may both find no
	// Lease and race to create it, and the loser's failed create would count as a standby write.
	replicas = append(replicas, startReplica(t, cluster, argv, 2))
	var leader, standby *replica
	f.WaitFor("exactly one replica logged that it acquired the Lease", 15*time.Second, func() (bool, string, error) {
		var holders []*replica
		for _, r := range replicas {
			if acquiredLine(r.ReadLog()) != "" {
				holders = append(holders, r)
			}
		}
		if len(holders) == 1 {
			leader = holders[0]
		}
		return len(holders) == 1, fmt.Sprintf("%d replicas logged it", len(holders)), nil
	})
	for _, r := range replicas {
		if r != leader {
			standby = r
		}
		// Our implementation logs its own identity (identity=...); Volcano's does not. Where a
		// replica logs it, the Lease holder must be the leader's identity and not the standby's.
		own := ownIdentities(r.ReadLog())
		if len(own) > 0 && own[holder] != (r == leader) {
			t.Fatalf("Lease holder %s; %s (leader: %v) logged identities %v", holder, r.Name, r == leader, own)
		}
	}
	// The standby must be campaigning (reading the Lease) while the leader works, or the
	// check below would hold trivially.
	framework.WaitFor(t, standby.Name+" reads from the API server", 30*time.Second, func() (bool, string, error) {
		reqs, err := standby.requests()
		return err == nil && reqs["GET"] > 0, fmt.Sprintf("requests by method %v", reqs), err
	})
	t.Logf("leader %s (pid %d, Lease holder %s); standby %s (pid %d)",
		leader.Name, leader.Pid(), holder, standby.Name, standby.Pid())

	// A job handled while both run: the leader alone must do all of it.
	before := f.CreateJob(faultJob(f.Namespace, "before-kill", 2, "3s"))
	f.WaitJobPhase(before.Name, batchv1alpha1.Completed, framework.JobTimeout)
	// "Never two writers": the standby must not have sent a single write request to the API
	// server (rest_client_requests_total counts every request of every client in the process,
	// lease attempts included; a standby only reads the Lease). A standby that ran controllers
	// would at least have tried to create the PodGroup and pods of the job above, or to write
	// its status, and been counted, even if those writes had failed. The leader's count of
	// POSTs shows the metric does see controller writes: it created that PodGroup and 2 pods.
	standbyWrites, leaderWrites := standby.writes(t), leader.writes(t)
	if total(standbyWrites) != 0 {
		t.Errorf("the standby %s sent write requests while not leading: %v\nits log:\n%s",
			standby.Name, standbyWrites, framework.Tail(standby.ReadLog(), 30))
	}
	if leaderWrites["POST"] < 3 {
		t.Errorf("the leader %s counted %v write requests, fewer than the 3 creates of job %s: the check above "+
			"proves nothing", leader.Name, leaderWrites, before.Name)
	}
	t.Logf("write requests before the kill: leader %v, standby %v", leaderWrites, standbyWrites)

	leader.Kill(t)
	killedAt := time.Now()
	after := f.CreateJob(faultJob(f.Namespace, "after-kill", 2, "3s"))
	var takeover time.Duration
	f.WaitFor("another holder of the Lease", 60*time.Second, func() (bool, string, error) {
		h, err := leaseHolder(f)
		if err != nil {
			return false, "", err
		}
		takeover = time.Since(killedAt)
		return h != "" && h != holder, "holder=" + h, nil
	})
	f.WaitFor(standby.Name+" logged that it acquired the Lease", 10*time.Second, func() (bool, string, error) {
		line := acquiredLine(standby.ReadLog())
		return line != "", line, nil
	})
	var podGroupAt time.Duration
	f.WaitFor("PodGroup of "+after.Name, framework.JobTimeout, func() (bool, string, error) {
		_, err := f.GetPodGroup(framework.PodGroupName(after))
		podGroupAt = time.Since(killedAt)
		return err == nil, fmt.Sprintf("err=%v", err), nil
	})
	f.WaitJobPods(after.Name, "2 pods", framework.JobTimeout, func(p []corev1.Pod) bool { return len(p) == 2 })
	podsAt := time.Since(killedAt)
	f.WaitJobPhase(after.Name, batchv1alpha1.Completed, framework.JobTimeout)
	t.Logf("failover (impl %s): Lease taken over %v after kill -9 of the leader; the new job's PodGroup after %v, "+
		"its pods %v after",
		framework.Impl(), takeover.Round(time.Millisecond), podGroupAt.Round(time.Millisecond),
		podsAt.Round(time.Millisecond))
	if bound := maxTakeover(cluster.Var("IMPL_CONTROLLERS")); takeover > bound {
		t.Errorf("the standby took the Lease %v after the leader died, more than %v", takeover, bound)
	}
	if w := standby.writes(t); w["POST"] < 3 {
		t.Errorf("the new leader %s counted %v write requests after creating job %s's PodGroup and pods",
			standby.Name, w, after.Name)
	}
}

package tests

import (
	"context"
	"errors"
	"fmt"
	"net"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	batchv1alpha1 "volcano.sh/apis/pkg/apis/batch/v1alpha1"

	"vc-cpp.local/e2e/tests/framework"
)

// faultJob builds a one-task job whose replicas tiny pods succeed after succeedAfter.
func faultJob(ns, name string, replicas int32, succeedAfter string) *batchv1alpha1.Job {
	return framework.NewJob(ns, framework.JobSpec{
		Name:         name,
		MinAvailable: replicas,
		Tasks: []framework.Task{{
			Name: "main", Replicas: replicas, CPU: "10m", Memory: "16Mi",
			Annotations: map[string]string{framework.AnnotationSucceedAfter: succeedAfter},
		}},
	})
}

// retryableCreateError reports errors a create may meet on a busy or restarting cluster that
// say nothing about the job: throttling, timeouts, a webhook cache that lags, connection loss.
func retryableCreateError(err error) bool {
	var netErr net.Error
	msg := err.Error()
	return apierrors.IsTooManyRequests(err) || apierrors.IsServerTimeout(err) || apierrors.IsTimeout(err) ||
		apierrors.IsServiceUnavailable(err) || apierrors.IsInternalError(err) || errors.As(err, &netErr) ||
		strings.Contains(msg, "connection refused") || strings.Contains(msg, "unable to find job queue")
}

// createJobsConcurrently creates jobs from workers goroutines, retrying transient errors for up
// to 60 s per job. After each successful create it calls created(n) with the running count, on
// the creating goroutine. It returns one error per job that could not be created.
func createJobsConcurrently(f *framework.Framework, jobs []*batchv1alpha1.Job, workers int,
	created func(n int64)) []error {
	var (
		next  atomic.Int64
		count atomic.Int64
		mu    sync.Mutex
		errs  []error
		wg    sync.WaitGroup
	)
	client := f.Volcano.BatchV1alpha1().Jobs(f.Namespace)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(jobs) {
					return
				}
				deadline := time.Now().Add(60 * time.Second)
				for {
					_, err := client.Create(context.Background(), jobs[i], metav1.CreateOptions{})
					// AlreadyExists on a retry means the first attempt was stored after all.
					if err == nil || apierrors.IsAlreadyExists(err) {
						created(count.Add(1))
						break
					}
					if !retryableCreateError(err) || time.Now().After(deadline) {
						mu.Lock()
						errs = append(errs, fmt.Errorf("create job %s: %w", jobs[i].Name, err))
						mu.Unlock()
						break
					}
					time.Sleep(200 * time.Millisecond) // back off before retrying a transient error
				}
			}
		}()
	}
	wg.Wait()
	return errs
}

// waitJobsCompleted waits until every named job in the namespace is Completed and returns the
// jobs as last listed. On timeout it prints the jobs that are not.
func waitJobsCompleted(t *testing.T, f *framework.Framework, names []string,
	timeout time.Duration) map[string]batchv1alpha1.Job {
	t.Helper()
	var last map[string]batchv1alpha1.Job
	framework.WaitFor(t, fmt.Sprintf("%d jobs Completed", len(names)), timeout, func() (bool, string, error) {
		list, err := f.Volcano.BatchV1alpha1().Jobs(f.Namespace).List(context.Background(), metav1.ListOptions{})
		if err != nil {
			return false, "", err
		}
		last = map[string]batchv1alpha1.Job{}
		for _, j := range list.Items {
			last[j.Name] = j
		}
		phases := map[batchv1alpha1.JobPhase]int{}
		var stuck []string
		for _, n := range names {
			j, ok := last[n]
			phase := batchv1alpha1.JobPhase("<missing>")
			if ok {
				phase = j.Status.State.Phase
			}
			phases[phase]++
			if phase != batchv1alpha1.Completed && len(stuck) < 8 {
				summary := "missing"
				if ok {
					summary = framework.JobStatusSummary(&j)
				}
				stuck = append(stuck, n+"("+summary+")")
			}
		}
		return phases[batchv1alpha1.Completed] == len(names),
			fmt.Sprintf("phases %v; first not Completed: %v", phases, stuck), nil
	})
	return last
}

// assertConvergedOnce checks what the fault scenarios promise about every job: it never
// restarted (retryCount 0), exactly one PodGroup <job>-<uid> was ever created for it,
// its pods are exactly <job>-main-0..replicas-1, and no pod or PodGroup name ever had two UIDs.
func assertConvergedOnce(t *testing.T, jobs map[string]batchv1alpha1.Job, names []string,
	replicas int32, podLog, pgLog *creationLog) {
	t.Helper()
	waitLogCaughtUp(t, podLog, 30*time.Second)
	waitLogCaughtUp(t, pgLog, 30*time.Second)
	pods, pgs := podLog.snapshot(), pgLog.snapshot()
	if d := duplicates(pods); len(d) > 0 {
		t.Errorf("%d pod names were created more than once: %v", len(d), d)
	}
	if d := duplicates(pgs); len(d) > 0 {
		t.Errorf("%d PodGroup names were created more than once: %v", len(d), d)
	}
	wantPods, wantPGs := map[string]bool{}, map[string]bool{}
	for _, n := range names {
		j := jobs[n]
		if j.Status.RetryCount != 0 {
			t.Errorf("job %s restarted, which nothing here should cause: %s", n, framework.JobStatusSummary(&j))
		}
		pg := framework.PodGroupName(&j)
		wantPGs[pg] = true
		if len(pgs[pg]) != 1 {
			t.Errorf("job %s: PodGroup %s seen with UIDs %v, want exactly one", n, pg, pgs[pg])
		}
		for i := int32(0); i < replicas; i++ {
			pod := n + "-main-" + strconv.Itoa(int(i))
			wantPods[pod] = true
			if len(pods[pod]) != 1 {
				t.Errorf("job %s: pod %s seen with UIDs %v, want exactly one", n, pod, pods[pod])
			}
		}
	}
	if extra := unexpected(pods, wantPods); len(extra) > 0 {
		t.Errorf("pods no job should have: %v", extra)
	}
	if extra := unexpected(pgs, wantPGs); len(extra) > 0 {
		t.Errorf("PodGroups no job should have (a second PodGroup for a job?): %v", extra)
	}
	t.Logf("pods: %s; podgroups: %s", podLog.describe(), pgLog.describe())
}

func unexpected(seen map[string][]types.UID, want map[string]bool) []string {
	var out []string
	for name := range seen {
		if !want[name] {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// restClientRequest matches client-go's (and our) rest_client_requests_total samples.
var restClientRequest = regexp.MustCompile(`^rest_client_requests_total\{([^}]*)\} ([0-9.e+]+)$`)
var methodLabel = regexp.MustCompile(`method="([A-Z]+)"`)

// requestsByMethod sums a controller-manager's rest_client_requests_total by HTTP method.
func requestsByMethod(metricsText string) map[string]float64 {
	out := map[string]float64{}
	for _, line := range strings.Split(metricsText, "\n") {
		m := restClientRequest.FindStringSubmatch(strings.TrimSpace(line))
		if m == nil {
			continue
		}
		method := methodLabel.FindStringSubmatch(m[1])
		if method == nil {
			continue
		}
		if v, err := strconv.ParseFloat(m[2], 64); err == nil {
			out[method[1]] += v
		}
	}
	return out
}

func total(counts map[string]float64) float64 {
	var s float64
	for _, v := range counts {
		s += v
	}
	return s
}

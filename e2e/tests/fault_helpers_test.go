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
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	batchv1alpha1 "volcano.sh/apis/pkg/apis/batch/v1alpha1"
	vcclient "volcano.sh/apis/pkg/client/clientset/versioned"

	"vc-cpp.local/e2e/tests/framework"
)

// creationLog watches one kind of object in a namespace from a known resourceVersion and
// remembers every UID it ever sees under each name. A name that shows two UIDs was created
// twice (deleted and re-created, or created again after a restart), which is exactly what the
// fault scenarios must rule out; counting ADDED events alone would miss a re-creation whose
// ADDED was lost while the watch reconnected, a UID set does not.
//
// The watch goroutine writes under mu; the test goroutine reads through the methods.
type creationLog struct {
	kind  string
	list  func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error)
	watch func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error)

	mu      sync.Mutex
	uids    map[string][]types.UID // name -> distinct UIDs, in the order first seen
	known   map[types.UID]bool
	relists int    // times the watch had to fall back to a list (410 Gone)
	lastErr string // the last watch error, for failure messages
	cancel  context.CancelFunc
	done    chan struct{}
}

// watchClients builds clientsets without the per-request timeout, for long-running watches.
func watchClients(t *testing.T, f *framework.Framework) (kubernetes.Interface, vcclient.Interface) {
	t.Helper()
	kube, err := kubernetes.NewForConfig(f.Config)
	if err != nil {
		t.Fatalf("kubernetes client: %v", err)
	}
	vc, err := vcclient.NewForConfig(f.Config)
	if err != nil {
		t.Fatalf("volcano client: %v", err)
	}
	return kube, vc
}

// startPodLog and startPodGroupLog start creation logs of the test namespace's pods and
// PodGroups. They return once the initial list is recorded, so nothing created afterwards can
// be missed.
func startPodLog(t *testing.T, f *framework.Framework) *creationLog {
	kube, _ := watchClients(t, f)
	pods := kube.CoreV1().Pods(f.Namespace)
	return startCreationLog(t, "pod",
		func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) { return pods.List(ctx, o) },
		pods.Watch)
}

func startPodGroupLog(t *testing.T, f *framework.Framework) *creationLog {
	_, vc := watchClients(t, f)
	pgs := vc.SchedulingV1beta1().PodGroups(f.Namespace)
	return startCreationLog(t, "podgroup",
		func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) { return pgs.List(ctx, o) },
		pgs.Watch)
}

func startCreationLog(t *testing.T, kind string,
	list func(context.Context, metav1.ListOptions) (runtime.Object, error),
	watchFn func(context.Context, metav1.ListOptions) (watch.Interface, error)) *creationLog {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	l := &creationLog{kind: kind, list: list, watch: watchFn, uids: map[string][]types.UID{},
		known: map[types.UID]bool{}, cancel: cancel, done: make(chan struct{})}
	rv, err := l.relist(ctx)
	if err != nil {
		cancel()
		t.Fatalf("%s log: initial list: %v", kind, err)
	}
	go l.run(ctx, rv)
	t.Cleanup(func() {
		l.cancel()
		<-l.done
	})
	return l
}

// relist records every listed object and returns the list's resourceVersion.
func (l *creationLog) relist(ctx context.Context) (string, error) {
	obj, err := l.list(ctx, metav1.ListOptions{})
	if err != nil {
		return "", err
	}
	items, err := meta.ExtractList(obj)
	if err != nil {
		return "", err
	}
	for _, item := range items {
		l.record(item)
	}
	listMeta, err := meta.ListAccessor(obj)
	if err != nil {
		return "", err
	}
	return listMeta.GetResourceVersion(), nil
}

func (l *creationLog) record(obj runtime.Object) string {
	m, err := meta.Accessor(obj)
	if err != nil {
		return ""
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if uid := m.GetUID(); uid != "" && !l.known[uid] {
		l.known[uid] = true
		l.uids[m.GetName()] = append(l.uids[m.GetName()], uid)
	}
	return m.GetResourceVersion()
}

func (l *creationLog) noteError(err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lastErr = err.Error()
}

// run watches from rv until ctx ends. A closed or failed watch resumes from the last
// resourceVersion seen; when that is too old (410 Gone, e.g. after an API server restart
// emptied its watch cache) it relists, which still catches any second UID for a name.
func (l *creationLog) run(ctx context.Context, rv string) {
	defer close(l.done)
	for ctx.Err() == nil {
		w, err := l.watch(ctx, metav1.ListOptions{ResourceVersion: rv, AllowWatchBookmarks: true})
		if err != nil {
			l.noteError(err)
			rv = l.afterError(ctx, err, rv)
			continue
		}
		rv = l.consume(ctx, w, rv)
		w.Stop()
	}
}

// consume records the events of one watch and returns the resourceVersion to resume from.
func (l *creationLog) consume(ctx context.Context, w watch.Interface, rv string) string {
	for {
		select {
		case <-ctx.Done():
			return rv
		case ev, ok := <-w.ResultChan():
			if !ok {
				return rv
			}
			switch ev.Type {
			case watch.Added, watch.Modified, watch.Deleted:
				if v := l.record(ev.Object); v != "" {
					rv = v
				}
			case watch.Bookmark:
				if m, err := meta.Accessor(ev.Object); err == nil {
					rv = m.GetResourceVersion()
				}
			case watch.Error:
				err := apierrors.FromObject(ev.Object)
				l.noteError(err)
				return l.afterError(ctx, err, rv)
			}
		}
	}
}

// afterError waits a little (the API server may be restarting) and returns where to resume.
func (l *creationLog) afterError(ctx context.Context, err error, rv string) string {
	select {
	case <-ctx.Done():
		return rv
	case <-time.After(500 * time.Millisecond):
	}
	if !apierrors.IsGone(err) && !apierrors.IsResourceExpired(err) {
		return rv
	}
	newRV, lerr := l.relist(ctx)
	if lerr != nil {
		l.noteError(lerr)
		return rv
	}
	l.mu.Lock()
	l.relists++
	l.mu.Unlock()
	return newRV
}

// snapshot returns a copy of the UIDs per name.
func (l *creationLog) snapshot() map[string][]types.UID {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make(map[string][]types.UID, len(l.uids))
	for k, v := range l.uids {
		out[k] = append([]types.UID(nil), v...)
	}
	return out
}

func (l *creationLog) has(uid types.UID) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.known[uid]
}

func (l *creationLog) describe() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return fmt.Sprintf("%d %s names, %d UIDs, %d relists, last watch error %q",
		len(l.uids), l.kind, len(l.known), l.relists, l.lastErr)
}

// duplicates lists the names seen with more than one UID.
func duplicates(uids map[string][]types.UID) []string {
	var out []string
	for name, u := range uids {
		if len(u) > 1 {
			out = append(out, fmt.Sprintf("%s%v", name, u))
		}
	}
	sort.Strings(out)
	return out
}

// waitLogCaughtUp waits until every object currently listed has been seen by the log, so
// assertions on the log cover everything that exists now.
func waitLogCaughtUp(t *testing.T, l *creationLog, timeout time.Duration) {
	t.Helper()
	framework.WaitFor(t, l.kind+" log caught up with a fresh list", timeout, func() (bool, string, error) {
		obj, err := l.list(context.Background(), metav1.ListOptions{})
		if err != nil {
			return false, "", err
		}
		items, err := meta.ExtractList(obj)
		if err != nil {
			return false, "", err
		}
		missing := 0
		for _, item := range items {
			if m, err := meta.Accessor(item); err == nil && !l.has(m.GetUID()) {
				missing++
			}
		}
		return missing == 0, fmt.Sprintf("%d listed, %d not yet seen by the watch; %s",
			len(items), missing, l.describe()), nil
	})
}

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
// restarted (retryCount 0, version 0), exactly one PodGroup <job>-<uid> was ever created for it,
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
		if j.Status.RetryCount != 0 || j.Status.Version != 0 {
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

// writeRequests sums a controller-manager's rest_client_requests_total by HTTP method, keeping
// only the methods that change something (POST, PUT, PATCH, DELETE).
func writeRequests(metricsText string) map[string]float64 {
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
		switch method[1] {
		case "POST", "PUT", "PATCH", "DELETE":
			v, err := strconv.ParseFloat(m[2], 64)
			if err == nil {
				out[method[1]] += v
			}
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

package tests

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
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

package main

import (
	"context"
	"errors"
	"fmt"
	"syscall"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"
	batchv1alpha1 "volcano.sh/apis/pkg/apis/batch/v1alpha1"
	vcinformers "volcano.sh/apis/pkg/client/informers/externalversions"
)

const (
	// progressInterval is how often a wait prints where it stands.
	progressInterval = 5 * time.Second
	// livenessInterval is how often a wait checks that the controller under test still runs.
	livenessInterval = 500 * time.Millisecond
)

// processAlive returns a check that fails once process pid has ended; pid 0 checks nothing. The
// controller-manager is a child of run.sh, not of vcbench, so signal 0 is the way to ask.
func processAlive(pid int) func() error {
	return func() error {
		if pid == 0 {
			return nil
		}
		if err := syscall.Kill(pid, 0); err != nil && !errors.Is(err, syscall.EPERM) {
			return fmt.Errorf("the controller-manager (pid %d) is gone: %v", pid, err)
		}
		return nil
	}
}

// watches are the informers of one namespace feeding a progress. Their stores are read for
// diagnostics only. They run until the context given to watchNamespace ends.
type watches struct {
	pods cache.Store
	jobs cache.Store // nil when jobs are not watched
}

// watchNamespace starts informers on the pods of ns and, with withJobs, its Volcano Jobs, feeding
// p, and returns once their initial lists are in (so no later event is missed).
func watchNamespace(ctx context.Context, c *clients, ns string, p *progress, withJobs bool) (*watches, error) {
	kf := informers.NewSharedInformerFactoryWithOptions(c.kube, 0, informers.WithNamespace(ns))
	podInformer := kf.Core().V1().Pods().Informer()
	if _, err := podInformer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			if pod, ok := obj.(*corev1.Pod); ok {
				p.observePod(pod.Name, time.Now())
			}
		},
	}); err != nil {
		return nil, fmt.Errorf("pod handler: %w", err)
	}
	w := &watches{pods: podInformer.GetStore()}
	synced := []cache.InformerSynced{podInformer.HasSynced}
	kf.Start(ctx.Done())

	if withJobs {
		vf := vcinformers.NewSharedInformerFactoryWithOptions(c.vc, 0, vcinformers.WithNamespace(ns))
		jobInformer := vf.Batch().V1alpha1().Jobs().Informer()
		observe := func(obj any) {
			if job, ok := obj.(*batchv1alpha1.Job); ok {
				p.observeJob(job.Name, string(job.Status.State.Phase), time.Now())
			}
		}
		if _, err := jobInformer.AddEventHandler(cache.ResourceEventHandlerFuncs{
			AddFunc:    observe,
			UpdateFunc: func(_, obj any) { observe(obj) },
		}); err != nil {
			return nil, fmt.Errorf("job handler: %w", err)
		}
		w.jobs = jobInformer.GetStore()
		synced = append(synced, jobInformer.HasSynced)
		vf.Start(ctx.Done())
	}
	if !cache.WaitForCacheSync(ctx.Done(), synced...) {
		return nil, fmt.Errorf("watches of namespace %s did not sync: %w", ns, ctx.Err())
	}
	return w, nil
}

// podPhases counts the watched pods by phase, bound or not, for diagnostics.
func (w *watches) podPhases() map[string]int {
	counts := map[string]int{}
	for _, obj := range w.pods.List() {
		pod, ok := obj.(*corev1.Pod)
		if !ok {
			continue
		}
		key := string(pod.Status.Phase)
		if pod.Spec.NodeName == "" {
			key += "(unbound)"
		}
		counts[key]++
	}
	return counts
}

// creation is the state of the goroutine running createAll: done is closed when every create
// has returned, after err, failed and doneAt are set.
type creation struct {
	done   chan struct{}
	err    error
	failed int
	doneAt time.Time
}

// startCreation runs createAll in the background.
func startCreation(ctx context.Context, n, concurrency int, create func(context.Context, int) error) *creation {
	cr := &creation{done: make(chan struct{})}
	go func() {
		cr.failed, cr.err = createAll(ctx, n, concurrency, create)
		cr.doneAt = time.Now()
		close(cr.done)
	}()
	return cr
}

// await waits until target is closed. It fails at once if the creation fails or the watched
// process ends (alive reports an error), and when ctx ends (the measurement's deadline), saying
// what it saw; every progressInterval it prints status().
func await(ctx context.Context, what string, target <-chan struct{}, cr *creation, alive func() error,
	status func() string) error {
	ticker := time.NewTicker(progressInterval)
	defer ticker.Stop()
	liveness := time.NewTicker(livenessInterval)
	defer liveness.Stop()
	created := cr.done
	for {
		select {
		case <-liveness.C:
			if err := alive(); err != nil {
				return fmt.Errorf("%w (while waiting for %s; seen: %s)", err, what, status())
			}
		case <-target:
			return nil
		case <-created:
			if cr.err != nil {
				return fmt.Errorf("%d creates failed, first: %w (while waiting for %s; seen: %s)",
					cr.failed, cr.err, what, status())
			}
			created = nil // all creates succeeded: keep waiting for the target
		case <-ctx.Done():
			return fmt.Errorf("timed out waiting for %s: %w; last seen: %s", what, ctx.Err(), status())
		case <-ticker.C:
			logf("waiting for %s: %s", what, status())
		}
	}
}

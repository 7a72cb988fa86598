package main

import (
	"context"
	"flag"
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// podsResult is the JSON result of `vcbench pods`, the ceiling: how fast a client with the
// controller-manager's QPS and burst can create the benchmark's pods directly.
type podsResult struct {
	resultHeader
	Pods  int     `json:"pods"`
	QPS   float64 `json:"qps"`
	Burst int     `json:"burst"`
	// The *_s fields are seconds from just before the first create; null when not reached.
	AllPodsS *float64 `json:"all_pods_s"`
	PodsPerS *float64 `json:"pods_per_s"`
	PodsSeen int      `json:"pods_seen"`
}

func runPods(args []string) error {
	fs := flag.NewFlagSet("pods", flag.ContinueOnError)
	var common commonFlags
	common.register(fs, 10*time.Minute)
	pods := fs.Int("pods", 2000, "number of pods")
	qps := fs.Float64("qps", 200, "client QPS (the controller-manager's --kube-api-qps)")
	burst := fs.Int("burst", 400, "client burst (the controller-manager's --kube-api-burst)")
	placementFlag := fs.String("placement", "", "key=value: node label and NoSchedule taint of the benchmark nodes")
	concurrency := fs.Int("concurrency", 64, "concurrent create requests")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := common.check(); err != nil {
		return err
	}
	if *pods < 1 || *qps <= 0 || *burst < 1 || *concurrency < 1 {
		return fmt.Errorf("--pods, --qps, --burst and --concurrency must be positive: %w", errUsage)
	}
	place, err := parsePlacement(*placementFlag)
	if err != nil {
		return fmt.Errorf("--placement: %v: %w", err, errUsage)
	}
	// The creating client has the controller's budget; the watching one must not share it.
	limited, err := newClients(common.kubeconfig, float32(*qps), *burst)
	if err != nil {
		return err
	}
	watching, err := newClients(common.kubeconfig, -1, 0)
	if err != nil {
		return err
	}
	ctx, cancel := signalContext()
	defer cancel()

	res := podsResult{resultHeader: resultHeader{Kind: "pods", Namespace: common.namespace, Concurrency: *concurrency}, Pods: *pods, QPS: *qps,
		Burst: *burst}
	err = measurePods(ctx, limited, watching, common, place, &res)
	if err != nil {
		res.Error = err.Error()
	}
	emit(res)
	return err
}

func measurePods(ctx context.Context, limited, watching *clients, common commonFlags, place placement, res *podsResult) error {
	ns := common.namespace
	if err := createNamespace(ctx, watching.kube, ns, place); err != nil {
		return err
	}
	prog := newProgress(res.Pods, 0)
	watchCtx, stopWatches := context.WithCancel(ctx)
	defer stopWatches()
	w, err := watchNamespace(watchCtx, watching, ns, prog, false)
	if err != nil {
		return err
	}
	status := func() string {
		return fmt.Sprintf("pods %d/%d, pod phases %v", prog.snapshot().pods, res.Pods, w.podPhases())
	}

	mctx, cancel := context.WithTimeout(ctx, common.timeout)
	defer cancel()
	start := time.Now()
	prog.begin(start)
	res.StartUnixMs = start.UnixMilli()
	logf("creating %d pods in %s (qps %g, burst %d, %d at a time)", res.Pods, ns, res.QPS, res.Burst,
		res.Concurrency)
	cr := startCreation(mctx, res.Pods, res.Concurrency, func(ctx context.Context, i int) error {
		_, err := limited.kube.CoreV1().Pods(ns).Create(ctx, benchPod(i, place), metav1.CreateOptions{})
		return err
	})
	defer func() {
		// As in measureJobs: every way out has the creates returned or mctx ended.
		<-cr.done
		res.CreateFailures = cr.failed
		if cr.err == nil {
			res.CreatesDoneS = ptr(seconds(cr.doneAt.Sub(start)))
		}
		res.PodsSeen = prog.snapshot().pods
	}()

	if err := await(mctx, "every pod to exist", prog.allPods, cr, processAlive(0), status); err != nil {
		return err
	}
	s := prog.snapshot()
	logf("all %d pods exist after %.2fs", res.Pods, s.lastPodAt.Seconds())
	res.AllPodsS = ptr(seconds(s.lastPodAt))
	res.PodsPerS = ptr(round2(float64(res.Pods) / s.lastPodAt.Seconds()))
	return nil
}

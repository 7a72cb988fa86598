package main

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
	batchv1alpha1 "volcano.sh/apis/pkg/apis/batch/v1alpha1"
	vcinformers "volcano.sh/apis/pkg/client/informers/externalversions"
)

// cronJobsResult is the JSON result of `vcbench cronjobs`. Lateness is, per run due in the
// window, the moment the Job watch first delivered its Job minus its scheduled minute (the
// stamp_* figures use the Job's creationTimestamp instead, which has whole seconds only).
type cronJobsResult struct {
	resultHeader
	CronJobs int     `json:"cronjobs"`
	Minutes  int     `json:"minutes"`
	GraceS   float64 `json:"grace_s"`
	// FirstMinute: the first scheduled minute of the window (RFC 3339, UTC); EndUnixMs: the end
	// of the window, grace included.
	FirstMinute  string         `json:"first_minute"`
	EndUnixMs    int64          `json:"end_unix_ms"`
	PerMinute    []minuteResult `json:"per_minute"`
	ExpectedRuns int            `json:"expected_runs"`
	CreatedRuns  int            `json:"created_runs"`
	MissedRuns   int            `json:"missed_runs"`
	// JobsOutsideWindow: Jobs of the benchmark's CronJobs for other minutes; JobsUnknown: Jobs
	// that are not runs of the benchmark's CronJobs.
	JobsOutsideWindow int      `json:"jobs_outside_window"`
	JobsUnknown       int      `json:"jobs_unknown"`
	JobsCompleted     int      `json:"jobs_completed"`
	LatenessP50S      *float64 `json:"lateness_p50_s"`
	LatenessP99S      *float64 `json:"lateness_p99_s"`
	LatenessMaxS      *float64 `json:"lateness_max_s"`
	StampLatenessP50S *float64 `json:"stamp_lateness_p50_s"`
	StampLatenessP99S *float64 `json:"stamp_lateness_p99_s"`
	StampLatenessMaxS *float64 `json:"stamp_lateness_max_s"`
}

// minuteResult is one scheduled minute of the window.
type minuteResult struct {
	Scheduled    string   `json:"scheduled"`
	Expected     int      `json:"expected"`
	Created      int      `json:"created"`
	LatenessP50S *float64 `json:"lateness_p50_s"`
	LatenessP99S *float64 `json:"lateness_p99_s"`
	LatenessMaxS *float64 `json:"lateness_max_s"`
}

// cronOptions are the flags of `vcbench cronjobs` beyond the common ones.
type cronOptions struct {
	cronJobs, minutes, concurrency int
	grace, succeedAfter            time.Duration
	history                        int
	queue                          string
	place                          placement
}

func runCronJobs(args []string) error {
	fs := flag.NewFlagSet("cronjobs", flag.ContinueOnError)
	var common commonFlags
	common.register(fs, 10*time.Minute)
	var opt cronOptions
	fs.IntVar(&opt.cronJobs, "cronjobs", 500, `number of CronJobs, each "* * * * *"`)
	fs.IntVar(&opt.minutes, "minutes", 3, "scheduled minutes measured, from the first minute boundary after the start")
	fs.DurationVar(&opt.grace, "grace", 30*time.Second, "how long after the last measured minute a run still counts")
	fs.DurationVar(&opt.succeedAfter, "succeed-after", time.Second, "how long each run's pod runs on kwok")
	fs.IntVar(&opt.history, "history", 1, "successfulJobsHistoryLimit and failedJobsHistoryLimit of the CronJobs")
	fs.StringVar(&opt.queue, "queue", "bench", "queue of the CronJobs' Jobs (must be Open)")
	placementFlag := fs.String("placement", "", "key=value: node label and NoSchedule taint of the benchmark nodes")
	fs.IntVar(&opt.concurrency, "concurrency", 64, "concurrent create requests")
	controllerPid := fs.Int("controller-pid", 0, "fail at once when this process (the controller under test) ends")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := common.check(); err != nil {
		return err
	}
	if opt.cronJobs < 1 || opt.minutes < 1 || opt.concurrency < 1 || opt.grace <= 0 ||
		opt.grace >= time.Minute || opt.succeedAfter <= 0 || opt.history < 0 {
		return fmt.Errorf("--cronjobs, --minutes, --concurrency, --grace (under a minute) and "+
			"--succeed-after must be positive, --history not negative: %w", errUsage)
	}
	// The window ends at most this long after the start: the first minute is up to a minute away.
	if longest := time.Duration(opt.minutes)*time.Minute + opt.grace; common.timeout < longest {
		return fmt.Errorf("--timeout %v is shorter than the window (up to %v): %w", common.timeout, longest, errUsage)
	}
	place, c, err := placedClients(common.kubeconfig, *placementFlag)
	if err != nil {
		return err
	}
	opt.place = place
	ctx, cancel := signalContext()
	defer cancel()

	res := cronJobsResult{
		resultHeader: resultHeader{Kind: "cronjobs", Namespace: common.namespace, Concurrency: opt.concurrency},
		CronJobs:     opt.cronJobs, Minutes: opt.minutes, GraceS: opt.grace.Seconds()}
	err = measureCronJobs(ctx, c, common, opt, processAlive(*controllerPid), &res)
	if err != nil {
		res.Error = err.Error()
	}
	emit(res)
	return err
}

// measureCronJobs creates the CronJobs at once and follows their Jobs until the window ends: a
// fixed time after the start, so that the controller's CPU is compared over equal windows.
func measureCronJobs(ctx context.Context, c *clients, common commonFlags, opt cronOptions,
	alive func() error, res *cronJobsResult) error {
	ns := common.namespace
	if err := createNamespace(ctx, c.kube, ns, opt.place); err != nil {
		return err
	}
	ledger := newCronLedger(opt.minutes)
	watchCtx, stopWatches := context.WithCancel(ctx)
	defer stopWatches()
	if err := watchCronRuns(watchCtx, c, ns, ledger); err != nil {
		return err
	}

	mctx, cancel := context.WithTimeout(ctx, common.timeout)
	defer cancel()
	start := time.Now()
	first := ledger.begin(start)
	end := first.Add(time.Duration(opt.minutes-1)*time.Minute + opt.grace)
	res.StartUnixMs, res.EndUnixMs = start.UnixMilli(), end.UnixMilli()
	res.FirstMinute = first.UTC().Format(time.RFC3339)
	logf("creating %d CronJobs in %s (%d at a time); measuring the runs of %d minutes from %s until %s",
		opt.cronJobs, ns, opt.concurrency, opt.minutes, first.Format("15:04:05"), end.Format("15:04:05"))
	job := finishingJobSpec(opt.queue, opt.place, opt.succeedAfter)
	cr := startCreation(mctx, opt.cronJobs, opt.concurrency, func(ctx context.Context, i int) error {
		got, err := c.vc.BatchV1alpha1().CronJobs(ns).Create(ctx, benchCronJob(i, job, int32(opt.history)),
			metav1.CreateOptions{})
		if err != nil {
			return err
		}
		ledger.addCronJob(got.Name, got.CreationTimestamp.Time)
		return nil
	})
	defer func() {
		// As in measureJobs: every way out has the creates returned or mctx ended.
		<-cr.done
		res.CreateFailures = cr.failed
		if cr.err == nil {
			res.CreatesDoneS = ptr(seconds(cr.doneAt.Sub(start)))
			if !cr.doneAt.Before(first) {
				logf("warning: the creates ended after the first minute (%s); CronJobs created later are due from the next one",
					first.Format("15:04:05"))
			}
		}
		fillCronResult(res, ledger.summary())
	}()

	windowEnd := make(chan struct{})
	timer := time.AfterFunc(time.Until(end), func() { close(windowEnd) })
	defer timer.Stop()
	status := func() string { return cronStatus(ledger.summary(), opt.cronJobs, time.Now()) }
	if err := await(mctx, "the end of the window", windowEnd, cr, alive, status); err != nil {
		return err
	}
	logf("window over: %s", status())
	return nil
}

// watchCronRuns starts an informer on the Volcano Jobs of ns feeding ledger, and returns once its
// initial list is in.
func watchCronRuns(ctx context.Context, c *clients, ns string, ledger *cronLedger) error {
	vf := vcinformers.NewSharedInformerFactoryWithOptions(c.vc, 0, vcinformers.WithNamespace(ns))
	informer := vf.Batch().V1alpha1().Jobs().Informer()
	observe := func(obj any) {
		seen := time.Now()
		job, ok := obj.(*batchv1alpha1.Job)
		if !ok {
			return
		}
		ledger.observeJob(job.Name, job.CreationTimestamp.Time, seen)
		if job.Status.State.Phase == batchv1alpha1.Completed {
			ledger.observeCompleted(job.Name)
		}
	}
	if _, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    observe,
		UpdateFunc: func(_, obj any) { observe(obj) },
	}); err != nil {
		return fmt.Errorf("job handler: %w", err)
	}
	vf.Start(ctx.Done())
	if !cache.WaitForCacheSync(ctx.Done(), informer.HasSynced) {
		return fmt.Errorf("watch of the jobs of namespace %s did not sync: %w", ns, ctx.Err())
	}
	return nil
}

// cronStatus is a progress line: CronJobs created, then created/expected runs of each minute
// already scheduled at now.
func cronStatus(s cronSummary, want int, now time.Time) string {
	var minutes []string
	for _, m := range s.minutes {
		if !m.scheduled.After(now) {
			minutes = append(minutes, fmt.Sprintf("%s %d/%d", m.scheduled.Format("15:04"), m.created, m.expected))
		}
	}
	return fmt.Sprintf("CronJobs %d/%d, runs per minute [%s], Jobs completed %d, outside the window %d, unknown %d",
		s.cronJobs, want, strings.Join(minutes, ", "), s.completed, s.outside, s.unknown+s.foreign)
}

// fillCronResult copies an account of the window into the result.
func fillCronResult(res *cronJobsResult, s cronSummary) {
	res.ExpectedRuns, res.CreatedRuns, res.MissedRuns = s.expected, s.created, s.missed
	res.JobsOutsideWindow, res.JobsUnknown, res.JobsCompleted = s.outside, s.unknown+s.foreign, s.completed
	res.LatenessP50S, res.LatenessP99S, res.LatenessMaxS = quantiles(s.lateness)
	res.StampLatenessP50S, res.StampLatenessP99S, res.StampLatenessMaxS = quantiles(s.stampLateness)
	res.PerMinute = res.PerMinute[:0]
	for _, m := range s.minutes {
		r := minuteResult{Scheduled: m.scheduled.UTC().Format(time.RFC3339), Expected: m.expected, Created: m.created}
		r.LatenessP50S, r.LatenessP99S, r.LatenessMaxS = quantiles(m.lateness)
		res.PerMinute = append(res.PerMinute, r)
	}
}

// quantiles are the p50, p99 and maximum of sorted in seconds, all nil when it is empty.
func quantiles(sorted []time.Duration) (p50, p99, maxi *float64) {
	if len(sorted) == 0 {
		return nil, nil, nil
	}
	return ptr(seconds(percentile(sorted, 0.5))), ptr(seconds(percentile(sorted, 0.99))),
		ptr(seconds(sorted[len(sorted)-1]))
}

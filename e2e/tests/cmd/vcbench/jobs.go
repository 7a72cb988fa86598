package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// jobsResult is the JSON result of `vcbench jobs`. The *_s fields are seconds from just before
// the first create; those that were not reached are null.
type jobsResult struct {
	resultHeader
	Jobs  int `json:"jobs"`
	Tasks int `json:"tasks"`
	// BigJobs more jobs of BigTasks tasks each (the scale case's mix), counted in Jobs and Pods.
	BigJobs     int      `json:"big_jobs,omitempty"`
	BigTasks    int      `json:"big_tasks,omitempty"`
	Pods        int      `json:"pods"`
	FirstPodS   *float64 `json:"first_pod_s"`
	AllPodsS    *float64 `json:"all_pods_s"`
	AllRunningS *float64 `json:"all_running_s"`
	// PodsPerS is pods / AllPodsS.
	PodsPerS *float64 `json:"pods_per_s"`
	// JobRunning*: per job, from its create request to its first Running phase.
	JobRunningP50S *float64       `json:"job_running_p50_s"`
	JobRunningP99S *float64       `json:"job_running_p99_s"`
	PodsSeen       int            `json:"pods_seen"`
	JobsRunning    int            `json:"jobs_running"`
	JobPhases      map[string]int `json:"job_phases"`
}

func runJobs(args []string) error {
	fs := flag.NewFlagSet("jobs", flag.ContinueOnError)
	var common commonFlags
	common.register(fs, 10*time.Minute)
	jobs := fs.Int("jobs", 500, "number of Volcano Jobs")
	tasks := fs.Int("tasks", 4, "tasks per job (1 replica each, minAvailable = tasks)")
	bigJobs := fs.Int("big-jobs", 0, "further jobs of --big-tasks tasks each, created after the others")
	bigTasks := fs.Int("big-tasks", 10, "tasks of each --big-jobs job")
	queue := fs.String("queue", "bench", "queue of the jobs (must be Open)")
	placementFlag := fs.String("placement", "", "key=value: node label and NoSchedule taint of the benchmark nodes")
	concurrency := fs.Int("concurrency", 64, "concurrent create requests")
	controllerPid := fs.Int("controller-pid", 0, "fail at once when this process (the controller under test) ends")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := common.check(); err != nil {
		return err
	}
	if *jobs < 1 || *tasks < 1 || *concurrency < 1 {
		return fmt.Errorf("--jobs, --tasks and --concurrency must be positive: %w", errUsage)
	}
	if *bigJobs < 0 || *bigTasks < 1 {
		return fmt.Errorf("--big-jobs must not be negative and --big-tasks must be positive: %w", errUsage)
	}
	place, c, err := placedClients(common.kubeconfig, *placementFlag)
	if err != nil {
		return err
	}
	ctx, cancel := signalContext()
	defer cancel()

	res := jobsResult{resultHeader: resultHeader{Kind: "jobs", Namespace: common.namespace, Concurrency: *concurrency},
		Jobs: *jobs + *bigJobs, Tasks: *tasks, Pods: *jobs**tasks + *bigJobs**bigTasks}
	if *bigJobs > 0 {
		res.BigJobs, res.BigTasks = *bigJobs, *bigTasks
	}
	err = measureJobs(ctx, c, common, *queue, place, processAlive(*controllerPid), &res)
	if err != nil {
		res.Error = err.Error()
	}
	emit(res)
	return err
}

func measureJobs(ctx context.Context, c *clients, common commonFlags, queue string, place placement,
	alive func() error, res *jobsResult) error {
	ns := common.namespace
	if err := createNamespace(ctx, c.kube, ns, place); err != nil {
		return err
	}
	prog := newProgress(res.Pods, res.Jobs)
	watchCtx, stopWatches := context.WithCancel(ctx)
	defer stopWatches()
	w, err := watchNamespace(watchCtx, c, ns, prog, true)
	if err != nil {
		return err
	}
	status := func() string {
		s := prog.snapshot()
		return fmt.Sprintf("pods %d/%d, jobs Running %d/%d, job phases [%s], pod phases %v",
			s.pods, res.Pods, s.running, res.Jobs, phaseSummary(s.phases), w.podPhases())
	}

	mctx, cancel := context.WithTimeout(ctx, common.timeout)
	defer cancel()
	start := time.Now()
	prog.begin(start)
	res.StartUnixMs = start.UnixMilli()
	small := res.Jobs - res.BigJobs
	logf("creating %d jobs x %d tasks and %d jobs x %d tasks in %s (%d at a time)", small, res.Tasks,
		res.BigJobs, res.BigTasks, ns, res.Concurrency)
	cr := startCreation(mctx, res.Jobs, res.Concurrency, func(ctx context.Context, i int) error {
		tasks := res.Tasks
		if i >= small {
			tasks = res.BigTasks
		}
		job := benchJob(i, tasks, queue, place)
		prog.submitJob(job.Name, time.Now())
		_, err := c.vc.BatchV1alpha1().Jobs(ns).Create(ctx, job, metav1.CreateOptions{})
		return err
	})
	defer func() {
		// Every way out of the awaits has all creates returned (all pods exist, or one failed
		// and cancelled the rest) or mctx ended, which ends them: this wait is short.
		<-cr.done
		res.CreateFailures = cr.failed
		if cr.err == nil {
			res.CreatesDoneS = ptr(seconds(cr.doneAt.Sub(start)))
		}
		fillJobsResult(res, prog.snapshot())
	}()

	if err := await(mctx, "every pod to exist", prog.allPods, cr, alive, status); err != nil {
		return err
	}
	s := prog.snapshot()
	logf("all %d pods exist after %.2fs", res.Pods, s.lastPodAt.Seconds())
	res.AllPodsS = ptr(seconds(s.lastPodAt))
	res.PodsPerS = ptr(round2(float64(res.Pods) / s.lastPodAt.Seconds()))
	if err := await(mctx, "every job to be Running", prog.allRunning, cr, alive, status); err != nil {
		return err
	}
	s = prog.snapshot()
	logf("all %d jobs Running after %.2fs", res.Jobs, s.lastRunningAt.Seconds())
	res.AllRunningS = ptr(seconds(s.lastRunningAt))
	return nil
}

// fillJobsResult copies the counters every result carries, complete or not.
func fillJobsResult(res *jobsResult, s snapshot) {
	res.PodsSeen, res.JobsRunning, res.JobPhases = s.pods, s.running, s.phases
	if s.pods > 0 {
		res.FirstPodS = ptr(seconds(s.firstPodAt))
	}
	if len(s.jobLatencies) > 0 {
		res.JobRunningP50S = ptr(seconds(percentile(s.jobLatencies, 0.5)))
		res.JobRunningP99S = ptr(seconds(percentile(s.jobLatencies, 0.99)))
	}
}

// signalContext ends on SIGINT or SIGTERM, so that run.sh's cleanup stops a run promptly.
func signalContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

func ptr(v float64) *float64 { return &v }

func round2(v float64) float64 { return float64(int64(v*100+0.5)) / 100 }

package main

import (
	"context"
	"flag"
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
	batchv1alpha1 "volcano.sh/apis/pkg/apis/batch/v1alpha1"
	flowv1alpha1 "volcano.sh/apis/pkg/apis/flow/v1alpha1"
	vcinformers "volcano.sh/apis/pkg/client/informers/externalversions"
)

// jobFlowsResult is the JSON result of `vcbench jobflows`. The *_s fields are seconds from just
// before the first JobFlow create (the JobTemplates exist by then); null when not reached.
type jobFlowsResult struct {
	resultHeader
	Flows         int      `json:"flows"`
	Steps         int      `json:"steps"`
	Jobs          int      `json:"jobs"`
	FirstSucceedS *float64 `json:"first_succeed_s"`
	AllSucceedS   *float64 `json:"all_succeed_s"`
	// FlowSucceed*: per flow, from its create request to the first watch event showing it Succeed.
	FlowSucceedP50S *float64       `json:"flow_succeed_p50_s"`
	FlowSucceedP99S *float64       `json:"flow_succeed_p99_s"`
	FlowsSucceeded  int            `json:"flows_succeeded"`
	FlowPhases      map[string]int `json:"flow_phases"`
	JobPhases       map[string]int `json:"job_phases"`
}

func runJobFlows(args []string) error {
	fs := flag.NewFlagSet("jobflows", flag.ContinueOnError)
	var common commonFlags
	common.register(fs, 10*time.Minute)
	flows := fs.Int("flows", 200, "number of JobFlows, each running the five steps a; b, c after a; d after b, c; e after d")
	succeedAfter := fs.Duration("succeed-after", time.Second, "how long each step's pod runs on kwok")
	queue := fs.String("queue", "bench", "queue of the steps' Jobs (must be Open)")
	placementFlag := fs.String("placement", "", "key=value: node label and NoSchedule taint of the benchmark nodes")
	concurrency := fs.Int("concurrency", 64, "concurrent create requests")
	controllerPid := fs.Int("controller-pid", 0, "fail at once when this process (the controller under test) ends")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := common.check(); err != nil {
		return err
	}
	if *flows < 1 || *concurrency < 1 || *succeedAfter <= 0 {
		return fmt.Errorf("--flows, --concurrency and --succeed-after must be positive: %w", errUsage)
	}
	place, c, err := placedClients(common.kubeconfig, *placementFlag)
	if err != nil {
		return err
	}
	ctx, cancel := signalContext()
	defer cancel()

	res := jobFlowsResult{resultHeader: resultHeader{Kind: "jobflows", Namespace: common.namespace, Concurrency: *concurrency}, Flows: *flows, Steps: len(flowSteps),
		Jobs: *flows * len(flowSteps)}
	job := finishingJobSpec(*queue, place, *succeedAfter)
	err = measureJobFlows(ctx, c, common, job, place, processAlive(*controllerPid), &res)
	if err != nil {
		res.Error = err.Error()
	}
	emit(res)
	return err
}

func measureJobFlows(ctx context.Context, c *clients, common commonFlags, job batchv1alpha1.JobSpec,
	place placement, alive func() error, res *jobFlowsResult) error {
	ns := common.namespace
	if err := createNamespace(ctx, c.kube, ns, place); err != nil {
		return err
	}
	for _, step := range flowSteps {
		if _, err := c.vc.FlowV1alpha1().JobTemplates(ns).Create(ctx, benchJobTemplate(step.Name, job),
			metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("create JobTemplate %s: %w", step.Name, err)
		}
	}
	prog := newGoalProgress(string(flowv1alpha1.Succeed), 0, res.Flows)
	watchCtx, stopWatches := context.WithCancel(ctx)
	defer stopWatches()
	jobs, err := watchFlows(watchCtx, c, ns, prog)
	if err != nil {
		return err
	}
	status := func() string {
		s := prog.snapshot()
		return fmt.Sprintf("flows Succeed %d/%d, flow phases [%s], job phases [%s]", s.running, res.Flows,
			phaseSummary(s.phases), phaseSummary(jobPhases(jobs)))
	}
	// A Failed flow never succeeds: stop at once, as when the controller dies.
	aliveAndNoneFailed := func() error {
		if err := alive(); err != nil {
			return err
		}
		if n := prog.snapshot().phases[string(flowv1alpha1.Failed)]; n > 0 {
			return fmt.Errorf("%d JobFlows are Failed", n)
		}
		return nil
	}

	mctx, cancel := context.WithTimeout(ctx, common.timeout)
	defer cancel()
	start := time.Now()
	prog.begin(start)
	res.StartUnixMs = start.UnixMilli()
	logf("creating %d JobFlows of %d steps in %s (%d at a time)", res.Flows, res.Steps, ns, res.Concurrency)
	cr := startCreation(mctx, res.Flows, res.Concurrency, func(ctx context.Context, i int) error {
		flow := benchJobFlow(i)
		prog.submitJob(flow.Name, time.Now())
		_, err := c.vc.FlowV1alpha1().JobFlows(ns).Create(ctx, flow, metav1.CreateOptions{})
		return err
	})
	defer func() {
		// As in measureJobs: every way out has the creates returned or mctx ended.
		<-cr.done
		res.CreateFailures = cr.failed
		if cr.err == nil {
			res.CreatesDoneS = ptr(seconds(cr.doneAt.Sub(start)))
		}
		s := prog.snapshot()
		res.FlowsSucceeded, res.FlowPhases, res.JobPhases = s.running, s.phases, jobPhases(jobs)
		if s.running > 0 {
			res.FirstSucceedS = ptr(seconds(s.firstRunningAt))
		}
		if len(s.jobLatencies) > 0 {
			res.FlowSucceedP50S = ptr(seconds(percentile(s.jobLatencies, 0.5)))
			res.FlowSucceedP99S = ptr(seconds(percentile(s.jobLatencies, 0.99)))
		}
	}()

	if err := await(mctx, "every JobFlow to Succeed", prog.allRunning, cr, aliveAndNoneFailed, status); err != nil {
		return err
	}
	s := prog.snapshot()
	logf("all %d JobFlows Succeed after %.2fs", res.Flows, s.lastRunningAt.Seconds())
	res.AllSucceedS = ptr(seconds(s.lastRunningAt))
	return nil
}

// watchFlows starts informers on the JobFlows of ns, feeding p with their phases, and on its
// Volcano Jobs, whose store it returns for diagnostics; it returns once their lists are in.
func watchFlows(ctx context.Context, c *clients, ns string, p *progress) (cache.Store, error) {
	vf := vcinformers.NewSharedInformerFactoryWithOptions(c.vc, 0, vcinformers.WithNamespace(ns))
	flowInformer := vf.Flow().V1alpha1().JobFlows().Informer()
	observe := func(obj any) {
		if flow, ok := obj.(*flowv1alpha1.JobFlow); ok {
			p.observeJob(flow.Name, string(flow.Status.State.Phase), time.Now())
		}
	}
	if _, err := flowInformer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    observe,
		UpdateFunc: func(_, obj any) { observe(obj) },
	}); err != nil {
		return nil, fmt.Errorf("jobflow handler: %w", err)
	}
	jobInformer := vf.Batch().V1alpha1().Jobs().Informer()
	vf.Start(ctx.Done())
	if !cache.WaitForCacheSync(ctx.Done(), flowInformer.HasSynced, jobInformer.HasSynced) {
		return nil, fmt.Errorf("watches of namespace %s did not sync: %w", ns, ctx.Err())
	}
	return jobInformer.GetStore(), nil
}

// jobPhases counts the Volcano Jobs in store by phase.
func jobPhases(store cache.Store) map[string]int {
	counts := map[string]int{}
	for _, obj := range store.List() {
		if job, ok := obj.(*batchv1alpha1.Job); ok {
			counts[string(job.Status.State.Phase)]++
		}
	}
	return counts
}

package main

import (
	"context"
	"flag"
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	schedulingv1beta1 "volcano.sh/apis/pkg/apis/scheduling/v1beta1"
)

// probeResult is the JSON result of `vcbench probe`: one one-task Job created at once and the
// moment its PodGroup was seen. The scale case starts a controller-manager just before, with
// thousands of jobs and pods already there, so the PodGroup appears only once that controller
// has synced its caches and acts: its cold start.
type probeResult struct {
	resultHeader
	Job            string `json:"job"`
	CreatedUnixMs  int64  `json:"created_unix_ms"`
	PodGroupUnixMs *int64 `json:"podgroup_unix_ms"`
}

func runProbe(args []string) error {
	fs := flag.NewFlagSet("probe", flag.ContinueOnError)
	var common commonFlags
	common.register(fs, 5*time.Minute)
	queue := fs.String("queue", "bench", "queue of the job (must be Open)")
	placementFlag := fs.String("placement", "", "key=value: node label and NoSchedule taint of the benchmark nodes")
	name := fs.String("job", "probe", "name of the job (in an existing --namespace)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := common.check(); err != nil {
		return err
	}
	place, c, err := placedClients(common.kubeconfig, *placementFlag)
	if err != nil {
		return err
	}
	ctx, cancel := signalContext()
	defer cancel()
	res := probeResult{resultHeader: resultHeader{Kind: "probe", Namespace: common.namespace, Concurrency: 1}, Job: *name}
	err = measureProbe(ctx, c, common, *queue, place, &res)
	if err != nil {
		res.Error = err.Error()
	}
	emit(res)
	return err
}

func measureProbe(ctx context.Context, c *clients, common commonFlags, queue string, place placement, res *probeResult) error {
	ctx, cancel := context.WithTimeout(ctx, common.timeout)
	defer cancel()
	job := benchJob(0, 1, queue, place)
	job.Name = res.Job
	start := time.Now()
	res.StartUnixMs, res.CreatedUnixMs = start.UnixMilli(), start.UnixMilli()
	created, err := c.vc.BatchV1alpha1().Jobs(common.namespace).Create(ctx, job, metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("create job %s/%s: %w", common.namespace, res.Job, err)
	}
	res.CreatesDoneS = ptr(seconds(time.Since(start)))
	// Every PodGroup change after the job's own write: the job's PodGroup cannot come earlier.
	w, err := c.vc.SchedulingV1beta1().PodGroups(common.namespace).Watch(ctx, metav1.ListOptions{
		ResourceVersion: created.ResourceVersion,
	})
	if err != nil {
		return fmt.Errorf("watch podgroups in %s: %w", common.namespace, err)
	}
	defer w.Stop()
	seen := 0
	for {
		select {
		case <-ctx.Done():
			return fmt.Errorf("no PodGroup owned by job %s after %s (%d other PodGroup events seen)",
				res.Job, time.Since(start).Round(time.Millisecond), seen)
		case ev, ok := <-w.ResultChan():
			if !ok {
				return fmt.Errorf("the PodGroup watch ended before job %s's PodGroup appeared", res.Job)
			}
			if ev.Type == watch.Error {
				return fmt.Errorf("PodGroup watch error: %v", ev.Object)
			}
			pg, isPG := ev.Object.(*schedulingv1beta1.PodGroup)
			if !isPG {
				continue
			}
			for _, ref := range pg.OwnerReferences {
				if ref.UID == created.UID {
					at := time.Now().UnixMilli()
					res.PodGroupUnixMs = &at
					logf("PodGroup %s of job %s seen %.3fs after the create", pg.Name, res.Job, float64(at-res.CreatedUnixMs)/1000)
					return nil
				}
			}
			seen++
		}
	}
}

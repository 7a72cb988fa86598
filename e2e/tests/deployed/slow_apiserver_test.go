package deployed

import (
	"context"
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"

	"vc-cpp.local/e2e/tests/framework"
)

const (
	slowLatency  = 5 * time.Second  // added to every byte between the webhook and the API server
	slowPeriod   = 60 * time.Second // how long the API server stays slow
	liveDeadline = 2 * time.Second  // --live-lookup-timeout's default: a review's longest wait
	// What the API server adds around a review (two webhook calls, the dry run): a missing-queue
	// Job must come back within liveDeadline plus this.
	apiServerOverhead = 500 * time.Millisecond
	p99Target         = 50 * time.Millisecond
)

// The webhook's own API access slowed down by 5 s for a minute (every replica's in-cluster
// address pointed at a proxy that delays every byte) must not slow down admission: Jobs naming
// an existing queue, which the webhook's Queue informer holds, keep being admitted at their
// usual latency (p99 reported, target 50 ms), and Jobs naming a missing queue - each a live
// read the slow API server cannot answer in time - are denied with Volcano's not-found text
// within the live-read deadline (2 s), not the API server's 10 s webhook timeout.
func TestDeployedWebhookSlowAPIServer(t *testing.T) {
	f := framework.New(t, "e2e-deployed-slowapi")
	ns := framework.DeployedNamespace()
	queue := "e2e-slowapi-" + f.Suffix
	f.CreateQueue(queue, 1)
	proxy := startLatencyProxy(t, f)
	routeWebhookThrough(t, f, ns, proxy.Addr())

	jobs := f.Volcano.BatchV1alpha1().Jobs(f.Namespace)
	newJob := func(name, queue string) error {
		_, err := jobs.Create(t.Context(), framework.NewJob(f.Namespace, framework.JobSpec{Name: name, Queue: queue,
			MinAvailable: 1, Tasks: []framework.Task{{Name: "t", Replicas: 1, CPU: "10m"}}}), framework.DryRunCreate())
		return err
	}
	// The new replicas hold the queue in their informers before the API server turns slow.
	f.WaitFor("the webhook to admit Jobs of "+queue, time.Minute, func() (bool, string, error) {
		err := newJob("warm-up", queue)
		return err == nil, fmt.Sprintf("%v", err), nil
	})

	proxy.SetLatency(slowLatency)
	slowFrom := time.Now()
	t.Logf("API server slowed by %v for %v, through %s (%d connections so far)", slowLatency, slowPeriod,
		proxy.Addr(), proxy.Connections())
	var wg sync.WaitGroup
	var existing latencies
	var failures []string
	var mu sync.Mutex
	wg.Add(1)
	go func() { // the steady stream: one Job of the existing queue every 50 ms
		defer wg.Done()
		for i := 0; time.Since(slowFrom) < slowPeriod; i++ {
			t0 := time.Now()
			err := newJob(fmt.Sprintf("steady-%d", i), queue)
			existing.add(time.Since(t0))
			if err != nil {
				mu.Lock()
				failures = append(failures, fmt.Sprintf("+%v %v", time.Since(slowFrom).Round(time.Millisecond), err))
				mu.Unlock()
			}
			time.Sleep(50 * time.Millisecond)
		}
	}()
	// Jobs of queues that exist nowhere, one a second, each under a new name so that no earlier
	// answer is remembered.
	var missing latencies
	var timedOutReads int
	for i := 0; time.Since(slowFrom) < slowPeriod; i++ {
		name := fmt.Sprintf("e2e-slowapi-missing-%s-%d", f.Suffix, i)
		t0 := time.Now()
		err := newJob(fmt.Sprintf("missing-%d", i), name)
		took := time.Since(t0)
		missing.add(took)
		notFound := fmt.Sprintf("queue.scheduling.volcano.sh %q not found", name)
		if p := framework.DenialProblem(err, framework.WebhookValidateJob, notFound); p != "" {
			t.Errorf("Job of missing queue %s after %v: %s", name, took.Round(time.Millisecond), p)
		} else if strings.Contains(err.Error(), "reading it from the API server failed: Timeout") {
			timedOutReads++
		}
		if took > liveDeadline+apiServerOverhead {
			t.Errorf("Job of missing queue %s answered after %v, more than the live-read deadline %v (+%v for the API server)",
				name, took.Round(time.Millisecond), liveDeadline, apiServerOverhead)
		}
		time.Sleep(time.Second)
	}
	wg.Wait()
	proxy.SetLatency(0)

	t.Logf("existing queue: %s; target p99 %v", existing.summary(), p99Target)
	t.Logf("missing queues: %s; %d denials say the live read timed out", missing.summary(), timedOutReads)
	if len(failures) > 0 {
		t.Errorf("%d of %d Jobs of an existing queue failed while the API server was slow; first ones:\n%s",
			len(failures), existing.count(), strings.Join(failures[:min(len(failures), 10)], "\n"))
	}
	if p99 := existing.quantile(0.99); p99 > p99Target {
		t.Errorf("p99 admission latency of Jobs of an existing queue was %v while the API server was slow, target %v",
			p99.Round(time.Millisecond), p99Target)
	}
	// Were the webhook's reads slow at all? At 5 s latency a live read cannot finish in 2 s, so
	// some denial must say it timed out (others may find every live-read slot busy and say so).
	// None at all: the webhook's API access was not slowed, or it runs one thread
	// (--live-lookup-concurrency -1 then means no live reads).
	if timedOutReads == 0 {
		t.Errorf("no denial of a missing queue said its live read timed out: was the webhook's API access really slowed (proxy connections: %d)?",
			proxy.Connections())
	}
}

// latencies collects durations from several goroutines.
type latencies struct {
	mu sync.Mutex
	d  []time.Duration
}

func (l *latencies) add(d time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.d = append(l.d, d)
}

func (l *latencies) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.d)
}

// quantile q (0..1) by the nearest-rank method; 0 with no samples.
func (l *latencies) quantile(q float64) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.d) == 0 {
		return 0
	}
	s := slices.Clone(l.d)
	slices.Sort(s)
	i := int(q*float64(len(s))+0.5) - 1
	return s[max(0, min(i, len(s)-1))]
}

func (l *latencies) summary() string {
	return fmt.Sprintf("%d requests, p50 %v, p99 %v, max %v", l.count(), l.quantile(0.5).Round(time.Millisecond),
		l.quantile(0.99).Round(time.Millisecond), l.quantile(1).Round(time.Millisecond))
}

func startLatencyProxy(t *testing.T, f *framework.Framework) *framework.LatencyProxy {
	t.Helper()
	listen, upstream := proxyAddresses(t, f)
	p, err := framework.StartLatencyProxy(listen, upstream)
	if err != nil {
		t.Fatalf("proxy on %s: %v", listen, err)
	}
	t.Cleanup(p.Close)
	return p
}

// routeWebhookThrough points every webhook replica's in-cluster API address at proxy (a rollout
// of the Deployment, as the fence test does for one controller pod) and waits until all of them
// are replaced; the cleanup restores the Deployment's environment and waits for that rollout too
// (registered before the proxy's Close runs, so the old replicas keep their API access until
// they are gone).
func routeWebhookThrough(t *testing.T, f *framework.Framework, ns string, proxy *net.TCPAddr) {
	t.Helper()
	var saved []corev1.EnvVar
	setEnv := func(ctx context.Context, env func([]corev1.EnvVar) []corev1.EnvVar) error {
		return retry.RetryOnConflict(retry.DefaultRetry, func() error {
			d, err := f.Kube.AppsV1().Deployments(ns).Get(ctx, framework.WebhookDeployment, metav1.GetOptions{})
			if err != nil {
				return err
			}
			c := &d.Spec.Template.Spec.Containers[0]
			c.Env = env(c.Env)
			_, err = f.Kube.AppsV1().Deployments(ns).Update(ctx, d, metav1.UpdateOptions{})
			return err
		})
	}
	err := setEnv(t.Context(), func(env []corev1.EnvVar) []corev1.EnvVar {
		saved = slices.Clone(env)
		return append(env,
			corev1.EnvVar{Name: "KUBERNETES_SERVICE_HOST", Value: proxy.IP.String()},
			corev1.EnvVar{Name: "KUBERNETES_SERVICE_PORT", Value: strconv.Itoa(proxy.Port)})
	})
	if err != nil {
		t.Fatalf("point %s at the proxy: %v", framework.WebhookDeployment, err)
	}
	t.Cleanup(func() {
		ctx := context.Background() // t.Context() is cancelled before cleanups run
		if err := setEnv(ctx, func([]corev1.EnvVar) []corev1.EnvVar { return saved }); err != nil {
			t.Errorf("restore %s's environment: %v", framework.WebhookDeployment, err)
			return
		}
		waitWebhookRollout(ctx, t, f, ns, func(env []corev1.EnvVar) bool { return !hasEnv(env, "KUBERNETES_SERVICE_HOST") })
	})
	waitWebhookRollout(t.Context(), t, f, ns, func(env []corev1.EnvVar) bool { return hasEnv(env, "KUBERNETES_SERVICE_HOST") })
}

func hasEnv(env []corev1.EnvVar, name string) bool {
	return slices.ContainsFunc(env, func(e corev1.EnvVar) bool { return e.Name == name })
}

// waitWebhookRollout waits until the webhook Deployment has rolled out and each of its pods
// (terminating ones included) has an environment that want accepts.
func waitWebhookRollout(ctx context.Context, t *testing.T, f *framework.Framework, ns string, want func([]corev1.EnvVar) bool) {
	t.Helper()
	f.WaitFor("every webhook replica rolled out", 5*time.Minute, func() (bool, string, error) {
		d, pods, err := f.DeploymentPods(ns, framework.WebhookDeployment)
		if err != nil {
			return false, "", err
		}
		if err := ctx.Err(); err != nil {
			return false, "", err
		}
		for _, p := range pods {
			if !want(p.Spec.Containers[0].Env) {
				return false, framework.DeploymentSummary(d) + "; pod " + p.Name + " not yet replaced", nil
			}
		}
		return framework.RolledOut(d), framework.DeploymentSummary(d), nil
	})
}

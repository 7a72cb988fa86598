package framework

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	schedulingv1beta1 "volcano.sh/apis/pkg/apis/scheduling/v1beta1"
)

// AdmissionStream sends a steady stream of admission requests (dry-run creates of a small
// Volcano Job: /jobs/mutate and /jobs/validate, no object stored; with WithPodGroups every other
// request is a dry-run PodGroup create: /podgroups/mutate) and counts how many failed and how
// long each took. Start it before a disruption and Stop it after: a failed admission is what a
// user's `kubectl apply` would have seen, and its latency what the user waited.
type AdmissionStream struct {
	cancel context.CancelFunc
	done   chan struct{}

	mu        sync.Mutex
	sent      int
	failures  []string // "<time since start> <error>", in order
	latencies []timedLatency
}

type timedLatency struct {
	at      time.Time // when the request was sent
	latency time.Duration
}

// StreamOptions shapes a stream; the zero value sends Jobs only, in f.Namespace.
type StreamOptions struct {
	WithPodGroups bool
	// Queue, when set, names the queue every Job and PodGroup asks for.
	Queue string
}

// StartAdmissionStream sends one dry-run Job create every interval from its own goroutine.
func (f *Framework) StartAdmissionStream(interval time.Duration) *AdmissionStream {
	return f.StartAdmissionStreamWith(interval, StreamOptions{})
}

// StartAdmissionStreamWith is StartAdmissionStream with options.
func (f *Framework) StartAdmissionStreamWith(interval time.Duration, o StreamOptions) *AdmissionStream {
	c, cancel := context.WithCancel(context.Background())
	s := &AdmissionStream{cancel: cancel, done: make(chan struct{})}
	start := time.Now()
	go func() {
		defer close(s.done)
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for i := 0; ; i++ {
			sentAt := time.Now()
			var err error
			if o.WithPodGroups && i%2 == 1 {
				pg := &schedulingv1beta1.PodGroup{
					ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("stream-pg-%d", i), Namespace: f.Namespace},
					Spec:       schedulingv1beta1.PodGroupSpec{MinMember: 1, Queue: o.Queue},
				}
				_, err = f.Volcano.SchedulingV1beta1().PodGroups(f.Namespace).Create(c, pg, DryRunCreate())
			} else {
				job := NewJob(f.Namespace, JobSpec{Name: fmt.Sprintf("stream-%d", i), MinAvailable: 1,
					Queue: o.Queue, Tasks: []Task{{Name: "t", Replicas: 1, CPU: "10m"}}})
				_, err = f.Volcano.BatchV1alpha1().Jobs(f.Namespace).Create(c, job, DryRunCreate())
			}
			took := time.Since(sentAt)
			if c.Err() != nil {
				return // cancelled mid-call: neither a success nor a failure
			}
			s.mu.Lock()
			s.sent++
			s.latencies = append(s.latencies, timedLatency{at: sentAt, latency: took})
			if err != nil {
				s.failures = append(s.failures, fmt.Sprintf("+%v %v", time.Since(start).Round(time.Millisecond), err))
			}
			s.mu.Unlock()
			select {
			case <-c.Done():
				return
			case <-tick.C:
			}
		}
	}()
	return s
}

// Stop ends the stream and returns how many requests completed and the failures among them.
func (s *AdmissionStream) Stop() (sent int, failures []string) {
	s.cancel()
	<-s.done
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sent, append([]string(nil), s.failures...)
}

// Sent is the number of requests completed so far.
func (s *AdmissionStream) Sent() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sent
}

// Failed is the number of failed requests so far.
func (s *AdmissionStream) Failed() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.failures)
}

// LatencyQuantile is the q-quantile (0 < q <= 1) of the latencies of the requests sent in
// [from, to), and how many there were; 0, 0 when none.
func (s *AdmissionStream) LatencyQuantile(q float64, from, to time.Time) (time.Duration, int) {
	s.mu.Lock()
	var ls []time.Duration
	for _, l := range s.latencies {
		if !l.at.Before(from) && l.at.Before(to) {
			ls = append(ls, l.latency)
		}
	}
	s.mu.Unlock()
	return Quantile(ls, q), len(ls)
}

// Quantile is the q-quantile (nearest rank) of ds; 0 when ds is empty. ds is sorted in place.
func Quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	rank := int(q*float64(len(ds))+0.999999) - 1
	return ds[max(0, min(rank, len(ds)-1))]
}

package tests

import (
	"fmt"
	"math/big"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"vc-cpp.local/e2e/tests/framework"
)

// Timeline of the rotation scenario: the client runs for rotationLoad and the serving
// certificate is re-issued at each of rotationAt.
const (
	rotationLoad       = 20 * time.Second
	servedCertDeadline = 5 * time.Second
)

var rotationAt = []time.Duration{5 * time.Second, 12 * time.Second}

// admissionLoad sends dry-run creates through the webhooks from a few goroutines until
// stopped, and counts successes per phase (a phase ends at each certificate rotation) and
// failures.
type admissionLoad struct {
	phase  atomic.Int32
	stop   atomic.Bool
	ok     [3]atomic.Int64
	failed atomic.Int64
	wg     sync.WaitGroup

	mu       sync.Mutex
	failures []string // the first few failures, for the report
}

func (l *admissionLoad) record(err error) {
	if err == nil {
		l.ok[l.phase.Load()].Add(1)
		return
	}
	if l.failed.Add(1) <= 5 {
		l.mu.Lock()
		l.failures = append(l.failures, fmt.Sprintf("%s: %v", time.Now().Format("15:04:05.000"), err))
		l.mu.Unlock()
	}
}

func (l *admissionLoad) run(requests ...func(i int) error) {
	for w, req := range requests {
		l.wg.Add(1)
		go func() {
			defer l.wg.Done()
			for i := 0; !l.stop.Load(); i++ {
				l.record(req(w*1_000_000 + i))
			}
		}()
	}
}

func (l *admissionLoad) halt() {
	l.stop.Store(true)
	l.wg.Wait()
}

// TestWebhookCertRotation: the webhook's serving certificate is re-issued twice (with
// certs/gen-certs.sh, from the same CA) while a client keeps creating Jobs, Queues and
// PodGroups through the webhooks; not one request fails. Our webhook must also start serving
// the new certificate within 5 s; Volcano's reads its certificate only at start-up, so with the
// reference the served serial is only logged.
func TestWebhookCertRotation(t *testing.T) {
	f := framework.New(t, "e2e-wh-certs")
	f.WaitQueueOpen("default")
	repo, err := framework.RepoRoot()
	if err != nil {
		t.Fatalf("%v", err)
	}
	pki, err := framework.PKIDir()
	if err != nil {
		t.Fatalf("%v", err)
	}
	caFile, addr := filepath.Join(pki, "ca.crt"), framework.WebhookAddr()
	ours := framework.WebhookImpl() == "ours"
	served, err := framework.ServedCertSerial(addr, caFile)
	if err != nil {
		t.Fatalf("TLS handshake with the webhook at %s: %v", addr, err)
	}
	t.Logf("webhook %s (impl %q) serves certificate serial %x", addr, framework.WebhookImpl(), served)

	jobs := f.Volcano.BatchV1alpha1().Jobs(f.Namespace)
	queues := f.Volcano.SchedulingV1beta1().Queues()
	pgs := f.Volcano.SchedulingV1beta1().PodGroups(f.Namespace)
	load := &admissionLoad{}
	defer load.halt() // also on a failed assertion below
	start := time.Now()
	load.run(
		func(i int) error {
			_, err := jobs.Create(t.Context(), bareJob(f.Namespace, fmt.Sprintf("rot-%d", i), bareTask("", 1)), framework.DryRunCreate())
			return err
		},
		func(i int) error {
			_, err := jobs.Create(t.Context(), bareJob(f.Namespace, fmt.Sprintf("rot-%d", i), bareTask("a", 2)), framework.DryRunCreate())
			return err
		},
		func(i int) error {
			if i%2 == 0 {
				_, err := queues.Create(t.Context(), newQueue(fmt.Sprintf("e2e-wh-rot-%s-%d", f.Suffix, i), "", nil, nil, nil), framework.DryRunCreate())
				return err
			}
			_, err := pgs.Create(t.Context(), newPodGroup(f.Namespace, fmt.Sprintf("rot-%d", i), "default"), framework.DryRunCreate())
			return err
		},
	)

	for n, at := range rotationAt {
		<-time.After(time.Until(start.Add(at)))
		issued := framework.RotateWebhookCert(t, repo, pki)
		load.phase.Store(int32(n + 1))
		t.Logf("rotation %d at %v: issued certificate serial %x", n+1, time.Since(start).Round(time.Millisecond), issued)
		if issued.Cmp(served) == 0 {
			t.Fatalf("gen-certs.sh re-issued the serial that is already served (%x)", issued)
		}
		if ours {
			framework.WaitFor(t, "the webhook to serve the new certificate", servedCertDeadline, servedSerialIs(addr, caFile, issued))
			served = issued
			continue
		}
		now, err := framework.ServedCertSerial(addr, caFile)
		t.Logf("reference webhook serves serial %x (err %v); it does not reload certificates", now, err)
	}
	<-time.After(time.Until(start.Add(rotationLoad)))
	load.halt()

	t.Logf("requests admitted per phase (before, after 1st, after 2nd rotation): %d %d %d; failed: %d",
		load.ok[0].Load(), load.ok[1].Load(), load.ok[2].Load(), load.failed.Load())
	if n := load.failed.Load(); n != 0 {
		t.Errorf("%d requests failed during certificate rotation; first ones: %v", n, load.failures)
	}
	for p := range load.ok {
		if load.ok[p].Load() == 0 {
			t.Errorf("no request was admitted in phase %d: the load did not overlap the rotations", p)
		}
	}
}

func servedSerialIs(addr, caFile string, want *big.Int) framework.Condition {
	return func() (bool, string, error) {
		got, err := framework.ServedCertSerial(addr, caFile)
		if err != nil {
			return false, "", err
		}
		return got.Cmp(want) == 0, fmt.Sprintf("serving serial %x", got), nil
	}
}

package main

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
)

func TestCreateAllCallsEachIndexOnceWithinTheConcurrencyBound(t *testing.T) {
	const n, limit = 200, 8
	var (
		mu       sync.Mutex
		seen     = map[int]int{}
		inFlight atomic.Int32
		peak     atomic.Int32
		gate     = make(chan struct{})
		started  atomic.Int32
	)
	create := func(ctx context.Context, i int) error {
		now := inFlight.Add(1)
		defer inFlight.Add(-1)
		for {
			p := peak.Load()
			if now <= p || peak.CompareAndSwap(p, now) {
				break
			}
		}
		// The first `limit` calls wait for each other, so the bound is actually reached.
		if started.Add(1) == limit {
			close(gate)
		}
		<-gate
		mu.Lock()
		seen[i]++
		mu.Unlock()
		return nil
	}
	failed, err := createAll(context.Background(), n, limit, create)
	if err != nil || failed != 0 {
		t.Fatalf("createAll = %d failed, %v; want 0, nil", failed, err)
	}
	if len(seen) != n {
		t.Fatalf("%d distinct indexes created, want %d", len(seen), n)
	}
	for i, c := range seen {
		if c != 1 || i < 0 || i >= n {
			t.Fatalf("index %d created %d times", i, c)
		}
	}
	if p := peak.Load(); p != limit {
		t.Errorf("peak concurrency %d, want %d", p, limit)
	}
}

func TestCreateAllStopsFeedingAfterTheFirstError(t *testing.T) {
	boom := errors.New("boom")
	var calls atomic.Int32
	create := func(ctx context.Context, i int) error {
		calls.Add(1)
		if i == 3 {
			return boom
		}
		return nil
	}
	failed, err := createAll(context.Background(), 1000, 1, create)
	if !errors.Is(err, boom) || failed != 1 {
		t.Fatalf("createAll = %d failed, %v; want 1, boom", failed, err)
	}
	// With one worker, indexes 0..3 are created in order and nothing after the failure.
	if c := calls.Load(); c != 4 {
		t.Errorf("%d creates called with an error at index 3 and one worker, want 4", c)
	}
}

func TestCreateAllReportsAnInterruptionBeforeEveryCreateWasStarted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	create := func(context.Context, int) error {
		cancel()
		return nil
	}
	failed, err := createAll(ctx, 100, 1, create)
	if err == nil || failed != 0 {
		t.Fatalf("createAll = %d failed, %v; want 0 failed and an interruption error", failed, err)
	}
}

package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

func TestProcessAliveFailsOnceTheProcessHasEnded(t *testing.T) {
	if err := processAlive(os.Getpid())(); err != nil {
		t.Fatalf("processAlive(self) = %v, want nil", err)
	}
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil { // Run reaps the child: its pid no longer exists
		t.Fatalf("run true: %v", err)
	}
	if err := processAlive(cmd.Process.Pid)(); err == nil {
		t.Errorf("processAlive(ended pid %d) = nil, want an error", cmd.Process.Pid)
	}
	if err := processAlive(0)(); err != nil {
		t.Errorf("processAlive(0) = %v, want nil (nothing to check)", err)
	}
}

// finishedCreation is a creation that has already returned err.
func finishedCreation(err error) *creation {
	cr := &creation{done: make(chan struct{}), err: err}
	if err != nil {
		cr.failed = 1
	}
	close(cr.done)
	return cr
}

func noCheck() error { return nil }

func TestAwaitKeepsWaitingAfterSuccessfulCreatesUntilTheTarget(t *testing.T) {
	// The finished creation is the only ready case at first, so await consumes it before the
	// first liveness check closes the target.
	target := make(chan struct{})
	checks := 0
	closeTarget := func() error {
		checks++
		if checks == 1 {
			close(target)
		}
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := await(ctx, "target", target, finishedCreation(nil), closeTarget, func() string { return "" }); err != nil {
		t.Fatalf("await = %v, want nil", err)
	}
	if checks != 1 {
		t.Errorf("await returned after %d liveness checks, want 1 (the one that closed the target)", checks)
	}
}

func TestAwaitFailsWithTheFirstCreateError(t *testing.T) {
	boom := errors.New("boom")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := await(ctx, "target", make(chan struct{}), finishedCreation(boom), noCheck, func() string { return "seen" })
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "seen") {
		t.Fatalf("await = %v, want boom with the status", err)
	}
}

func TestAwaitFailsWhenTheControllerIsGone(t *testing.T) {
	gone := errors.New("gone")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	pending := &creation{done: make(chan struct{})}
	err := await(ctx, "target", make(chan struct{}), pending, func() error { return gone }, func() string { return "" })
	if !errors.Is(err, gone) {
		t.Fatalf("await = %v, want gone", err)
	}
}

func TestAwaitTimesOutWithWhatItSaw(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	pending := &creation{done: make(chan struct{})}
	err := await(ctx, "target", make(chan struct{}), pending, noCheck, func() string { return "pods 3/4" })
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "pods 3/4") {
		t.Fatalf("await = %v, want a deadline error naming what was seen", err)
	}
}

package main

import (
	"testing"
	"time"
)

func closed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

func TestAllPodsClosesOnlyWhenEveryDistinctPodWasSeen(t *testing.T) {
	start := time.Unix(1000, 0)
	p := newProgress(3, 0)
	p.begin(start)
	p.observePod("a", start.Add(1*time.Second))
	p.observePod("a", start.Add(2*time.Second)) // an update of the same pod
	p.observePod("b", start.Add(3*time.Second))
	if closed(p.allPods) {
		t.Fatalf("allPods closed after 2 distinct pods of 3: %+v", p.snapshot())
	}
	p.observePod("c", start.Add(4*time.Second))
	if !closed(p.allPods) {
		t.Fatalf("allPods not closed after 3 distinct pods: %+v", p.snapshot())
	}
	s := p.snapshot()
	if s.pods != 3 || s.firstPodAt != time.Second || s.lastPodAt != 4*time.Second {
		t.Errorf("snapshot = pods %d first %v last %v, want 3, 1s, 4s", s.pods, s.firstPodAt, s.lastPodAt)
	}
}

func TestJobRunningIsRecordedOnceAndKeepsItsFirstTime(t *testing.T) {
	start := time.Unix(1000, 0)
	p := newProgress(0, 2)
	p.begin(start)
	p.submitJob("j1", start)
	p.submitJob("j2", start.Add(time.Second))
	p.observeJob("j1", "Pending", start.Add(2*time.Second))
	p.observeJob("j1", "Running", start.Add(3*time.Second))
	p.observeJob("j1", "Running", start.Add(9*time.Second)) // a later status write
	if closed(p.allRunning) {
		t.Fatalf("allRunning closed with 1 of 2 jobs Running")
	}
	p.observeJob("j2", "Running", start.Add(5*time.Second))
	if !closed(p.allRunning) {
		t.Fatalf("allRunning not closed with 2 of 2 jobs Running")
	}
	s := p.snapshot()
	if s.lastRunningAt != 5*time.Second {
		t.Errorf("lastRunningAt = %v, want 5s", s.lastRunningAt)
	}
	want := []time.Duration{3 * time.Second, 4 * time.Second} // j1: 0->3s, j2: 1s->5s
	if len(s.jobLatencies) != 2 || s.jobLatencies[0] != want[0] || s.jobLatencies[1] != want[1] {
		t.Errorf("jobLatencies = %v, want %v", s.jobLatencies, want)
	}
}

func TestPhasesCountSubmittedJobsNotYetSeenAsNoStatus(t *testing.T) {
	start := time.Unix(1000, 0)
	p := newProgress(0, 3)
	p.begin(start)
	for _, name := range []string{"a", "b", "c"} {
		p.submitJob(name, start)
	}
	p.observeJob("a", "Running", start)
	p.observeJob("b", "Pending", start)
	if got, want := phaseSummary(p.snapshot().phases), "(no status)=1 Pending=1 Running=1"; got != want {
		t.Errorf("phaseSummary = %q, want %q", got, want)
	}
}

func TestPercentileUsesNearestRank(t *testing.T) {
	var d []time.Duration
	for i := 1; i <= 100; i++ {
		d = append(d, time.Duration(i)*time.Millisecond)
	}
	cases := []struct {
		q    float64
		want time.Duration
	}{{0.5, 50 * time.Millisecond}, {0.99, 99 * time.Millisecond}, {1, 100 * time.Millisecond}}
	for _, c := range cases {
		if got := percentile(d, c.q); got != c.want {
			t.Errorf("percentile(1..100ms, %v) = %v, want %v", c.q, got, c.want)
		}
	}
	if got := percentile(nil, 0.5); got != 0 {
		t.Errorf("percentile(empty) = %v, want 0", got)
	}
}

func TestGoalProgressFollowsJobFlowsToSucceed(t *testing.T) {
	start := time.Unix(1000, 0)
	p := newGoalProgress("Succeed", 0, 2)
	p.begin(start)
	p.submitJob("f1", start)
	p.submitJob("f2", start)
	p.observeJob("f1", "Running", start.Add(2*time.Second)) // Running is not the goal here
	p.observeJob("f1", "Succeed", start.Add(6*time.Second))
	if closed(p.allRunning) {
		t.Fatalf("closed with 1 of 2 flows Succeed")
	}
	p.observeJob("f2", "Succeed", start.Add(8*time.Second))
	if !closed(p.allRunning) {
		t.Fatalf("not closed with 2 of 2 flows Succeed")
	}
	s := p.snapshot()
	if s.running != 2 || s.firstRunningAt != 6*time.Second || s.lastRunningAt != 8*time.Second {
		t.Errorf("snapshot: %d in the goal, first %v, last %v; want 2, 6s, 8s", s.running, s.firstRunningAt, s.lastRunningAt)
	}
	if closed(p.allPods) {
		t.Errorf("allPods closed though no pods are wanted")
	}
}

package main

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
)

// progress records what the watches saw during one measurement. Informer handlers call
// observe*, the creating goroutines submitJob, the measuring goroutine begin, the channels and
// snapshot. All methods may be called from any goroutine.
//
// The "jobs" are Volcano Jobs, whose goal phase is Running, or for `vcbench jobflows` JobFlows,
// whose goal is Succeed; "running" below means "seen in the goal phase".
type progress struct {
	wantPods int
	wantJobs int
	goal     string
	// allPods is closed when wantPods distinct pods have been seen (never, if wantPods is 0);
	// allRunning when wantJobs distinct jobs have been seen in the goal phase (never, if
	// wantJobs is 0).
	allPods    chan struct{}
	allRunning chan struct{}

	mu        sync.Mutex
	start     time.Time            // just before the first create; offsets are from here
	podSeen   map[string]time.Time // first time each pod name was seen
	submitted map[string]time.Time // when each job's create was sent
	running   map[string]time.Time // first time each job was seen in the goal phase
	phase     map[string]string    // last phase seen per job
}

// newProgress follows Volcano Jobs to Running.
func newProgress(wantPods, wantJobs int) *progress {
	return newGoalProgress("Running", wantPods, wantJobs)
}

// newGoalProgress follows jobs (or JobFlows) to the phase goal.
func newGoalProgress(goal string, wantPods, wantJobs int) *progress {
	return &progress{
		wantPods: wantPods, wantJobs: wantJobs, goal: goal,
		allPods: make(chan struct{}), allRunning: make(chan struct{}),
		podSeen: map[string]time.Time{}, submitted: map[string]time.Time{},
		running: map[string]time.Time{}, phase: map[string]string{},
	}
}

// begin sets the moment offsets are measured from: just before the first create.
func (p *progress) begin(at time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.start = at
}

// observePod records that pod name exists at time at. Repeats of a name count once: a pod the
// watch delivers again (an update, a relist) is the same pod.
func (p *progress) observePod(name string, at time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, ok := p.podSeen[name]; ok {
		return
	}
	p.podSeen[name] = at
	if len(p.podSeen) == p.wantPods {
		close(p.allPods)
	}
}

// submitJob records when the create request of job name was sent.
func (p *progress) submitJob(name string, at time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.submitted[name] = at
}

// observeJob records the phase job name was seen in. The first time in the goal phase counts; a
// job that leaves it later (a benchmark Job should not: its pods never finish) keeps its time.
func (p *progress) observeJob(name, phase string, at time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.phase[name] = phase
	if phase != p.goal {
		return
	}
	if _, ok := p.running[name]; ok {
		return
	}
	p.running[name] = at
	if len(p.running) == p.wantJobs {
		close(p.allRunning)
	}
}

// snapshot is a consistent copy of the counters, for results and progress lines. Times are
// offsets from begin; zero when nothing was seen.
type snapshot struct {
	pods, running  int
	firstPodAt     time.Duration
	lastPodAt      time.Duration  // when the latest new pod was first seen
	firstRunningAt time.Duration  // when the earliest job was first seen in the goal phase
	lastRunningAt  time.Duration  // when the latest job was first seen in the goal phase
	phases         map[string]int // jobs per last seen phase ("" = no status yet)
	// jobLatencies are, per job seen in the goal phase, the time from its create to the first
	// sighting in that phase, sorted.
	jobLatencies []time.Duration
}

func (p *progress) snapshot() snapshot {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := snapshot{pods: len(p.podSeen), running: len(p.running), phases: map[string]int{}}
	first := true
	for _, at := range p.podSeen {
		offset := at.Sub(p.start)
		if first || offset < s.firstPodAt {
			s.firstPodAt = offset
		}
		if offset > s.lastPodAt {
			s.lastPodAt = offset
		}
		first = false
	}
	for _, phase := range p.phase {
		s.phases[phase]++
	}
	for name := range p.submitted {
		if _, seen := p.phase[name]; !seen {
			s.phases[""]++
		}
	}
	first = true
	for name, at := range p.running {
		offset := at.Sub(p.start)
		if first || offset < s.firstRunningAt {
			s.firstRunningAt = offset
		}
		if offset > s.lastRunningAt {
			s.lastRunningAt = offset
		}
		first = false
		if sub, ok := p.submitted[name]; ok {
			s.jobLatencies = append(s.jobLatencies, at.Sub(sub))
		}
	}
	sort.Slice(s.jobLatencies, func(i, j int) bool { return s.jobLatencies[i] < s.jobLatencies[j] })
	return s
}

// percentile returns the q-quantile (0 < q <= 1) of sorted by nearest rank, 0 if it is empty.
func percentile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(q*float64(len(sorted)) + 0.999999)
	if rank < 1 {
		rank = 1
	}
	if rank > len(sorted) {
		rank = len(sorted)
	}
	return sorted[rank-1]
}

// phaseSummary renders phase counts as "Pending=3 Running=497", phases sorted by name.
func phaseSummary(phases map[string]int) string {
	names := make([]string, 0, len(phases))
	for name := range phases {
		names = append(names, name)
	}
	sort.Strings(names)
	parts := make([]string, 0, len(names))
	for _, name := range names {
		label := name
		if label == "" {
			label = "(no status)"
		}
		parts = append(parts, fmt.Sprintf("%s=%d", label, phases[name]))
	}
	return strings.Join(parts, " ")
}

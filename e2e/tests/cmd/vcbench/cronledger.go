package main

import (
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// cronLedger accounts the runs of the benchmark's CronJobs over a window of whole minutes. The
// cronjob controller names the Job of a run <cronjob>-<scheduled time in Unix minutes>
// (spec controller-manager.md §5.4), so a Job's name alone says which CronJob and which minute it is
// for; its lateness is the moment the watch first delivered it minus that minute.
//
// The creating goroutines call addCronJob, the Job watch observeJob and observeCompleted, the
// measuring goroutine begin and summary. All methods may be called from any goroutine.
type cronLedger struct {
	minutes int // scheduled minutes in the window

	mu sync.Mutex
	// first is the first scheduled minute of the window: the first minute boundary after begin.
	first time.Time
	// created holds each benchmark CronJob's creationTimestamp (whole seconds): its first run
	// is the first minute boundary after it.
	created map[string]time.Time
	// runs holds each Job seen whose name parses as a run; the first sighting counts (a relist
	// or an update delivers the same Job again).
	runs      map[string]cronRun
	completed map[string]bool // Jobs seen Completed
	foreign   int             // Jobs seen whose names are not <cronjob>-<minutes>
}

// cronRun is one Job of a CronJob, as the watch saw it.
type cronRun struct {
	cronJob   string
	scheduled time.Time // from the name
	stamp     time.Time // the Job's creationTimestamp (whole seconds)
	seen      time.Time // when the watch first delivered the Job
}

func newCronLedger(minutes int) *cronLedger {
	return &cronLedger{minutes: minutes, created: map[string]time.Time{}, runs: map[string]cronRun{},
		completed: map[string]bool{}}
}

// firstMinuteAfter is the first minute boundary strictly after t: a CronJob "* * * * *"
// created at t (its creationTimestamp) runs first then, and so does a window begun at t.
func firstMinuteAfter(t time.Time) time.Time {
	return t.Truncate(time.Minute).Add(time.Minute)
}

// parseRunName splits a CronJob's Job name <cronjob>-<Unix minutes> into the CronJob's name and
// the scheduled time; ok is false for any other name.
func parseRunName(name string) (cronJob string, scheduled time.Time, ok bool) {
	i := strings.LastIndexByte(name, '-')
	if i <= 0 || i == len(name)-1 {
		return "", time.Time{}, false
	}
	digits := name[i+1:]
	if strings.Trim(digits, "0123456789") != "" {
		return "", time.Time{}, false
	}
	minutes, err := strconv.ParseInt(digits, 10, 64)
	if err != nil || minutes <= 0 {
		return "", time.Time{}, false
	}
	return name[:i], time.Unix(minutes*60, 0), true
}

// begin opens the window at the first minute boundary after at (just before the first create),
// and returns that minute.
func (l *cronLedger) begin(at time.Time) time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.first = firstMinuteAfter(at)
	return l.first
}

// addCronJob records a benchmark CronJob and its creationTimestamp.
func (l *cronLedger) addCronJob(name string, stamp time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.created[name] = stamp
}

// observeJob records that the watch delivered Job name, created at stamp, at time seen.
func (l *cronLedger) observeJob(name string, stamp, seen time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.runs[name]; ok {
		return
	}
	cronJob, scheduled, ok := parseRunName(name)
	if !ok {
		l.foreign++
		return
	}
	l.runs[name] = cronRun{cronJob: cronJob, scheduled: scheduled, stamp: stamp, seen: seen}
}

// observeCompleted records that Job name was seen Completed.
func (l *cronLedger) observeCompleted(name string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.completed[name] = true
}

// minuteSummary is the account of one scheduled minute of the window.
type minuteSummary struct {
	scheduled time.Time
	// expected: the CronJobs created before this minute; created: those whose Job for it was seen.
	expected, created int
	lateness          []time.Duration // of the Jobs seen, sorted
}

// cronSummary is a consistent account of the window, for results and progress lines.
type cronSummary struct {
	cronJobs  int
	minutes   []minuteSummary
	expected  int // runs due in the window
	created   int // of those, runs whose Job was seen
	missed    int // expected - created
	outside   int // Jobs of benchmark CronJobs for minutes outside the window, or not yet due
	unknown   int // Jobs named like runs of CronJobs the benchmark did not create (or not yet)
	foreign   int // Jobs whose names are not runs at all
	completed int // Jobs seen Completed
	// lateness: per Job seen for a due run, first seen - scheduled, sorted; stampLateness the same
	// from its creationTimestamp, which has whole seconds only.
	lateness, stampLateness []time.Duration
}

// summary accounts every due run: minute m of the window is due for CronJob c when c was
// created before m (its creationTimestamp is before m, as the controller reads it).
func (l *cronLedger) summary() cronSummary {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := cronSummary{cronJobs: len(l.created), foreign: l.foreign, completed: len(l.completed)}
	index := map[int64]int{} // Unix minute -> position in s.minutes
	for k := 0; k < l.minutes; k++ {
		m := l.first.Add(time.Duration(k) * time.Minute)
		index[m.Unix()/60] = k
		s.minutes = append(s.minutes, minuteSummary{scheduled: m})
		for _, stamp := range l.created {
			if stamp.Before(m) {
				s.minutes[k].expected++
			}
		}
		s.expected += s.minutes[k].expected
	}
	for _, run := range l.runs {
		stamp, known := l.created[run.cronJob]
		if !known {
			s.unknown++
			continue
		}
		k, inWindow := index[run.scheduled.Unix()/60]
		if !inWindow || !stamp.Before(run.scheduled) {
			s.outside++
			continue
		}
		late := run.seen.Sub(run.scheduled)
		s.minutes[k].created++
		s.minutes[k].lateness = append(s.minutes[k].lateness, late)
		s.lateness = append(s.lateness, late)
		s.stampLateness = append(s.stampLateness, run.stamp.Sub(run.scheduled))
	}
	s.created = len(s.lateness)
	s.missed = s.expected - s.created
	for k := range s.minutes {
		sortDurations(s.minutes[k].lateness)
	}
	sortDurations(s.lateness)
	sortDurations(s.stampLateness)
	return s
}

func sortDurations(d []time.Duration) {
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
}

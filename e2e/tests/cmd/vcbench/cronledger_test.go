package main

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// minute is the n-th minute after a fixed hour, as Unix time.
func minute(n int) time.Time { return time.Unix(29_000_000*60, 0).Add(time.Duration(n) * time.Minute) }

// runName is the name the cronjob controller gives the Job of cronJob's run at t.
func runName(cronJob string, t time.Time) string { return fmt.Sprintf("%s-%d", cronJob, t.Unix()/60) }

func TestParseRunNameGivesTheCronJobAndTheScheduledMinute(t *testing.T) {
	cronJob, at, ok := parseRunName("cron-0007-29000003")
	if !ok || cronJob != "cron-0007" || !at.Equal(minute(3)) {
		t.Errorf(`parseRunName("cron-0007-29000003") = %q, %v, %v; want cron-0007, %v`, cronJob, at, ok, minute(3))
	}
	for _, bad := range []string{"", "cron", "cron-", "-29000003", "cron-abc", "cron-0", "cron-+5", "cron-1.5"} {
		if _, _, ok := parseRunName(bad); ok {
			t.Errorf("parseRunName(%q) accepted", bad)
		}
	}
}

func TestFirstMinuteAfterIsStrictlyLater(t *testing.T) {
	cases := []struct {
		at, want time.Time
	}{
		{minute(0).Add(30 * time.Second), minute(1)},
		{minute(0).Add(59*time.Second + 999*time.Millisecond), minute(1)},
		{minute(0), minute(1)}, // created on the boundary: that minute is not after it
	}
	for _, c := range cases {
		if got := firstMinuteAfter(c.at); !got.Equal(c.want) {
			t.Errorf("firstMinuteAfter(%v) = %v, want %v", c.at, got, c.want)
		}
	}
}

func TestLatenessIsTheWatchSightingMinusTheMinuteInTheName(t *testing.T) {
	l := newCronLedger(1)
	if first := l.begin(minute(0).Add(30 * time.Second)); !first.Equal(minute(1)) {
		t.Fatalf("begin opened the window at %v, want %v", first, minute(1))
	}
	l.addCronJob("a", minute(0).Add(31*time.Second))
	l.addCronJob("b", minute(0).Add(31*time.Second))
	l.observeJob(runName("a", minute(1)), minute(1), minute(1).Add(250*time.Millisecond))
	l.observeJob(runName("b", minute(1)), minute(1).Add(time.Second), minute(1).Add(1700*time.Millisecond))
	// A relist or an update delivers a Job again: its first sighting stays.
	l.observeJob(runName("a", minute(1)), minute(1), minute(1).Add(9*time.Second))
	s := l.summary()
	wantLate := []time.Duration{250 * time.Millisecond, 1700 * time.Millisecond}
	wantStamp := []time.Duration{0, time.Second}
	if !reflect.DeepEqual(s.lateness, wantLate) || !reflect.DeepEqual(s.stampLateness, wantStamp) {
		t.Errorf("lateness %v stamp lateness %v, want %v and %v", s.lateness, s.stampLateness, wantLate, wantStamp)
	}
	if s.expected != 2 || s.created != 2 || s.missed != 0 {
		t.Errorf("expected %d created %d missed %d, want 2 2 0", s.expected, s.created, s.missed)
	}
}

func TestEachMinuteExpectsTheCronJobsCreatedBeforeIt(t *testing.T) {
	l := newCronLedger(3)
	l.begin(minute(0).Add(30 * time.Second)) // the window: minutes 1, 2, 3
	l.addCronJob("early", minute(0).Add(40*time.Second))
	l.addCronJob("straddler", minute(1).Add(2*time.Second)) // its create ended after minute 1
	l.addCronJob("on-the-dot", minute(2))                   // a stamp on the boundary: due from minute 3
	for _, m := range []int{1, 2, 3} {
		l.observeJob(runName("early", minute(m)), minute(m), minute(m).Add(time.Duration(m)*100*time.Millisecond))
	}
	l.observeJob(runName("straddler", minute(2)), minute(2), minute(2).Add(time.Second))
	// straddler's run of minute 3 never came; on-the-dot's did.
	l.observeJob(runName("on-the-dot", minute(3)), minute(3), minute(3).Add(2*time.Second))

	s := l.summary()
	type row struct{ expected, created int }
	var got []row
	for _, m := range s.minutes {
		got = append(got, row{m.expected, m.created})
	}
	want := []row{{1, 1}, {2, 2}, {3, 2}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("per minute (expected, created) = %v, want %v", got, want)
	}
	if s.expected != 6 || s.created != 5 || s.missed != 1 {
		t.Errorf("expected %d created %d missed %d, want 6 5 1", s.expected, s.created, s.missed)
	}
	wantMinute3 := []time.Duration{300 * time.Millisecond, 2 * time.Second}
	if !reflect.DeepEqual(s.minutes[2].lateness, wantMinute3) {
		t.Errorf("minute 3 lateness = %v, want %v (sorted)", s.minutes[2].lateness, wantMinute3)
	}
}

func TestJobsThatAreNotDueRunsAreCountedApart(t *testing.T) {
	l := newCronLedger(1)
	l.begin(minute(0).Add(30 * time.Second))
	l.addCronJob("a", minute(0).Add(31*time.Second))
	l.observeJob(runName("a", minute(2)), minute(2), minute(2))        // after the window
	l.observeJob(runName("a", minute(0)), minute(0), minute(0))        // before a existed
	l.observeJob(runName("stranger", minute(1)), minute(1), minute(1)) // not a benchmark CronJob
	l.observeJob("hand-made", minute(1), minute(1))                    // not a run at all
	l.observeCompleted(runName("a", minute(2)))
	s := l.summary()
	if s.outside != 2 || s.unknown != 1 || s.foreign != 1 || s.created != 0 || s.missed != 1 || s.completed != 1 {
		t.Errorf("outside %d unknown %d foreign %d created %d missed %d completed %d, want 2 1 1 0 1 1",
			s.outside, s.unknown, s.foreign, s.created, s.missed, s.completed)
	}
}

func TestCronResultReportsQuantilesPerMinuteAndOverall(t *testing.T) {
	l := newCronLedger(2)
	l.begin(minute(0).Add(30 * time.Second))
	for i := 0; i < 100; i++ {
		name := cronJobName(i)
		l.addCronJob(name, minute(0).Add(31*time.Second))
		l.observeJob(runName(name, minute(1)), minute(1), minute(1).Add(time.Duration(i+1)*10*time.Millisecond))
	}
	var res cronJobsResult
	fillCronResult(&res, l.summary())
	if res.ExpectedRuns != 200 || res.CreatedRuns != 100 || res.MissedRuns != 100 {
		t.Fatalf("runs expected %d created %d missed %d, want 200 100 100", res.ExpectedRuns, res.CreatedRuns, res.MissedRuns)
	}
	if *res.LatenessP50S != 0.5 || *res.LatenessP99S != 0.99 || *res.LatenessMaxS != 1 {
		t.Errorf("lateness p50 %v p99 %v max %v, want 0.5 0.99 1", *res.LatenessP50S, *res.LatenessP99S, *res.LatenessMaxS)
	}
	if len(res.PerMinute) != 2 {
		t.Fatalf("per minute = %+v, want 2 minutes", res.PerMinute)
	}
	m1, m2 := res.PerMinute[0], res.PerMinute[1]
	if m1.Scheduled != minute(1).UTC().Format(time.RFC3339) || m1.Expected != 100 || m1.Created != 100 ||
		*m1.LatenessP99S != 0.99 {
		t.Errorf("minute 1 = %+v", m1)
	}
	if m2.Expected != 100 || m2.Created != 0 || m2.LatenessP50S != nil {
		t.Errorf("minute 2 = %+v, want 100 expected, none created, no lateness", m2)
	}
}

func TestCronStatusListsOnlyMinutesAlreadyScheduled(t *testing.T) {
	l := newCronLedger(3)
	l.begin(minute(0).Add(30 * time.Second))
	l.addCronJob("a", minute(0).Add(31*time.Second))
	l.observeJob(runName("a", minute(1)), minute(1), minute(1))
	got := cronStatus(l.summary(), 2, minute(2).Add(10*time.Second))
	if !strings.Contains(got, "CronJobs 1/2") || strings.Count(got, "/1") != 2 {
		t.Errorf("cronStatus = %q, want CronJobs 1/2 and two minutes", got)
	}
}

func TestPercentileOfFewValuesIsTheirMaximumAtP99(t *testing.T) {
	d := []time.Duration{1, 2, 3}
	if got := percentile(d, 0.99); got != 3 {
		t.Errorf("percentile(1,2,3, 0.99) = %v, want 3", got)
	}
	if got := percentile(d, 0.5); got != 2 {
		t.Errorf("percentile(1,2,3, 0.5) = %v, want 2", got)
	}
	if p50, p99, maxi := quantiles(nil); p50 != nil || p99 != nil || maxi != nil {
		t.Errorf("quantiles(empty) = %v %v %v, want nils", p50, p99, maxi)
	}
}

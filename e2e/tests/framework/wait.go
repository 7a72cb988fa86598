package framework

import (
	"fmt"
	"testing"
	"time"
)

// PollInterval is how often WaitFor re-evaluates its condition.
const PollInterval = 250 * time.Millisecond

// Condition reports whether what a test waits for has happened. seen describes the state it
// looked at, in a few words; it is printed if the wait times out. err means the state could not
// be read this time (a failed GET, say): the wait goes on and reports the error if it times out.
type Condition func() (done bool, seen string, err error)

// WaitFor polls cond until it reports done, and fails the test if timeout passes first,
// printing what it last saw. It is the only way a test waits: there are no bare sleeps.
func WaitFor(t testing.TB, what string, timeout time.Duration, cond Condition) {
	t.Helper()
	start := time.Now()
	seen, err := Poll(timeout, cond)
	if err != nil {
		t.Fatalf("timed out after %v waiting for %s; last seen: %s; last error: %v",
			timeout, what, seen, err)
	}
	t.Logf("%s: %s (after %v)", what, seen, time.Since(start).Round(time.Millisecond))
}

// errTimeout is what Poll returns when the deadline passes with no read error to report.
var errTimeout = fmt.Errorf("condition not met")

// Poll evaluates cond immediately and then every PollInterval until it reports done or timeout
// passes. It returns the last seen description, and an error when the deadline passed: the
// last read error if the condition could not be evaluated, errTimeout otherwise.
func Poll(timeout time.Duration, cond Condition) (string, error) {
	deadline := time.Now().Add(timeout)
	ticker := time.NewTicker(PollInterval)
	defer ticker.Stop()
	var seen string
	var lastErr error
	for {
		done, s, err := cond()
		if err != nil {
			lastErr = err
		} else {
			seen, lastErr = s, nil
			if done {
				return seen, nil
			}
		}
		if time.Now().After(deadline) {
			if lastErr == nil {
				lastErr = errTimeout
			}
			return seen, lastErr
		}
		<-ticker.C
	}
}

package framework

import (
	"fmt"
	"sort"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
)

// PodMilestones is what the history says about one pod: when it was first seen started
// (Running, or already finished) and first seen finished (Succeeded or Failed).
type PodMilestones struct {
	Name     string
	Node     string // last node it was seen bound to
	Started  *PodEvent
	Finished *PodEvent
	Phase    corev1.PodPhase // last observed phase
}

// Started reports whether a phase means the pod has started: it runs or has run.
func Started(p corev1.PodPhase) bool {
	return p == corev1.PodRunning || Finished(p)
}

// Finished reports whether a phase is terminal.
func Finished(p corev1.PodPhase) bool {
	return p == corev1.PodSucceeded || p == corev1.PodFailed
}

// Milestones folds a pod history into per-pod milestones, keyed by pod name.
func Milestones(events []PodEvent) map[string]*PodMilestones {
	out := map[string]*PodMilestones{}
	for i := range events {
		e := &events[i]
		m := out[e.Name]
		if m == nil {
			m = &PodMilestones{Name: e.Name}
			out[e.Name] = m
		}
		if e.Node != "" {
			m.Node = e.Node
		}
		m.Phase = e.Phase
		if m.Started == nil && Started(e.Phase) {
			m.Started = e
		}
		if m.Finished == nil && Finished(e.Phase) {
			m.Finished = e
		}
	}
	return out
}

// PodTimeline renders the phase changes in a pod history, one line each, with times relative
// to the first event. Repeated observations of an unchanged phase and node are left out.
func PodTimeline(events []PodEvent) string {
	if len(events) == 0 {
		return "(no pod events)"
	}
	sorted := append([]PodEvent(nil), events...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Seq < sorted[j].Seq })
	t0 := sorted[0].At
	type state struct {
		phase corev1.PodPhase
		node  string
	}
	last := map[string]state{}
	var b strings.Builder
	for _, e := range sorted {
		s := state{e.Phase, e.Node}
		if prev, ok := last[e.Name]; ok && prev == s && !e.Deleted {
			continue
		}
		last[e.Name] = s
		deleted := ""
		if e.Deleted {
			deleted = " (deleted)"
		}
		fmt.Fprintf(&b, "  +%7.3fs #%-4d %-28s %-9s node=%s%s\n",
			e.At.Sub(t0).Seconds(), e.Seq, e.Name, e.Phase, e.Node, deleted)
	}
	return b.String()
}

// Since formats the duration between two observations for messages.
func Since(from, to time.Time) string {
	return to.Sub(from).Round(time.Millisecond).String()
}

package tests

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	batchv1alpha1 "volcano.sh/apis/pkg/apis/batch/v1alpha1"

	"vc-cpp.local/e2e/tests/framework"
)

const (
	poolKey = "vc-cpp.e2e/pool"
	// gangQueue is the queue of the seed case; it may be shared with other users of the
	// cluster, so an existing one is used and left alone.
	gangQueue = "ray-batch"
	// gangSpread bounds the time between the first and the third pod of one gang starting.
	// kwok marks bound pods Running within milliseconds; pod-by-pod placement would spread
	// them over scheduling cycles and, here, over the other job's whole run.
	gangSpread = 5 * time.Second
)

// TestGangSchedulingSeedCase is the motivating case of the project. Two Ray-style jobs (a
// head and two workers, useless unless all three run) share dedicated capacity for four
// one-CPU pods. Placing pods one by one could give each job two pods and deadlock both. With
// the Job turned into a PodGroup of minMember 3, the scheduler places one gang whole; it runs
// and finishes, then the other gang runs, and both jobs complete.
func TestGangSchedulingSeedCase(t *testing.T) {
	f := framework.New(t, "e2e-gang")
	pool := f.Suffix
	var poolNodes []string
	for i := 0; i < 2; i++ {
		name := fmt.Sprintf("gang-%s-%d", pool, i)
		f.CreateNode(framework.NodeSpec{
			Name: name, CPU: "2", Memory: "8Gi", Pods: "110",
			Labels: map[string]string{poolKey: pool},
			Taints: []corev1.Taint{{Key: poolKey, Value: pool, Effect: corev1.TaintEffectNoSchedule}},
		})
		poolNodes = append(poolNodes, name)
	}
	f.EnsureQueue(gangQueue, 1)
	rec := f.NewRecorder()

	onPool := []corev1.Toleration{{Key: poolKey, Operator: corev1.TolerationOpEqual, Value: pool,
		Effect: corev1.TaintEffectNoSchedule}}
	rayJob := func(name string) *batchv1alpha1.Job {
		task := func(taskName string, replicas int32) framework.Task {
			return framework.Task{
				Name: taskName, Replicas: replicas, CPU: "1", Memory: "256Mi",
				Annotations:  map[string]string{framework.AnnotationSucceedAfter: "8s"},
				NodeSelector: map[string]string{poolKey: pool},
				Tolerations:  onPool,
			}
		}
		return framework.NewJob(f.Namespace, framework.JobSpec{
			Name: name, Queue: gangQueue, MinAvailable: 3,
			Tasks: []framework.Task{task("head", 1), task("worker", 2)},
		})
	}
	// Submitted back to back: both PodGroups compete for the same four CPUs.
	jobA := f.CreateJob(rayJob("ray-a"))
	jobB := f.CreateJob(rayJob("ray-b"))
	jobs := map[types.UID]string{jobA.UID: jobA.Name, jobB.UID: jobB.Name}

	seen, waitErr := framework.Poll(4*time.Minute, func() (bool, string, error) {
		var parts []string
		done := true
		for _, name := range []string{jobA.Name, jobB.Name} {
			j, err := f.GetJob(name)
			if err != nil {
				return false, "", err
			}
			parts = append(parts, name+": "+framework.JobStatusSummary(j))
			done = done && j.Status.State.Phase == batchv1alpha1.Completed
		}
		return done, strings.Join(parts, "; "), nil
	})

	// The assertions below read the recorded history; they are meaningful even when the jobs
	// did not complete (a deadlock shows up as both jobs partially started).
	var events []framework.PodEvent
	for _, e := range rec.Pods() {
		if _, ok := jobs[e.Owner]; ok {
			events = append(events, e)
		}
	}
	t.Logf("pod timeline:\n%s", framework.PodTimeline(events))
	checkGangHistory(t, events, jobs, poolNodes)

	if waitErr != nil {
		t.Fatalf("both jobs did not reach Completed within 4m: %v; last seen: %s", waitErr, seen)
	}
	t.Logf("both jobs Completed: %s", seen)

	// Remove the jobs now, so that no pod is bound to the pool nodes when cleanup deletes them.
	for _, name := range []string{jobA.Name, jobB.Name} {
		if err := f.Volcano.BatchV1alpha1().Jobs(f.Namespace).Delete(t.Context(), name, metav1.DeleteOptions{}); err != nil {
			t.Fatalf("delete job %s: %v", name, err)
		}
	}
	for _, name := range []string{jobA.Name, jobB.Name} {
		f.WaitJobGone(name, 60*time.Second)
	}
	f.WaitFor("no pods left in the namespace", 60*time.Second, func() (bool, string, error) {
		pods, err := f.Kube.CoreV1().Pods(f.Namespace).List(t.Context(), metav1.ListOptions{})
		if err != nil {
			return false, "", err
		}
		return len(pods.Items) == 0, fmt.Sprintf("%d pods", len(pods.Items)), nil
	})
}

// jobProgress is one job's pods at a point of the history.
type jobProgress struct {
	started  map[string]bool // pods seen Running or finished
	finished map[string]bool // pods seen Succeeded or Failed
	// times at which the job's pods were first seen started, in observation order
	startTimes []time.Time
	firstStart int // Seq of the first pod start, 0 if none yet
	firstEnd   int // Seq of the first pod finish, 0 if none yet
}

func (p *jobProgress) partial() bool { return len(p.started) > 0 && len(p.started) < 3 }

// checkGangHistory replays the pod events of the two jobs in the order the API server
// committed them and checks the gang properties.
func checkGangHistory(t *testing.T, events []framework.PodEvent, jobs map[types.UID]string, poolNodes []string) {
	t.Helper()
	sort.SliceStable(events, func(i, j int) bool { return events[i].Seq < events[j].Seq })
	progress := map[types.UID]*jobProgress{}
	for uid := range jobs {
		progress[uid] = &jobProgress{started: map[string]bool{}, finished: map[string]bool{}}
	}
	onPool := map[string]bool{}
	for _, n := range poolNodes {
		onPool[n] = true
	}
	offPool := map[string]bool{} // pods already reported as bound outside the pool

	bothPartialReported := false
	for _, e := range events {
		p := progress[e.Owner]
		if e.Node != "" && !onPool[e.Node] && !offPool[e.Name] {
			offPool[e.Name] = true
			t.Errorf("pod %s was bound to %s, outside the dedicated pool %v", e.Name, e.Node, poolNodes)
		}
		if framework.Started(e.Phase) && !p.started[e.Name] {
			p.started[e.Name] = true
			p.startTimes = append(p.startTimes, e.At)
			if p.firstStart == 0 {
				p.firstStart = e.Seq
			}
		}
		if framework.Finished(e.Phase) && !p.finished[e.Name] {
			p.finished[e.Name] = true
			if p.firstEnd == 0 {
				p.firstEnd = e.Seq
			}
		}
		// (a) The deadlock of the seed case: both gangs holding part of what they need.
		partial := 0
		for _, q := range progress {
			if q.partial() {
				partial++
			}
		}
		if partial == len(progress) && !bothPartialReported {
			bothPartialReported = true
			t.Errorf("at event #%d (%s %s) both jobs were partially started: %s",
				e.Seq, e.Name, e.Phase, describeProgress(progress, jobs))
		}
	}

	// (b) All or nothing: each gang's three pods start together.
	for uid, p := range progress {
		if n := len(p.startTimes); n < 3 {
			t.Errorf("job %s: only %d of 3 pods were observed starting", jobs[uid], n)
			continue
		}
		if spread := p.startTimes[2].Sub(p.startTimes[0]); spread >= gangSpread {
			t.Errorf("job %s: its third pod started %v after its first (want < %v): placed pod by pod, not as a gang",
				jobs[uid], spread.Round(time.Millisecond), gangSpread)
		}
	}

	// (c) One gang first; the other starts only once capacity is released by the first
	// gang's pods finishing (there is no room for six pods).
	var first, second types.UID
	for uid, p := range progress {
		if p.firstStart == 0 {
			return // reported under (b)
		}
		if first == "" || p.firstStart < progress[first].firstStart {
			second, first = first, uid
		} else {
			second = uid
		}
	}
	pf, ps := progress[first], progress[second]
	switch {
	case pf.firstEnd == 0:
		t.Errorf("job %s started first but none of its pods was observed finishing", jobs[first])
	case ps.firstStart < pf.firstEnd:
		t.Errorf("job %s started (event #%d) before any pod of job %s finished (event #%d): both ran at once",
			jobs[second], ps.firstStart, jobs[first], pf.firstEnd)
	default:
		t.Logf("job %s ran first; job %s started at event #%d, after %s's first pod finished at event #%d",
			jobs[first], jobs[second], ps.firstStart, jobs[first], pf.firstEnd)
	}
}

func describeProgress(progress map[types.UID]*jobProgress, jobs map[types.UID]string) string {
	var parts []string
	for uid, p := range progress {
		parts = append(parts, fmt.Sprintf("%s started=%v finished=%v", jobs[uid], sortedKeys(p.started), sortedKeys(p.finished)))
	}
	sort.Strings(parts)
	return strings.Join(parts, "; ")
}

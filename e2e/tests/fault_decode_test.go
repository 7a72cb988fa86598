// A Job whose newest version our decoder rejects: the controller-manager keeps the Job known
// (it is not forgotten, its pods stay), counts the rejection, says why in a Warning event on the
// Job, keeps it through a relist, and takes it up again once a version decodes.
package tests

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	batchv1alpha1 "volcano.sh/apis/pkg/apis/batch/v1alpha1"
	busv1alpha1 "volcano.sh/apis/pkg/apis/bus/v1alpha1"

	"vc-cpp.local/e2e/tests/framework"
)

const jobDecodeRejections = `vc_cpp_decode_rejections_total{resource="jobs.batch.volcano.sh"}`

// jobsRelistedUndecodable matches the controller-manager's log line for a list of Jobs that
// held an object it could not decode (text or JSON log format).
var jobsRelistedUndecodable = regexp.MustCompile(
	`reflector listed resource=\\?"jobs\.batch\.volcano\.sh\\?" objects=\d+ undecodable=[1-9]`)

// TestFaultDecodeRejectionKeepsJob. The value that gets through the API server but not
// through our decoder: status.runningDuration, which Volcano's Job CRD types only as a string,
// set through the status subresource (which no admission webhook of ours sees) to "soon", which
// is not a Go duration. The Go clientset cannot decode that Job either, so the test reads and
// patches it raw while it is bad.
func TestFaultDecodeRejectionKeepsJob(t *testing.T) {
	if framework.ControllersImpl() == "reference" {
		t.Skip("vc_cpp_decode_rejections_total and the DecodeFailed event are vc-cpp's")
	}
	cluster := framework.LoadLocalCluster(t)
	f := framework.New(t, "e2e-ctl-decode")
	cluster.RestoreAtCleanup(t) // the relist below restarts kube-apiserver
	f.WaitQueueOpen("default")
	cmPid := cluster.AlivePid(t, "controllers")
	read := func(series string) float64 {
		t.Helper()
		v, err := controllerCounter(cluster, series)
		if err != nil {
			t.Fatalf("read %s: %v", series, err)
		}
		return v
	}

	const name = "keep"
	spec := newJob(f, name, 2, runForever("w", 2))
	// After the Job decodes again, deleting a pod restarts it: proof the controller still owns it.
	spec.Spec.Policies = []batchv1alpha1.LifecyclePolicy{onEvent(busv1alpha1.PodEvictedEvent, busv1alpha1.RestartJobAction)}
	job := f.CreateJob(spec)
	pods := f.WaitJobPods(name, "2 Running", framework.JobTimeout, func(p []corev1.Pod) bool { return framework.AllRunning(p, 2) })
	f.WaitJob(name, "Running", framework.JobTimeout, phaseIs(batchv1alpha1.Running))
	uids := map[string]types.UID{}
	for _, p := range pods {
		uids[p.Name] = p.UID
	}
	before := read(jobDecodeRejections)

	patchJobStatus(t, f, name, `{"status":{"runningDuration":"soon"}}`)
	f.WaitFor("the rejection counted and a Warning DecodeFailed event naming status.runningDuration", framework.ControllerTimeout,
		func() (bool, string, error) {
			n, err := controllerCounter(cluster, jobDecodeRejections)
			if err != nil {
				return false, "", err
			}
			msgs, err := decodeFailedEvents(f, name)
			if err != nil {
				return false, "", err
			}
			named := false
			for _, m := range msgs {
				named = named || strings.Contains(m, "status.runningDuration")
			}
			return n >= before+1 && named, fmt.Sprintf("counter %v (was %v), events %q", n, before, msgs), nil
		})
	counted := read(jobDecodeRejections)
	stillThere := jobAndPodsUnchanged(f, name, job.UID, uids)
	framework.Consistently(t, "the undecodable Job and its pods stay", 20*time.Second, stillThere)

	// A relist in the same process: restarting kube-apiserver drops its watch cache, so the
	// controller's watches resume from a resourceVersion the new cache no longer has (410 Gone)
	// and list again, finding the Job undecodable. Before, that list deleted it from the cache.
	logPath := cluster.LogPath("controllers")
	offset := fileSize(t, logPath)
	apiPid := cluster.AlivePid(t, "kube-apiserver")
	framework.KillPid(t, apiPid, syscall.SIGKILL)
	framework.WaitPidGone(t, apiPid, 10*time.Second)
	if !cluster.Up(t) {
		t.FailNow()
	}
	f.WaitFor("the controller-manager relisted Jobs and found one undecodable", 2*time.Minute, func() (bool, string, error) {
		tail, err := readFrom(logPath, offset)
		if err != nil {
			return false, "", err
		}
		return jobsRelistedUndecodable.MatchString(tail), framework.Tail(tail, 5), nil
	})
	framework.Consistently(t, "the undecodable Job and its pods stay after the relist", 20*time.Second, stillThere)
	// The same informer reports a version once however often it relists it; if the outage cost
	// the lease, a new term's informers listed instead and reported it once more.
	tail, err := readFrom(logPath, offset)
	if err != nil {
		t.Fatalf("%v", err)
	}
	newTerm := strings.Contains(tail, "informer caches synced")
	if n := read(jobDecodeRejections); n != counted && !newTerm {
		t.Errorf("%s = %v after the relist, want %v: a relist of the same version is not a new rejection",
			jobDecodeRejections, n, counted)
	} else {
		t.Logf("%s = %v after the relist (was %v); new leadership term: %v", jobDecodeRejections, n, counted, newTerm)
	}
	if pid, err := cluster.Pid("controllers"); err != nil || pid != cmPid || !framework.ProcessAlive(cmPid) {
		t.Fatalf("the controller-manager restarted (pid %d before, pid file %d, err %v): the relist was not in one process",
			cmPid, pid, err)
	}

	// A version that decodes: the controller takes the Job up again.
	patchJobStatus(t, f, name, `{"status":{"runningDuration":null}}`)
	f.WaitJob(name, "decodable and Running", framework.JobTimeout, phaseIs(batchv1alpha1.Running))
	victim := podName(name, "w", 1)
	if err := f.Kube.CoreV1().Pods(f.Namespace).Delete(t.Context(), victim, metav1.DeleteOptions{}); err != nil &&
		!apierrors.IsNotFound(err) {
		t.Fatalf("delete pod %s: %v", victim, err)
	}
	f.WaitJob(name, "Running again after one restart", 2*framework.JobTimeout, func(j *batchv1alpha1.Job) bool {
		return j.Status.RetryCount == 1 && j.Status.State.Phase == batchv1alpha1.Running
	})
}

// patchJobStatus merge-patches the Job's status subresource, without decoding the reply.
func patchJobStatus(t *testing.T, f *framework.Framework, name, patch string) {
	t.Helper()
	_, err := f.Volcano.BatchV1alpha1().RESTClient().Patch(types.MergePatchType).
		Namespace(f.Namespace).Resource("jobs").Name(name).SubResource("status").
		Body([]byte(patch)).DoRaw(t.Context())
	if err != nil {
		t.Fatalf("patch status of job %s with %s: %v", name, patch, err)
	}
}

// decodeFailedEvents returns the messages of the DecodeFailed Warning events on Job name.
func decodeFailedEvents(f *framework.Framework, name string) ([]string, error) {
	list, err := f.Kube.CoreV1().Events(f.Namespace).List(f.T.Context(), metav1.ListOptions{
		FieldSelector: "involvedObject.kind=Job,involvedObject.name=" + name + ",reason=DecodeFailed,type=Warning"})
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range list.Items {
		out = append(out, e.Message)
	}
	return out, nil
}

// jobAndPodsUnchanged holds while Job name exists with uid (read raw: the clientset cannot decode
// it) and each pod in uids exists with its UID and is not being deleted.
func jobAndPodsUnchanged(f *framework.Framework, name string, uid types.UID, uids map[string]types.UID) framework.Condition {
	return func() (bool, string, error) {
		body, err := f.Volcano.BatchV1alpha1().RESTClient().Get().
			Namespace(f.Namespace).Resource("jobs").Name(name).DoRaw(f.T.Context())
		if apierrors.IsNotFound(err) {
			return false, "job " + name + " is gone", nil
		}
		if err != nil {
			return false, "", err
		}
		var raw struct {
			Metadata struct {
				UID               types.UID `json:"uid"`
				DeletionTimestamp *string   `json:"deletionTimestamp"`
			} `json:"metadata"`
		}
		if err := json.Unmarshal(body, &raw); err != nil {
			return false, "", fmt.Errorf("job %s: %w", name, err)
		}
		if raw.Metadata.UID != uid || raw.Metadata.DeletionTimestamp != nil {
			return false, fmt.Sprintf("job %s has uid %s (want %s), deletionTimestamp %v", name, raw.Metadata.UID, uid,
				raw.Metadata.DeletionTimestamp), nil
		}
		pods, err := f.ListJobPods(name)
		if err != nil {
			return false, "", err
		}
		seen := framework.JobPodsSummary(pods)
		left := 0
		for _, p := range pods {
			if want, ok := uids[p.Name]; ok && want == p.UID && p.DeletionTimestamp == nil {
				left++
			}
		}
		return left == len(uids), seen, nil
	}
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatalf("%v", err)
	}
	return st.Size()
}

// readFrom returns the file's contents after offset.
func readFrom(path string, offset int64) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	if int64(len(b)) < offset {
		return string(b), nil // rotated or truncated: all of it is new
	}
	return string(b[offset:]), nil
}

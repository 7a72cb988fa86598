package tests

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	batchv1alpha1 "volcano.sh/apis/pkg/apis/batch/v1alpha1"
	busv1alpha1 "volcano.sh/apis/pkg/apis/bus/v1alpha1"

	"vc-cpp.local/e2e/tests/framework"
)

// explainResult is `vc-cpp explain -o json` and its exit status.
type explainResult struct {
	Exit     int
	Verdict  string `json:"verdict"`
	Headline string `json:"headline"`
	Stop     string `json:"stop"`
	Chain    []struct {
		Name     string   `json:"name"`
		State    string   `json:"state"`
		Summary  string   `json:"summary"`
		Why      string   `json:"why"`
		Evidence []string `json:"evidence"`
	} `json:"chain"`
	Stderr string
}

func (r explainResult) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "exit=%d verdict=%s stop=%s headline=%q", r.Exit, r.Verdict, r.Stop, r.Headline)
	for _, l := range r.Chain {
		fmt.Fprintf(&b, "\n  %-8s %-11s %s", l.Name, l.State, l.Summary)
		if l.Why != "" {
			fmt.Fprintf(&b, "\n           why: %s", l.Why)
		}
		for _, e := range l.Evidence {
			fmt.Fprintf(&b, "\n           - %s", e)
		}
	}
	if r.Stderr != "" {
		fmt.Fprintf(&b, "\n  stderr: %s", r.Stderr)
	}
	return b.String()
}

// stopLink is the link the command stopped at.
func (r explainResult) stopLink() (why string, evidence string) {
	for _, l := range r.Chain {
		if l.Name == r.Stop {
			return l.Why, strings.Join(l.Evidence, "\n")
		}
	}
	return "", ""
}

// explainBinary is the vc-cpp binary of this build, run as the kubectl plugin kubectl-vcjob
// (the link the build makes next to it): the name users call it by through kubectl.
func explainBinary(t *testing.T) string {
	t.Helper()
	c := framework.LoadLocalCluster(t)
	dir := c.Var("BUILD_DIR")
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(c.Repo, dir)
	}
	return filepath.Join(dir, "controllers", "kubectl-vcjob")
}

func runExplain(t *testing.T, bin string, args ...string) explainResult {
	t.Helper()
	// The command reads a few lists; a minute is far more than it may take.
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append([]string{"explain", "-o", "json"}, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := explainResult{Stderr: strings.TrimSpace(stderr.String())}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		r.Exit = exit.ExitCode()
	case err != nil:
		t.Fatalf("run %s: %v", bin, err)
	}
	if ctx.Err() != nil {
		t.Fatalf("%s %v did not end within a minute; stderr: %s", bin, args, r.Stderr)
	}
	if stdout.Len() > 0 {
		if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
			t.Fatalf("explain -o json printed what is not JSON: %v\n%s", err, stdout.String())
		}
	}
	return r
}

// createQueueWithCPUCapability creates an Open queue (deleted at cleanup) whose spec.capability
// is cpu alone.
func createQueueWithCPUCapability(t *testing.T, f *framework.Framework, name, cpu string) {
	t.Helper()
	f.CreateQueue(name, 1)
	q, err := f.Volcano.SchedulingV1beta1().Queues().Get(t.Context(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("get queue %s: %v", name, err)
	}
	q.Spec.Capability = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpu)}
	if _, err := f.Volcano.SchedulingV1beta1().Queues().Update(t.Context(), q, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("set queue %s capability: %v", name, err)
	}
}

// waitExplain runs the command until want accepts its result, and returns that result.
func waitExplain(t *testing.T, f *framework.Framework, what string, want func(explainResult) bool,
	bin string, args ...string) explainResult {
	t.Helper()
	var last explainResult
	f.WaitFor(what, 90*time.Second, func() (bool, string, error) {
		last = runExplain(t, bin, args...)
		return want(last), last.String(), nil
	})
	return last
}

// The seed case, explained: two 3-pod gangs on room for four one-CPU pods. The first runs (the
// command says progressing, exit 0); the second waits for capacity (exit 3) and the command
// gives the numbers: what its unbound pods need against the free room of the nodes they may use.
func TestExplainSeedCaseWaitingGang(t *testing.T) {
	f := framework.New(t, "e2e-explain-seed")
	bin := explainBinary(t)
	pool := f.Suffix
	for i := 0; i < 2; i++ {
		f.CreateNode(framework.NodeSpec{
			Name: fmt.Sprintf("explain-%s-%d", pool, i), CPU: "2", Memory: "8Gi", Pods: "110",
			Labels: map[string]string{poolKey: pool},
			Taints: []corev1.Taint{{Key: poolKey, Value: pool, Effect: corev1.TaintEffectNoSchedule}},
		})
	}
	f.EnsureQueue(gangQueue, 1)
	onPool := []corev1.Toleration{{Key: poolKey, Operator: corev1.TolerationOpEqual, Value: pool,
		Effect: corev1.TaintEffectNoSchedule}}
	gang := func(name string) framework.JobSpec {
		// No succeed-after annotation: kwok keeps the pods Running, so the first gang holds its
		// room for the whole test.
		task := func(n string, replicas int32) framework.Task {
			return framework.Task{Name: n, Replicas: replicas, CPU: "1", Memory: "256Mi",
				NodeSelector: map[string]string{poolKey: pool}, Tolerations: onPool}
		}
		return framework.JobSpec{Name: name, Queue: gangQueue, MinAvailable: 3,
			Tasks: []framework.Task{task("head", 1), task("worker", 2)}}
	}
	first := f.CreateJob(framework.NewJob(f.Namespace, gang("ray-a")))
	f.WaitJobPods(first.Name, "3 pods running", 2*time.Minute, func(p []corev1.Pod) bool { return framework.AllRunning(p, 3) })
	second := f.CreateJob(framework.NewJob(f.Namespace, gang("ray-b")))

	a := waitExplain(t, f, "ray-a explained as running", func(r explainResult) bool {
		return r.Verdict == "Progressing"
	}, bin, f.Namespace+"/"+first.Name)
	if a.Exit != 0 || a.Stop != "" {
		t.Errorf("running gang: want exit 0 and no stop, got %s", a)
	}

	b := waitExplain(t, f, "ray-b explained as waiting for capacity", func(r explainResult) bool {
		return r.Verdict == "WaitingForCapacity"
	}, bin, second.Name, "-n", f.Namespace)
	t.Logf("ray-b: %s", b)
	if b.Exit != 3 {
		t.Errorf("waiting gang: exit %d, want 3", b.Exit)
	}
	why, evidence := b.stopLink()
	// Wherever the scheduler holds it (enqueue or binding), the numbers must show three CPUs
	// needed against the one free on the pool.
	if !strings.Contains(why+evidence, "cpu: needs 3, has 1") {
		t.Errorf("waiting gang: the stop does not give the numbers (cpu: needs 3, has 1): %s", b)
	}
}

// Stops on the job's own configuration: a node selector or a required node affinity no node
// matches, a gang larger than its queue's capability, a manifest the webhook denies. Each exits 4
// and names the cause.
func TestExplainConfigurationErrors(t *testing.T) {
	f := framework.New(t, "e2e-explain-config")
	bin := explainBinary(t)

	// A job whose one pod no node may take: a ConfigurationError at Enqueue while the scheduler
	// holds the PodGroup, at Binding once its pods exist; either way the rule is named.
	expectNoNode := func(t *testing.T, job *batchv1alpha1.Job, want string) {
		t.Helper()
		created := f.CreateJob(job)
		r := waitExplain(t, f, created.Name+" explained", func(r explainResult) bool {
			return r.Verdict == "ConfigurationError"
		}, bin, f.Namespace+"/"+created.Name)
		why, _ := r.stopLink()
		if r.Exit != 4 || (r.Stop != "Enqueue" && r.Stop != "Binding") || !strings.Contains(why, want) {
			t.Errorf("want exit 4, stop Enqueue or Binding, %q; got %s", want, r)
		}
	}
	onePod := func(name string, selector map[string]string) *batchv1alpha1.Job {
		return framework.NewJob(f.Namespace, framework.JobSpec{Name: name, MinAvailable: 1,
			Tasks: []framework.Task{{Name: "t", Replicas: 1, CPU: "100m", NodeSelector: selector}}})
	}

	t.Run("node selector matching no node", func(t *testing.T) {
		f.EnsureQueue("default", 1)
		expectNoNode(t, onePod("nowhere", map[string]string{"vc-cpp.e2e/no-such-label": f.Suffix}),
			"nodeSelector (vc-cpp.e2e/no-such-label="+f.Suffix+") matches no node")
	})

	t.Run("required node affinity matching no node", func(t *testing.T) {
		f.EnsureQueue("default", 1)
		job := onePod("no-zone", nil)
		job.Spec.Tasks[0].Template.Spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
				NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{{
					Key: "vc-cpp.e2e/zone", Operator: corev1.NodeSelectorOpIn, Values: []string{f.Suffix}}}}}}}}
		expectNoNode(t, job, "required node affinity (vc-cpp.e2e/zone="+f.Suffix+") matches no node")
	})

	t.Run("queue capability smaller than the gang", func(t *testing.T) {
		name := "e2e-explain-cap-" + f.Suffix
		createQueueWithCPUCapability(t, f, name, "2")
		job := f.CreateJob(framework.NewJob(f.Namespace, framework.JobSpec{Name: "too-big", Queue: name, MinAvailable: 3,
			Tasks: []framework.Task{{Name: "t", Replicas: 3, CPU: "1"}}}))
		r := waitExplain(t, f, "too-big explained", func(r explainResult) bool {
			return r.Verdict == "ConfigurationError"
		}, bin, f.Namespace+"/"+job.Name)
		why, _ := r.stopLink()
		if r.Exit != 4 || r.Stop != "Queue" || !strings.Contains(why, "cpu: needs 3, has 2") {
			t.Errorf("want exit 4, stop Queue, cpu: needs 3, has 2; got %s", r)
		}
	})

	t.Run("manifest the webhook denies", func(t *testing.T) {
		manifest := filepath.Join(t.TempDir(), "job.yaml")
		text := `apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: too-few, namespace: ` + f.Namespace + `}
spec:
  minAvailable: 4
  tasks:
  - name: worker
    replicas: 3
    template:
      spec:
        containers: [{name: w, image: busybox}]
`
		if err := os.WriteFile(manifest, []byte(text), 0o644); err != nil {
			t.Fatalf("%v", err)
		}
		r := runExplain(t, bin, "-f", manifest)
		why, _ := r.stopLink()
		if r.Exit != 4 || r.Stop != "Admission" ||
			!strings.Contains(why, "job 'minAvailable' should not be greater than total replicas in tasks;") {
			t.Errorf("want exit 4, stop Admission, the webhook's message; got %s", r)
		}
		if _, err := f.GetJob("too-few"); err == nil {
			t.Errorf("explain -f created the job")
		}
	})

	t.Run("job not found", func(t *testing.T) {
		r := runExplain(t, bin, f.Namespace+"/no-such-job")
		if r.Exit != 1 || !strings.Contains(r.Stderr, "NotFound") {
			t.Errorf("want exit 1 and NotFound on stderr; got %s", r)
		}
	})
}

// More stop points against the real scheduler and controllers: an untolerated taint, a missing
// PriorityClass, restarts by policy up to maxRetry, and a queue closed under a waiting job.
func TestExplainMoreStopPoints(t *testing.T) {
	f := framework.New(t, "e2e-explain-more")
	bin := explainBinary(t)
	f.EnsureQueue(jobQueue, 1)

	t.Run("taint not tolerated", func(t *testing.T) {
		node := "explain-tainted-" + f.Suffix
		f.CreateNode(framework.NodeSpec{
			Name: node, CPU: "2", Memory: "8Gi", Pods: "110",
			Labels: map[string]string{poolKey: node},
			Taints: []corev1.Taint{{Key: poolKey, Value: "reserved", Effect: corev1.TaintEffectNoSchedule}},
		})
		job := f.CreateJob(newJob(f, "untolerated", 1, framework.Task{Name: "t", Replicas: 1, CPU: "100m",
			NodeSelector: map[string]string{poolKey: node}}))
		r := waitExplain(t, f, "untolerated explained", func(r explainResult) bool {
			return r.Verdict == "ConfigurationError"
		}, bin, f.Namespace+"/"+job.Name)
		why, _ := r.stopLink()
		if r.Exit != 4 || !strings.Contains(why, "taint it does not tolerate ("+poolKey+"=reserved:NoSchedule)") {
			t.Errorf("want exit 4 and the taint named; got %s", r)
		}
	})

	t.Run("missing PriorityClass", func(t *testing.T) {
		spec := newJob(f, "no-class", 1, framework.Task{Name: "t", Replicas: 1, CPU: "100m"})
		spec.Spec.Tasks[0].Template.Spec.PriorityClassName = "no-such-class-" + f.Suffix
		job := f.CreateJob(spec)
		r := waitExplain(t, f, "no-class explained", func(r explainResult) bool {
			return r.Verdict == "ConfigurationError"
		}, bin, f.Namespace+"/"+job.Name)
		why, evidence := r.stopLink()
		if r.Exit != 4 || r.Stop != "Pods" || !strings.Contains(why, "PriorityClass no-such-class-"+f.Suffix+", which does not exist") {
			t.Errorf("want exit 4, stop Pods, the class named; got %s", r)
		}
		t.Logf("evidence: %s", evidence)
	})

	t.Run("restarted until maxRetry", func(t *testing.T) {
		spec := newJob(f, "flaky", 1, endsWith("work", 1, "1s", 2))
		spec.Spec.MaxRetry = 2
		spec.Spec.Policies = []batchv1alpha1.LifecyclePolicy{onEvent(busv1alpha1.PodFailedEvent, busv1alpha1.RestartJobAction)}
		job := f.CreateJob(spec)
		f.WaitJob(job.Name, "Failed", 3*framework.JobTimeout, phaseIs(batchv1alpha1.Failed))
		r := runExplain(t, bin, f.Namespace+"/"+job.Name)
		why, _ := r.stopLink()
		if r.Exit != 5 || r.Verdict != "Failed" || r.Stop != "Job" || !strings.Contains(why, "reached maxRetry 2") {
			t.Errorf("want exit 5, verdict Failed at the Job, maxRetry named; got %s", r)
		}
	})

	t.Run("queue closed under a waiting job", func(t *testing.T) {
		name := "e2e-explain-closed-" + f.Suffix
		// A capability the job cannot fit keeps its PodGroup Pending in the queue.
		createQueueWithCPUCapability(t, f, name, "500m")
		job := f.CreateJob(framework.NewJob(f.Namespace, framework.JobSpec{Name: "in-closed", Queue: name, MinAvailable: 1,
			Tasks: []framework.Task{{Name: "t", Replicas: 1, CPU: "1"}}}))
		f.WaitPodGroup(framework.PodGroupName(job), time.Minute)
		f.SendCloseQueue(t, name)
		r := waitExplain(t, f, "in-closed explained", func(r explainResult) bool {
			why, _ := r.stopLink()
			return r.Verdict == "ConfigurationError" && strings.Contains(why, "queue "+name+" is Clos")
		}, bin, f.Namespace+"/"+job.Name)
		if r.Exit != 4 || r.Stop != "Queue" {
			t.Errorf("want exit 4, stop Queue; got %s", r)
		}
	})
}

// A pod on the real kubelet node whose image cannot be pulled: the PodGroup runs (the pod is
// bound), the Job stays Pending, and the command names the container's waiting reason.
func TestExplainImageNeverPulled(t *testing.T) {
	f := framework.New(t, "e2e-explain-image")
	bin := explainBinary(t)
	f.EnsureQueue(jobQueue, 1)
	spec := newJob(f, "no-image", 1, framework.Task{Name: "t", Replicas: 1, CPU: "10m",
		NodeSelector: map[string]string{"kubernetes.io/hostname": framework.RealNodeName()},
		Tolerations: []corev1.Toleration{{Key: "node-role.kubernetes.io/control-plane",
			Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule}}})
	// Nothing listens on port 1: the pull fails at once, with no registry involved.
	spec.Spec.Tasks[0].Template.Spec.Containers[0].Image = "127.0.0.1:1/vc-cpp-e2e/no-such-image:missing"
	job := f.CreateJob(spec)
	r := waitExplain(t, f, "no-image explained", func(r explainResult) bool {
		return r.Verdict == "ConfigurationError"
	}, bin, f.Namespace+"/"+job.Name)
	why, _ := r.stopLink()
	if r.Exit != 4 || r.Stop != "Running" ||
		!(strings.Contains(why, "ErrImagePull") || strings.Contains(why, "ImagePullBackOff")) {
		t.Errorf("want exit 4, stop Running, an image pull reason; got %s", r)
	}
}

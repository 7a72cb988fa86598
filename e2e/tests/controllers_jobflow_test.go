package tests

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	flowv1alpha1 "volcano.sh/apis/pkg/apis/flow/v1alpha1"

	"vc-cpp.local/e2e/tests/framework"
)

// createJobTemplate makes a JobTemplate whose Job runs one task that ends as `task` says.
func createJobTemplate(t *testing.T, f *framework.Framework, name string, task framework.Task) {
	t.Helper()
	spec := newJob(f, name, 1, task).Spec
	_, err := f.Volcano.FlowV1alpha1().JobTemplates(f.Namespace).Create(t.Context(), &flowv1alpha1.JobTemplate{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: f.Namespace},
		Spec:       spec,
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create jobtemplate %s: %v", name, err)
	}
}

func createJobFlow(t *testing.T, f *framework.Framework, name string, retain flowv1alpha1.RetainPolicy,
	flows ...flowv1alpha1.Flow) {
	t.Helper()
	_, err := f.Volcano.FlowV1alpha1().JobFlows(f.Namespace).Create(t.Context(), &flowv1alpha1.JobFlow{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: f.Namespace},
		Spec:       flowv1alpha1.JobFlowSpec{Flows: flows, JobRetainPolicy: retain},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create jobflow %s: %v", name, err)
	}
}

func step(name string, after ...string) flowv1alpha1.Flow {
	fl := flowv1alpha1.Flow{Name: name}
	if len(after) > 0 {
		fl.DependsOn = &flowv1alpha1.DependsOn{Targets: after}
	}
	return fl
}

func flowSummary(jf *flowv1alpha1.JobFlow) string {
	s := jf.Status
	return fmt.Sprintf("phase=%q pending=%v running=%v completed=%v failed=%v terminated=%v unknown=%v",
		s.State.Phase, s.PendingJobs, s.RunningJobs, s.CompletedJobs, s.FailedJobs, s.TerminatedJobs, s.UnKnowJobs)
}

func waitFlowPhase(f *framework.Framework, name string, phase flowv1alpha1.Phase, timeout time.Duration) *flowv1alpha1.JobFlow {
	var got *flowv1alpha1.JobFlow
	f.WaitFor("jobflow "+name+" "+string(phase), timeout, func() (bool, string, error) {
		jf, err := f.Volcano.FlowV1alpha1().JobFlows(f.Namespace).Get(f.T.Context(), name, metav1.GetOptions{})
		if err != nil {
			return false, "", err
		}
		got = jf
		return jf.Status.State.Phase == phase, flowSummary(jf), nil
	})
	return got
}

// vcctlJSON runs a vcctl command that prints one object as JSON (-o json) into out.
func vcctlJSON(t *testing.T, out any, args ...string) {
	t.Helper()
	res := framework.Vcctl(t, args...)
	if res.ExitCode != 0 {
		t.Fatalf("vcctl %v: exit %d: %s", args, res.ExitCode, res)
	}
	if err := json.Unmarshal([]byte(res.Stdout), out); err != nil {
		t.Fatalf("vcctl %v: not JSON (%v): %s", args, err, res.Stdout)
	}
}

// TestControllersJobFlowRunsItsDag: a three-step flow with a branch (b and c after a). Each
// step's Job is named <flow>-<step>, carries the createdByJobFlow/createdByJobTemplate labels and
// a controller reference to the flow, and b and c are created only after a completed. Step c's
// TCP probe names a port nobody listens on: Volcano ignores probes, and ours (--jobflow-probes,
// which the e2e cluster turns on) counts a completed target as passing its probes, so c starts
// when a completed in both.
// The flow ends Succeed with every Job in completedJobs, with retain policy `retain` the Jobs
// stay, each JobTemplate lists its Job in status.jobDependsOnList, vcctl's jobflow and
// jobtemplate commands read them, and deleting the flow with vcctl garbage-collects its Jobs
// through their owner references (spec controller-manager.md §5.2, §5.3).
func TestControllersJobFlowRunsItsDag(t *testing.T) {
	f := framework.New(t, "e2e-ctl-flow")
	f.WaitQueueOpen("default")
	for _, name := range []string{"a", "b", "c"} {
		createJobTemplate(t, f, name, endsWith("work", 1, "2s", 0))
	}
	probed := step("c", "a")
	probed.DependsOn.Probe = &flowv1alpha1.Probe{
		TcpSocketList: []flowv1alpha1.TcpSocket{{TaskName: "work", Port: 1}}}
	createJobFlow(t, f, "pipe", flowv1alpha1.Retain, step("a"), step("b", "a"), probed)

	jf := waitFlowPhase(f, "pipe", flowv1alpha1.Succeed, 3*time.Minute)
	completed := append([]string(nil), jf.Status.CompletedJobs...)
	sort.Strings(completed)
	if strings.Join(completed, ",") != "pipe-a,pipe-b,pipe-c" {
		t.Errorf("completedJobs = %v, want pipe-a, pipe-b, pipe-c", jf.Status.CompletedJobs)
	}
	if len(jf.Status.JobStatusList) != 3 {
		t.Errorf("jobStatusList has %d entries, want 3: %+v", len(jf.Status.JobStatusList), jf.Status.JobStatusList)
	}

	a, err := f.GetJob("pipe-a")
	if err != nil {
		t.Fatalf("job pipe-a (retain policy keeps it): %v", err)
	}
	aDone := a.Status.State.LastTransitionTime.Time
	for _, name := range []string{"pipe-a", "pipe-b", "pipe-c"} {
		j, err := f.GetJob(name)
		if err != nil {
			t.Errorf("job %s: %v", name, err)
			continue
		}
		if j.Labels["volcano.sh/createdByJobFlow"] != f.Namespace+".pipe" ||
			j.Labels["volcano.sh/createdByJobTemplate"] != f.Namespace+"."+strings.TrimPrefix(name, "pipe-") {
			t.Errorf("job %s labels %v", name, j.Labels)
		}
		if ref := metav1.GetControllerOf(j); ref == nil || ref.Kind != "JobFlow" || ref.Name != "pipe" {
			t.Errorf("job %s controller %v, want the JobFlow", name, ref)
		}
		// lastTransitionTime is in whole seconds: b and c may start within a's last second.
		if name != "pipe-a" && j.CreationTimestamp.Time.Before(aDone.Add(-time.Second)) {
			t.Errorf("job %s created at %s, before pipe-a completed at %s", name, j.CreationTimestamp, aDone)
		}
	}

	// The JobTemplate controller lists each template's Job; vcctl reads both kinds.
	for _, name := range []string{"a", "b", "c"} {
		f.WaitFor("jobtemplate "+name+" lists its job", time.Minute, func() (bool, string, error) {
			var jt flowv1alpha1.JobTemplate
			vcctlJSON(t, &jt, "jobtemplate", "describe", "-N", name, "-n", f.Namespace, "-o", "json")
			got := strings.Join(jt.Status.JobDependsOnList, ",")
			return got == "pipe-"+name, "jobDependsOnList=" + got, nil
		})
	}
	var described flowv1alpha1.JobFlow
	vcctlJSON(t, &described, "jobflow", "describe", "-N", "pipe", "-n", f.Namespace, "-o", "json")
	if described.Status.State.Phase != flowv1alpha1.Succeed {
		t.Errorf("vcctl jobflow describe: %s", flowSummary(&described))
	}
	if res := framework.Vcctl(t, "jobflow", "list", "-n", f.Namespace); res.ExitCode != 0 ||
		!strings.Contains(res.Stdout, "pipe") {
		t.Errorf("vcctl jobflow list does not show pipe: %s", res)
	}

	if res := framework.Vcctl(t, "jobflow", "delete", "-N", "pipe", "-n", f.Namespace); res.ExitCode != 0 {
		t.Fatalf("vcctl jobflow delete: %s", res)
	}
	f.WaitFor("jobs of the deleted flow pipe garbage-collected", 2*time.Minute, func() (bool, string, error) {
		list, err := f.Volcano.BatchV1alpha1().Jobs(f.Namespace).List(f.T.Context(), metav1.ListOptions{
			LabelSelector: "volcano.sh/createdByJobFlow=" + f.Namespace + ".pipe"})
		if err != nil {
			return false, "", err
		}
		var names []string
		for _, j := range list.Items {
			names = append(names, j.Name)
		}
		return len(names) == 0, fmt.Sprintf("jobs left: %v", names), nil
	})
}

// TestControllersJobFlowFailedStepAndRetainDelete: a step whose Job fails fails the flow and the
// step after it is never created; a flow with retain policy `delete` deletes its Jobs once it
// has succeeded.
func TestControllersJobFlowFailedStepAndRetainDelete(t *testing.T) {
	f := framework.New(t, "e2e-ctl-flowf")
	f.WaitQueueOpen("default")
	createJobTemplate(t, f, "boom", endsWith("work", 1, "2s", 3))
	createJobTemplate(t, f, "after", endsWith("work", 1, "2s", 0))
	createJobTemplate(t, f, "once", endsWith("work", 1, "2s", 0))
	createJobFlow(t, f, "broken", flowv1alpha1.Retain, step("boom"), step("after", "boom"))
	createJobFlow(t, f, "tidy", flowv1alpha1.Delete, step("once"))

	broken := waitFlowPhase(f, "broken", flowv1alpha1.Failed, 3*time.Minute)
	if len(broken.Status.FailedJobs) != 1 || broken.Status.FailedJobs[0] != "broken-boom" {
		t.Errorf("failedJobs = %v, want broken-boom", broken.Status.FailedJobs)
	}
	if _, err := f.GetJob("broken-after"); !apierrors.IsNotFound(err) {
		t.Errorf("the step after a failed one was created (err %v)", err)
	}

	waitFlowPhase(f, "tidy", flowv1alpha1.Succeed, 3*time.Minute)
	f.WaitFor("jobs of the succeeded flow tidy deleted", 2*time.Minute, func() (bool, string, error) {
		list, err := f.Volcano.BatchV1alpha1().Jobs(f.Namespace).List(f.T.Context(), metav1.ListOptions{
			LabelSelector: "volcano.sh/createdByJobFlow=" + f.Namespace + ".tidy"})
		if err != nil {
			return false, "", err
		}
		var names []string
		for _, j := range list.Items {
			if j.DeletionTimestamp == nil {
				names = append(names, j.Name+"="+string(j.Status.State.Phase))
			}
		}
		return len(names) == 0, fmt.Sprintf("jobs not being deleted: %v", names), nil
	})
}

package deployed

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"vc-cpp.local/e2e/tests/framework"
)

// An attacker in a pod of the cluster (any pod can reach the admission port: no client
// certificate is asked for, and the chart's NetworkPolicy is off by default) aims three attacks
// at one webhook replica while a steady stream of Job and PodGroup creates goes through the API
// server: 2,000 idle TLS connections, 200 slow 3 MiB uploads, 50 bodies of 2.9 MiB of
// [{},{},...]. Before the resource budget each of the last two got a replica OOMKilled. Now: no
// webhook container restarts, at least 99.9 % of the stream is admitted, and the stream's p99
// and the attacked container's peak memory (its memory cgroup) are reported per attack.
func TestDeployedWebhookSurvivesHostileClients(t *testing.T) {
	f := framework.New(t, "e2e-deployed-attack")
	ns := framework.DeployedNamespace()
	_, pods, err := f.DeploymentPods(ns, framework.WebhookDeployment)
	if err != nil {
		t.Fatalf("%v", err)
	}
	if len(pods) == 0 {
		t.Fatalf("no pod of deployment %s", framework.WebhookDeployment)
	}
	target := pods[0]
	restartsBefore := restartCounts(pods)
	addr := net.JoinHostPort(target.Status.PodIP, strconv.Itoa(int(containerPort(target, "https", 8443))))
	cgroup, err := framework.ContainerCgroupDir(framework.ContainerID(&target, 0))
	if err != nil {
		t.Fatalf("memory cgroup of %s: %v", target.Name, err)
	}
	tool := framework.BuildStaticTool(t, "vc-cpp.local/e2e/tests/cmd/webhookattack")
	t.Logf("attacking %s (%s) from a pod; memory cgroup %s", target.Name, addr, filepath.Base(cgroup))

	stream := f.StartAdmissionStreamWith(50*time.Millisecond, framework.StreamOptions{WithPodGroups: true})
	f.WaitFor("the admission stream to flow", 30*time.Second, func() (bool, string, error) {
		n := stream.Sent()
		return n >= 20, fmt.Sprintf("%d sent", n), nil
	})

	// Each attack must have met the defence meant for it: idle connections held or closed by
	// us, uploads and bombs refused (429 over budget, 400 over the values limit).
	attacks := []struct {
		name    string
		args    []string
		defence []string // outcomes of which at least one must occur
	}{
		{"2000 idle TLS connections", []string{"--hold=40s", addr, "idle", "2000"}, []string{"held", "closed"}},
		{"200 slow 3 MiB uploads", []string{"--dribble=30s", addr, "slow-upload", "200", "3Mi"}, []string{"429", "400"}},
		{"50 bodies of 2.9 MiB of [{},{},...]", []string{addr, "array-bomb", "50", "2.9Mi"}, []string{"429", "400"}},
	}
	var report []string
	for i, a := range attacks {
		resetPeak(t, cgroup)
		failedBefore := stream.Failed()
		from := time.Now()
		out := f.RunToolPod(t, fmt.Sprintf("attacker-%d", i), tool, "webhookattack", a.args, 4*time.Minute)
		to := time.Now()
		outcomes := lastJSONLine(t, out)
		p99, n := stream.LatencyQuantile(0.99, from, to)
		peak, limit, err := framework.CgroupMemoryPeak(cgroup)
		if err != nil {
			t.Fatalf("memory of %s after %q: %v (restarted?)", target.Name, a.name, err)
		}
		line := fmt.Sprintf("%s: attacker saw %s; stream %d admissions, %d failed, p99 %v; peak memory %.1f MiB of %.0f MiB",
			a.name, outcomes, n, stream.Failed()-failedBefore, p99.Round(time.Millisecond),
			float64(peak)/(1<<20), float64(limit)/(1<<20))
		t.Log(line)
		report = append(report, line)
		var summary struct {
			Outcomes map[string]int `json:"outcomes"`
		}
		if err := json.Unmarshal([]byte(outcomes), &summary); err != nil {
			t.Fatalf("%s: attacker summary %s: %v", a.name, outcomes, err)
		}
		met := 0
		for _, o := range a.defence {
			met += summary.Outcomes[o]
		}
		if met == 0 {
			t.Errorf("%s: no connection ended in %v, so the attack never met the defence: %s", a.name, a.defence, outcomes)
		}
	}
	// A little more of the stream after the last attack: the replica must still be serving.
	settle := stream.Sent() + 40
	f.WaitFor("40 more admissions after the attacks", time.Minute, func() (bool, string, error) {
		n := stream.Sent()
		return n >= settle, fmt.Sprintf("%d sent", n), nil
	})
	sent, failures := stream.Stop()
	ratio := float64(sent-len(failures)) / float64(max(sent, 1))
	t.Logf("stream over all attacks: %d sent, %d failed (%.3f %% admitted)\n%s", sent, len(failures),
		100*ratio, strings.Join(report, "\n"))
	if ratio < 0.999 {
		t.Errorf("only %.3f %% of %d admissions succeeded (want >= 99.9 %%); first failures:\n%s",
			100*ratio, sent, strings.Join(failures[:min(len(failures), 10)], "\n"))
	}
	_, after, err := f.DeploymentPods(ns, framework.WebhookDeployment)
	if err != nil {
		t.Fatalf("%v", err)
	}
	for name, n := range restartCounts(after) {
		if before, ok := restartsBefore[name]; !ok || n != before {
			t.Errorf("webhook pod %s: %d restarts after the attacks, %d before (%s)", name, n, before, lastTermination(after, name))
		}
	}
	for name := range restartsBefore {
		if _, ok := restartCounts(after)[name]; !ok {
			t.Errorf("webhook pod %s is gone after the attacks", name)
		}
	}
}

func restartCounts(pods []corev1.Pod) map[string]int32 {
	m := map[string]int32{}
	for _, p := range pods {
		var n int32
		for _, s := range p.Status.ContainerStatuses {
			n += s.RestartCount
		}
		m[p.Name] = n
	}
	return m
}

func lastTermination(pods []corev1.Pod, name string) string {
	for _, p := range pods {
		if p.Name != name {
			continue
		}
		for _, s := range p.Status.ContainerStatuses {
			if term := s.LastTerminationState.Terminated; term != nil {
				return fmt.Sprintf("last termination: %s, exit code %d", term.Reason, term.ExitCode)
			}
		}
	}
	return "no last termination recorded"
}

func containerPort(p corev1.Pod, name string, fallback int32) int32 {
	for _, c := range p.Spec.Containers {
		for _, port := range c.Ports {
			if port.Name == name {
				return port.ContainerPort
			}
		}
	}
	return fallback
}

// resetPeak starts a new high-water mark of the cgroup's memory use (cgroup v1: writing 0 to
// memory.max_usage_in_bytes resets it to the current use).
func resetPeak(t *testing.T, cgroup string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(cgroup, "memory.max_usage_in_bytes"), []byte("0"), 0); err != nil {
		t.Fatalf("reset the memory peak of %s: %v", cgroup, err)
	}
}

// lastJSONLine is the attacker's summary: the last line of its output that is a JSON object.
func lastJSONLine(t *testing.T, out string) string {
	t.Helper()
	lines := strings.Split(out, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if strings.HasPrefix(l, "{") && json.Valid([]byte(l)) {
			return l
		}
	}
	t.Fatalf("no JSON summary in the attacker's output:\n%s", out)
	return ""
}

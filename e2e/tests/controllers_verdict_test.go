package tests

import (
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"vc-cpp.local/e2e/tests/framework"
)

// The Job controller's verdict pass (ours; docs/explain.md): a job that stops on its
// configuration gets one Warning event naming the stop, and the controller's /metrics counts it
// under its queue and verdict. Volcano's controller-manager has no such pass, so the test runs
// against ours only.
func TestJobVerdictEventAndGauge(t *testing.T) {
	if framework.ControllersImpl() == "reference" {
		t.Skip("Volcano's controller-manager records no verdict events (a vc-cpp addition)")
	}
	f := framework.New(t, "e2e-verdict")
	c := framework.LoadLocalCluster(t)
	queue := "e2e-verdict-" + f.Suffix
	f.CreateQueue(queue, 1)
	job := f.CreateJob(framework.NewJob(f.Namespace, framework.JobSpec{Name: "nowhere", Queue: queue,
		MinAvailable: 1, Tasks: []framework.Task{{Name: "t", Replicas: 1, CPU: "100m",
			NodeSelector: map[string]string{"vc-cpp.e2e/no-such-label": f.Suffix}}}}))

	// The pass leaves a job alone for its first 20 s, runs every 30 s, spreads its reads over the
	// period, and announces a stop that two diagnoses in a row gave: three minutes hold several
	// passes even when other tests' jobs wait too.
	var message string
	f.WaitFor("a ConfigurationError event on the job", 3*time.Minute, func() (bool, string, error) {
		evs, err := f.Kube.CoreV1().Events(f.Namespace).List(t.Context(), metav1.ListOptions{
			FieldSelector: "involvedObject.uid=" + string(job.UID)})
		if err != nil {
			return false, "", err
		}
		var seen []string
		for _, e := range evs.Items {
			seen = append(seen, fmt.Sprintf("%s %s: %s (x%d)", e.Type, e.Reason, e.Message, e.Count))
			if e.Type == "Warning" && e.Reason == "ConfigurationError" {
				message = e.Message
				if e.Count > 1 {
					return false, "", fmt.Errorf("the verdict was announced %d times: %s", e.Count, e.Message)
				}
				return true, "", nil
			}
		}
		return false, strings.Join(seen, "\n"), nil
	})
	for _, want := range []string{"nodeSelector (vc-cpp.e2e/no-such-label=" + f.Suffix + ") matches no node",
		"vc-cpp explain " + f.Namespace + "/" + job.Name} {
		if !strings.Contains(message, want) {
			t.Errorf("event message %q lacks %q", message, want)
		}
	}

	url := fmt.Sprintf("http://127.0.0.1:%s/metrics", c.Var("CONTROLLERS_METRICS_PORT"))
	series := regexp.MustCompile(`(?m)^vc_cpp_job_verdicts\{queue="` + regexp.QuoteMeta(queue) +
		`",verdict="ConfigurationError"\} (\S+)$`)
	f.WaitFor("the verdict gauge counting the job", time.Minute, func() (bool, string, error) {
		resp, err := http.Get(url)
		if err != nil {
			return false, err.Error(), nil
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			return false, err.Error(), nil
		}
		m := series.FindSubmatch(body)
		if m == nil {
			var lines []string
			for _, l := range strings.Split(string(body), "\n") {
				if strings.HasPrefix(l, "vc_cpp_job_verdicts") {
					lines = append(lines, l)
				}
			}
			return false, "no series for the queue; seen:\n" + strings.Join(lines, "\n"), nil
		}
		n, err := strconv.ParseFloat(string(m[1]), 64)
		return err == nil && n == 1, string(m[0]), nil
	})
}

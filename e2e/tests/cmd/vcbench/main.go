// Command vcbench is the measuring half of the controller benchmark (bench/controller/run.sh).
// Against the local cluster it submits objects all at once into a fresh namespace and measures
// from watches, not from polling: for Volcano Jobs (or, for the ceiling, plain pods) when every
// pod exists and every job is Running; for CronJobs how many of their runs' Jobs appear and how
// late, minute by minute; for JobFlows when every flow has Succeeded. Each run prints one JSON
// object on stdout, also when it fails (with "error" set), so the caller can record partial
// figures; progress and diagnostics go to stderr.
//
//	vcbench jobs             --namespace NS --jobs 500 --tasks 4 --queue bench --placement k=v
//	vcbench pods             --namespace NS --pods 2000 --qps 200 --burst 400 --placement k=v
//	vcbench cronjobs         --namespace NS --cronjobs 500 --minutes 3 --queue bench --placement k=v
//	vcbench jobflows         --namespace NS --flows 200 --queue bench --placement k=v
//	vcbench delete-namespace --namespace NS
//
// Exit status: 0 when the measurement completed, 1 when it failed or timed out, 2 on bad usage.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	vcclient "volcano.sh/apis/pkg/client/clientset/versioned"
)

// errUsage marks a command-line mistake (exit status 2).
var errUsage = errors.New("usage")

func main() {
	if len(os.Args) < 2 {
		usage()
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "jobs":
		err = runJobs(os.Args[2:])
	case "pods":
		err = runPods(os.Args[2:])
	case "cronjobs":
		err = runCronJobs(os.Args[2:])
	case "jobflows":
		err = runJobFlows(os.Args[2:])
	case "probe":
		err = runProbe(os.Args[2:])
	case "plot":
		err = runPlot(os.Args[2:])
	case "delete-namespace":
		err = runDeleteNamespace(os.Args[2:])
	case "-h", "--help", "help":
		usage()
		return
	default:
		fmt.Fprintf(os.Stderr, "vcbench: unknown command %q\n", os.Args[1])
		usage()
		os.Exit(2)
	}
	if errors.Is(err, errUsage) {
		// parseFlags has said what was wrong; the commands' own checks say it here.
		if err != errUsage {
			fmt.Fprintf(os.Stderr, "vcbench %s: %v\n", os.Args[1], err)
		}
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "vcbench %s: %v\n", os.Args[1], err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprint(os.Stderr, `usage: vcbench jobs|pods|cronjobs|jobflows|probe|plot|delete-namespace [flags]   (vcbench CMD -h lists the flags)
  jobs              create Volcano Jobs at once; time until all pods exist and all jobs are Running
  pods              the ceiling: create the same pods directly with a rate-limited client
  cronjobs          create CronJobs running every minute; their runs per minute and how late
  jobflows          create JobFlows of five steps at once; time until all of them Succeed
  probe             create one job now; the moment its PodGroup appears (a controller's cold start)
  plot              draw the scale case's growth table (TSV) as a PNG
  delete-namespace  delete a namespace and wait until it (with its pods) is gone
`)
}

// commonFlags are the flags every command takes.
type commonFlags struct {
	kubeconfig string
	namespace  string
	timeout    time.Duration
}

func (c *commonFlags) register(fs *flag.FlagSet, defaultTimeout time.Duration) {
	fs.StringVar(&c.kubeconfig, "kubeconfig", os.Getenv("KUBECONFIG"), "admin kubeconfig of the cluster")
	fs.StringVar(&c.namespace, "namespace", "", "namespace to use (created fresh by all but delete-namespace)")
	fs.DurationVar(&c.timeout, "timeout", defaultTimeout, "deadline of the whole measurement (or deletion)")
}

func (c *commonFlags) check() error {
	if c.kubeconfig == "" {
		return fmt.Errorf("--kubeconfig (or KUBECONFIG) is required: %w", errUsage)
	}
	if c.namespace == "" {
		return fmt.Errorf("--namespace is required: %w", errUsage)
	}
	if c.timeout <= 0 {
		return fmt.Errorf("--timeout must be positive: %w", errUsage)
	}
	return nil
}

// parseFlags parses args into fs and reports usage errors as errUsage.
func parseFlags(fs *flag.FlagSet, args []string) error {
	fs.SetOutput(os.Stderr)
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if fs.NArg() != 0 {
		fmt.Fprintf(os.Stderr, "unexpected arguments: %v\n", fs.Args())
		return errUsage
	}
	return nil
}

// placedClients parses --placement and builds clients without a client-side rate limit (the
// commands that create what the controller works on: submitting is not what they measure).
func placedClients(kubeconfig, placementFlag string) (placement, *clients, error) {
	place, err := parsePlacement(placementFlag)
	if err != nil {
		return placement{}, nil, fmt.Errorf("--placement: %v: %w", err, errUsage)
	}
	c, err := newClients(kubeconfig, -1, 0)
	return place, c, err
}

// clients are the clientsets built from one kubeconfig with one rate limit. A clientset shares
// one token bucket across all its API groups, like the controller-manager's clients do.
type clients struct {
	kube kubernetes.Interface
	vc   vcclient.Interface
}

// newClients builds clients limited to qps/burst; qps < 0 disables client-side rate limiting.
func newClients(kubeconfig string, qps float32, burst int) (*clients, error) {
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return nil, fmt.Errorf("load kubeconfig %s: %w", kubeconfig, err)
	}
	cfg.QPS, cfg.Burst = qps, burst
	cfg.UserAgent = "vcbench"
	return clientsFor(cfg)
}

func clientsFor(cfg *rest.Config) (*clients, error) {
	kube, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("kubernetes client: %w", err)
	}
	vc, err := vcclient.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("volcano client: %w", err)
	}
	return &clients{kube: kube, vc: vc}, nil
}

// emit prints one result object on stdout.
func emit(v any) {
	enc := json.NewEncoder(os.Stdout)
	if err := enc.Encode(v); err != nil {
		fmt.Fprintf(os.Stderr, "vcbench: write result: %v\n", err)
	}
}

// seconds rounds d to milliseconds, in seconds, for the JSON results.
func seconds(d time.Duration) float64 {
	return float64(d.Milliseconds()) / 1000
}

// logf writes one progress or diagnostic line to stderr.
func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "%s vcbench: %s\n", time.Now().Format("15:04:05"), fmt.Sprintf(format, args...))
}

// resultHeader: what every vcbench result starts with. StartUnixMs is just before the first
// create; CreatesDoneS the seconds from then until the last create returned (null when it did
// not); CreateFailures the creates that failed; Error why the measurement ended early.
type resultHeader struct {
	Kind           string   `json:"kind"`
	Namespace      string   `json:"namespace"`
	Concurrency    int      `json:"concurrency"`
	StartUnixMs    int64    `json:"start_unix_ms"`
	CreatesDoneS   *float64 `json:"creates_done_s"`
	CreateFailures int      `json:"create_failures"`
	Error          string   `json:"error,omitempty"`
}

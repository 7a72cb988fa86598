// Package framework is the small toolkit the end-to-end scenarios share: API clients built
// from KUBECONFIG, a namespace per test, helpers that create Volcano Jobs, Queues and kwok
// nodes, an event recorder fed by watches, and WaitFor, the only way a test waits.
//
// Everything a test creates is removed by one cleanup registered in New, in a fixed order:
// the namespace first (so jobs, pods and PodGroups are gone), then the queues the test
// created, then its nodes. That order is what lets a queue or a node be deleted safely.
package framework

import (
	"context"
	"crypto/rand"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	vcclient "volcano.sh/apis/pkg/client/clientset/versioned"
)

// Timeouts shared by the helpers. They are generous: the machine running the suite is small
// and busy, and a slow pass is better than a flaky one.
const (
	NamespaceDeleteTimeout = 3 * time.Minute
	QueueReadyTimeout      = 60 * time.Second
	QueueDeleteTimeout     = 2 * time.Minute
	NodeReadyTimeout       = 60 * time.Second
	// apiTimeout bounds a single API call (not a watch) so a hung connection cannot hang a test.
	apiTimeout = 30 * time.Second
)

// Clients holds the two clientsets a test talks to the cluster through. Every request made
// through them is bounded by apiTimeout; watches use clients built by watchClients.
type Clients struct {
	Kube    kubernetes.Interface
	Volcano vcclient.Interface
	// Config is the kubeconfig's REST config without the per-request timeout.
	Config *rest.Config
}

// LoadClients builds clients from the kubeconfig named by KUBECONFIG.
func LoadClients() (*Clients, error) {
	path := os.Getenv("KUBECONFIG")
	if path == "" {
		return nil, fmt.Errorf("KUBECONFIG is not set; it must name an admin kubeconfig of the e2e cluster")
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", path)
	if err != nil {
		return nil, fmt.Errorf("load kubeconfig %s: %w", path, err)
	}
	// The recorder's watches and the polling loops issue many small requests; the client-side
	// default of 5 QPS would make the test itself the bottleneck.
	cfg.QPS = 50
	cfg.Burst = 100
	cfg.UserAgent = "vc-cpp-e2e"
	bounded := rest.CopyConfig(cfg)
	bounded.Timeout = apiTimeout
	kube, vc, err := newClientsets(bounded)
	if err != nil {
		return nil, err
	}
	return &Clients{Kube: kube, Volcano: vc, Config: cfg}, nil
}

func newClientsets(cfg *rest.Config) (kubernetes.Interface, vcclient.Interface, error) {
	kube, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, nil, fmt.Errorf("kubernetes client: %w", err)
	}
	vc, err := vcclient.NewForConfig(cfg)
	if err != nil {
		return nil, nil, fmt.Errorf("volcano client: %w", err)
	}
	return kube, vc, nil
}

// Impl names the implementations under test (reference or ours); only used in messages.
// IMPL sets both; IMPL_WEBHOOK and IMPL_CONTROLLERS, when set, name each one.
func Impl() string {
	webhook, controllers := os.Getenv("IMPL_WEBHOOK"), os.Getenv("IMPL_CONTROLLERS")
	if webhook == "" && controllers == "" {
		if v := os.Getenv("IMPL"); v != "" {
			return v
		}
		return "unknown"
	}
	return "webhook:" + orUnknown(webhook) + ",controllers:" + orUnknown(controllers)
}

func orUnknown(s string) string {
	if s == "" {
		return os.Getenv("IMPL") + "?"
	}
	return s
}

// Framework is one test's view of the cluster: clients, its namespace and what it created.
// It is used from the test goroutine only.
type Framework struct {
	*Clients
	T *testing.T
	// Namespace is created by New and deleted (and waited for) at cleanup.
	Namespace string
	// Suffix is a short random string unique to this test run, for cluster-scoped names.
	Suffix string

	queues []string // queues this test created, deleted at cleanup
	nodes  []string // nodes this test created, deleted at cleanup
}

// New connects to the cluster, creates a fresh namespace named after prefix and registers the
// cleanup that tears down everything the test creates through the framework.
func New(t *testing.T, prefix string) *Framework {
	t.Helper()
	clients, err := LoadClients()
	if err != nil {
		t.Fatalf("%v", err)
	}
	f := &Framework{Clients: clients, T: t, Suffix: RandSuffix()}
	f.Namespace = prefix + "-" + f.Suffix

	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{
		Name:   f.Namespace,
		Labels: map[string]string{"vc-cpp.e2e/test": sanitizeLabel(t.Name())},
	}}
	if _, err := f.Kube.CoreV1().Namespaces().Create(ctx(), ns, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create namespace %s: %v", f.Namespace, err)
	}
	t.Cleanup(f.cleanup)
	t.Logf("impl=%s namespace=%s", Impl(), f.Namespace)

	// The ServiceAccount admission plugin rejects pods until the namespace's default
	// ServiceAccount exists; waiting here keeps that race out of every scenario.
	f.WaitFor("default ServiceAccount in "+f.Namespace, 60*time.Second, func() (bool, string, error) {
		_, err := f.Kube.CoreV1().ServiceAccounts(f.Namespace).Get(ctx(), "default", metav1.GetOptions{})
		if err != nil {
			return false, "", err
		}
		return true, "present", nil
	})
	return f
}

// ctx is the context of one API call. Calls are bounded by the clients' request timeout, and
// nothing in a test cancels a call, so there is nothing more to carry.
func ctx() context.Context { return context.Background() }

// WaitFor is the package-level WaitFor bound to this test.
func (f *Framework) WaitFor(what string, timeout time.Duration, cond Condition) {
	f.T.Helper()
	WaitFor(f.T, what, timeout, cond)
}

func (f *Framework) cleanup() {
	t := f.T
	if t.Failed() {
		f.DumpState()
	}
	if os.Getenv("E2E_KEEP") != "" {
		t.Logf("E2E_KEEP set: leaving namespace %s, queues %v, nodes %v", f.Namespace, f.queues, f.nodes)
		return
	}
	f.deleteNamespace()
	for i := len(f.queues) - 1; i >= 0; i-- {
		f.deleteQueue(f.queues[i])
	}
	for _, n := range f.nodes {
		f.deleteNode(n)
	}
}

func (f *Framework) deleteNamespace() {
	t := f.T
	err := f.Kube.CoreV1().Namespaces().Delete(ctx(), f.Namespace, metav1.DeleteOptions{})
	if err != nil && !apierrors.IsNotFound(err) {
		t.Errorf("cleanup: delete namespace %s: %v", f.Namespace, err)
		return
	}
	seen, err := Poll(NamespaceDeleteTimeout, func() (bool, string, error) {
		ns, err := f.Kube.CoreV1().Namespaces().Get(ctx(), f.Namespace, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return true, "gone", nil
		}
		if err != nil {
			return false, "", err
		}
		return false, namespaceSummary(ns), nil
	})
	if err != nil {
		t.Errorf("cleanup: namespace %s not deleted within %v: %v (last seen: %s)",
			f.Namespace, NamespaceDeleteTimeout, err, seen)
	}
}

func namespaceSummary(ns *corev1.Namespace) string {
	parts := []string{"phase=" + string(ns.Status.Phase)}
	for _, c := range ns.Status.Conditions {
		if c.Status == corev1.ConditionTrue {
			parts = append(parts, fmt.Sprintf("%s: %s", c.Type, c.Message))
		}
	}
	return strings.Join(parts, "; ")
}

// RandSuffix returns 6 random lowercase alphanumerics, valid in any Kubernetes name.
func RandSuffix() string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		panic(fmt.Sprintf("crypto/rand failed: %v", err))
	}
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}

// sanitizeLabel turns a test name into a valid label value (subtests contain '/').
func sanitizeLabel(s string) string {
	out := []byte(s)
	for i, c := range out {
		ok := c == '-' || c == '_' || c == '.' ||
			(c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
		if !ok {
			out[i] = '_'
		}
	}
	if len(out) > 63 {
		out = out[:63]
	}
	return strings.Trim(string(out), "-_.")
}

// RunSuite is a test package's TestMain: it loads the clients, lets ready check the cluster
// is fit for the package (nil: fit), and exits with the tests' result, or with 1 and a message
// naming what is missing.
func RunSuite(m *testing.M, ready func(*Clients) error) {
	clients, err := LoadClients()
	if err == nil && ready != nil {
		err = ready(clients)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "e2e: %v\n", err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

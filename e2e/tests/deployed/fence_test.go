package deployed

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	authnv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"vc-cpp.local/e2e/tests/framework"
)

// The chart's RBAC for the controllers, bound to the fenced replica's ServiceAccount too.
const (
	controllersClusterRole = "volcano-controllers"
	controllersLeaseRole   = "volcano-controllers-leader-election"
	fencedPod              = "vc-cpp-e2e-fenced-leader"
)

// A leader cut off from the API server makes no write once its lease has expired. The leader
// is a controller-manager pod of the chart's image whose API traffic goes through a proxy the
// test freezes, mid-burst of Job work. Another replica takes the lease; the proxy then thaws and
// delivers whatever the cut-off leader had left in flight. Its calls were cancelled at the renew
// deadline with their connections reset, so the API server's audit log of its identity shows no
// write received after the thaw.
func TestDeployedFencedLeaderMakesNoLateWrite(t *testing.T) {
	f := framework.New(t, "e2e-deployed-fence")
	started := time.Now() // the audit log may hold earlier runs' events
	ns := framework.DeployedNamespace()
	sa := framework.FencedServiceAccount()
	user := "system:serviceaccount:" + ns + ":" + sa
	if framework.AuditLogPath() == "" {
		t.Fatalf("VC_AUDIT_LOG is not set: run through e2e/run-deployed.sh")
	}
	proxy := startProxy(t, f)
	d, _, err := f.DeploymentPods(ns, framework.ControllersDeployment)
	if err != nil {
		t.Fatalf("%v", err)
	}
	replicas := *d.Spec.Replicas
	t.Cleanup(func() { scaleControllers(context.Background(), t, f, ns, replicas) })

	// 1. The proxied replica alone, so it takes the lease.
	scaleControllers(t.Context(), t, f, ns, 0)
	grantControllerRole(t, f, ns, sa)
	createFencedPod(t, f, d.Spec.Template.Spec, ns, sa, proxy.Addr())
	waitLeader(f, ns, "the proxied replica", func(h string) bool { return strings.HasPrefix(h, fencedPod+"_") })
	// 2. A standby from the chart's Deployment.
	scaleControllers(t.Context(), t, f, ns, 1)

	// 3. A burst of Job work, frozen while the leader writes it.
	for i := range 8 {
		f.CreateJob(framework.NewJob(f.Namespace, framework.JobSpec{Name: fmt.Sprintf("burst-%d", i), MinAvailable: 1,
			Tasks: []framework.Task{{Name: "a", Replicas: 2, CPU: "10m"}, {Name: "b", Replicas: 2, CPU: "10m"}}}))
	}
	f.WaitFor("the leader to start on the burst", time.Minute, func() (bool, string, error) {
		pods, err := f.Kube.CoreV1().Pods(f.Namespace).List(t.Context(), metav1.ListOptions{})
		if err != nil {
			return false, "", err
		}
		return len(pods.Items) > 0, fmt.Sprintf("%d pods", len(pods.Items)), nil
	})
	proxy.Freeze()
	frozenAt := time.Now()
	t.Logf("proxy frozen at %s", frozenAt.Format("15:04:05.000"))

	// 4. The standby takes over once the lease has expired.
	var holder string
	waitLeader(f, ns, "the standby", func(h string) bool {
		holder = h
		return h != "" && !strings.HasPrefix(h, fencedPod+"_")
	})
	t.Logf("%s leads %v after the freeze", holder, time.Since(frozenAt).Round(time.Millisecond))
	f.WaitFor("the cut-off leader to log the end of its term", 30*time.Second, func() (bool, string, error) {
		logs, err := f.Kube.CoreV1().Pods(ns).GetLogs(fencedPod, &corev1.PodLogOptions{}).DoRaw(t.Context())
		if err != nil {
			return false, "", err
		}
		return strings.Contains(string(logs), "fencing the API client"), lastLine(string(logs)), nil
	})

	// 5. Thaw, let the server answer whatever was delivered late, then mark the end of the log.
	proxy.Thaw()
	thawedAt := time.Now()
	f.WaitFor("the late deliveries to be answered", 30*time.Second, func() (bool, string, error) {
		s := proxy.Stats()
		return s.LateAnswered == s.LateDelivered, s.String(), nil
	})
	marker := "fence-marker-" + f.Suffix
	writeAsFenced(t, f, ns, sa, marker)
	var events []framework.AuditEvent
	f.WaitFor("the marker write in the audit log", 30*time.Second, func() (bool, string, error) {
		events, err = framework.ReadAuditLog(framework.AuditLogPath(), user)
		if err != nil {
			return false, "", err
		}
		for _, e := range events {
			if e.ObjectRef != nil && e.ObjectRef.Name == marker {
				return true, fmt.Sprintf("%d events of %s", len(events), user), nil
			}
		}
		return false, fmt.Sprintf("%d events of %s, no marker yet", len(events), user), nil
	})

	stats := proxy.Stats()
	t.Logf("proxy: %s", stats)
	var before, late []framework.AuditEvent
	for _, e := range events {
		switch {
		case e.ObjectRef != nil && e.ObjectRef.Name == marker:
		case e.RequestReceivedTimestamp.Before(started):
		case e.RequestReceivedTimestamp.Before(frozenAt):
			before = append(before, e)
		case !e.RequestReceivedTimestamp.Before(thawedAt):
			late = append(late, e)
		}
	}
	t.Logf("writes of the proxied replica: %d before the freeze, %d received after the thaw", len(before), len(late))
	if len(before) == 0 {
		t.Errorf("the audit log shows no write of %s before the freeze: the proxied replica never led, or the log is not of this cluster", user)
	}
	if stats.SentWhileFrozen == 0 {
		t.Errorf("no request was sent while the proxy was frozen, so nothing was in flight to fence: %s", stats)
	}
	for _, e := range late {
		t.Errorf("write received after the lease had expired: %s", e)
	}
}

func startProxy(t *testing.T, f *framework.Framework) *framework.FreezableProxy {
	t.Helper()
	listen, upstream := proxyAddresses(t, f)
	p, err := framework.StartFreezableProxy(listen, upstream)
	if err != nil {
		t.Fatalf("proxy on %s: %v", listen, err)
	}
	t.Cleanup(p.Close)
	return p
}

// proxyAddresses: where a proxy in the test listens for pods (the host's address on the pod
// network, any port) and the API server it forwards to.
func proxyAddresses(t *testing.T, f *framework.Framework) (listen, upstream string) {
	t.Helper()
	u, err := url.Parse(f.Config.Host)
	if err != nil {
		t.Fatalf("API server address %q: %v", f.Config.Host, err)
	}
	gateway := os.Getenv("VC_POD_GATEWAY")
	if gateway == "" {
		t.Fatalf("VC_POD_GATEWAY is not set: the address pods reach the host at (run through e2e/run-deployed.sh)")
	}
	return net.JoinHostPort(gateway, "0"), u.Host
}

func scaleControllers(ctx context.Context, t *testing.T, f *framework.Framework, ns string, n int32) {
	t.Helper()
	patch := fmt.Sprintf(`{"spec":{"replicas":%d}}`, n)
	if _, err := f.Kube.AppsV1().Deployments(ns).Patch(ctx, framework.ControllersDeployment,
		types.MergePatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
		t.Fatalf("scale %s to %d: %v", framework.ControllersDeployment, n, err)
	}
	f.WaitFor(fmt.Sprintf("%s at %d replicas", framework.ControllersDeployment, n), 2*time.Minute, func() (bool, string, error) {
		d, err := f.Kube.AppsV1().Deployments(ns).Get(ctx, framework.ControllersDeployment, metav1.GetOptions{})
		if err != nil {
			return false, "", err
		}
		sel, _ := metav1.LabelSelectorAsSelector(d.Spec.Selector)
		pods, err := f.Kube.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: sel.String()})
		if err != nil {
			return false, "", err
		}
		// Terminating pods count: one may still hold the lease.
		return framework.RolledOut(d) && len(pods.Items) == int(n),
			fmt.Sprintf("%s, %d pods", framework.DeploymentSummary(d), len(pods.Items)), nil
	})
}

func grantControllerRole(t *testing.T, f *framework.Framework, ns, sa string) {
	t.Helper()
	ctx := t.Context()
	subject := []rbacv1.Subject{{Kind: "ServiceAccount", Name: sa, Namespace: ns}}
	name := sa + "-" + f.Suffix
	objs := []func() error{
		func() error {
			_, err := f.Kube.CoreV1().ServiceAccounts(ns).Create(ctx, &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: sa}}, metav1.CreateOptions{})
			return err
		},
		func() error {
			_, err := f.Kube.RbacV1().ClusterRoleBindings().Create(ctx, &rbacv1.ClusterRoleBinding{
				ObjectMeta: metav1.ObjectMeta{Name: name}, Subjects: subject,
				RoleRef: rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: controllersClusterRole}}, metav1.CreateOptions{})
			return err
		},
		func() error {
			_, err := f.Kube.RbacV1().RoleBindings(ns).Create(ctx, &rbacv1.RoleBinding{
				ObjectMeta: metav1.ObjectMeta{Name: name}, Subjects: subject,
				RoleRef: rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "Role", Name: controllersLeaseRole}}, metav1.CreateOptions{})
			return err
		},
	}
	for _, create := range objs {
		if err := create(); err != nil {
			t.Fatalf("RBAC of %s: %v", sa, err)
		}
	}
	t.Cleanup(func() {
		ctx := context.Background() // t.Context() is cancelled before cleanups run
		_ = f.Kube.RbacV1().ClusterRoleBindings().Delete(ctx, name, metav1.DeleteOptions{})
		_ = f.Kube.RbacV1().RoleBindings(ns).Delete(ctx, name, metav1.DeleteOptions{})
		_ = f.Kube.CoreV1().ServiceAccounts(ns).Delete(ctx, sa, metav1.DeleteOptions{})
	})
}

// createFencedPod runs the controllers' pod template as a lone pod under sa, its in-cluster API
// address pointed at the proxy.
func createFencedPod(t *testing.T, f *framework.Framework, spec corev1.PodSpec, ns, sa string, proxy *net.TCPAddr) {
	t.Helper()
	spec = *spec.DeepCopy()
	spec.ServiceAccountName = sa
	c := &spec.Containers[0]
	c.Env = append(c.Env,
		corev1.EnvVar{Name: "KUBERNETES_SERVICE_HOST", Value: proxy.IP.String()},
		corev1.EnvVar{Name: "KUBERNETES_SERVICE_PORT", Value: strconv.Itoa(proxy.Port)})
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: fencedPod, Namespace: ns,
		Labels: map[string]string{"app": fencedPod}}, Spec: spec}
	if _, err := f.Kube.CoreV1().Pods(ns).Create(t.Context(), pod, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create pod %s: %v", fencedPod, err)
	}
	t.Cleanup(func() {
		// A short grace period, not zero: a force delete removes the object while the kubelet
		// still runs the pod, and its status sync then asks for a pod the node authorizer no
		// longer ties to the node (a "forbidden" for system:node per retry). With a grace
		// period the kubelet stops the containers and removes the object itself.
		grace := int64(1)
		ctx := context.Background()
		_ = f.Kube.CoreV1().Pods(ns).Delete(ctx, fencedPod, metav1.DeleteOptions{GracePeriodSeconds: &grace})
		f.WaitFor("pod "+fencedPod+" gone", time.Minute, func() (bool, string, error) {
			_, err := f.Kube.CoreV1().Pods(ns).Get(ctx, fencedPod, metav1.GetOptions{})
			if err != nil && !apierrors.IsNotFound(err) {
				return false, "", err
			}
			return err != nil, fmt.Sprintf("get: %v", err), nil
		})
	})
}

func waitLeader(f *framework.Framework, ns, who string, is func(holder string) bool) {
	f.WaitFor(who+" to hold "+framework.ControllersLease, 2*time.Minute, func() (bool, string, error) {
		h, err := f.LeaseHolder(ns, framework.ControllersLease)
		if err != nil {
			return false, "", err
		}
		return is(h), "holder " + h, nil
	})
}

// writeAsFenced makes one write as ServiceAccount sa, with a token of its own (the audit policy
// matches the authenticated user; an impersonated request is not audited as sa): the last entry
// of sa in the audit log, whatever RBAC answers.
func writeAsFenced(t *testing.T, f *framework.Framework, ns, sa, name string) {
	t.Helper()
	tok, err := f.Kube.CoreV1().ServiceAccounts(ns).CreateToken(t.Context(), sa, &authnv1.TokenRequest{}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("token of %s: %v", sa, err)
	}
	cfg := rest.AnonymousClientConfig(f.Config)
	cfg.BearerToken = tok.Status.Token
	kube, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatalf("client of %s: %v", sa, err)
	}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: f.Namespace}}
	_, err = kube.CoreV1().ConfigMaps(f.Namespace).Create(t.Context(), cm, metav1.CreateOptions{})
	t.Logf("marker write as %s: %v", sa, err)
}

func lastLine(s string) string {
	s = strings.TrimRight(s, "\n")
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

package deployed

import (
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	schedulingv1beta1 "volcano.sh/apis/pkg/apis/scheduling/v1beta1"

	"vc-cpp.local/e2e/tests/framework"
)

// Every component the chart installs runs on the real node, Ready (so its readiness probe
// passes on the kubelet), without a restart (so its liveness probe never failed), from the
// image the chart names.
func TestDeployedStackRunsOnTheRealNode(t *testing.T) {
	f := framework.New(t, "e2e-deployed-stack")
	ns, node := framework.DeployedNamespace(), framework.RealNodeName()
	for _, name := range []string{framework.WebhookDeployment, framework.ControllersDeployment, framework.SchedulerDeployment} {
		t.Run(name, func(t *testing.T) {
			f.WaitFor("deployment "+name+" rolled out", 3*time.Minute, func() (bool, string, error) {
				d, _, err := f.DeploymentPods(ns, name)
				if err != nil {
					return false, "", err
				}
				return framework.RolledOut(d), framework.DeploymentSummary(d), nil
			})
			d, pods, err := f.DeploymentPods(ns, name)
			if err != nil {
				t.Fatalf("%v", err)
			}
			if len(pods) == 0 {
				t.Fatalf("deployment %s has no pods", name)
			}
			image := d.Spec.Template.Spec.Containers[0].Image
			for _, p := range pods {
				if p.Spec.NodeName != node {
					t.Errorf("pod %s runs on %q, want the real node %q", p.Name, p.Spec.NodeName, node)
				}
				for _, cs := range p.Status.ContainerStatuses {
					if !cs.Ready || cs.State.Running == nil {
						t.Errorf("pod %s container %s not ready and running: %+v", p.Name, cs.Name, cs.State)
					}
					if cs.RestartCount != 0 {
						t.Errorf("pod %s container %s restarted %d times (last: %+v)", p.Name, cs.Name, cs.RestartCount, cs.LastTerminationState)
					}
					if cs.ImageID == "" || !strings.HasSuffix(cs.Image, strings.TrimPrefix(image, "docker.io/")) {
						t.Errorf("pod %s runs image %q (%s), the deployment names %q", p.Name, cs.Image, cs.ImageID, image)
					}
				}
				c := p.Spec.Containers[0]
				if name != framework.SchedulerDeployment && (c.ReadinessProbe == nil || c.LivenessProbe == nil) {
					t.Errorf("pod %s: readiness probe %v, liveness probe %v; both must be set", p.Name, c.ReadinessProbe, c.LivenessProbe)
				}
			}
		})
	}
}

// A PodGroup that names queue `default` in a namespace annotated with a queue gets that queue
// from the deployed webhook (/podgroups/mutate reads the namespace under the chart's role).
func TestDeployedWebhookAppliesNamespaceQueue(t *testing.T) {
	f := framework.New(t, "e2e-deployed-nsqueue")
	queue := "e2e-nsq-" + f.Suffix
	f.CreateQueue(queue, 1)
	patch := fmt.Sprintf(`{"metadata":{"annotations":{"scheduling.volcano.sh/queue-name":%q}}}`, queue)
	if _, err := f.Kube.CoreV1().Namespaces().Patch(t.Context(), f.Namespace, types.MergePatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
		t.Fatalf("annotate namespace: %v", err)
	}
	pg := &schedulingv1beta1.PodGroup{
		ObjectMeta: metav1.ObjectMeta{Name: "annotated", Namespace: f.Namespace},
		Spec:       schedulingv1beta1.PodGroupSpec{MinMember: 1, Queue: "default"},
	}
	// The webhook's Namespace informer sees the annotation a moment after it is stored
	// (docs/compat.md); dry runs show when it has.
	framework.WaitFor(t, "the webhook to see the namespace's queue", 10*time.Second, func() (bool, string, error) {
		dry, err := f.Volcano.SchedulingV1beta1().PodGroups(f.Namespace).Create(t.Context(), pg.DeepCopy(), framework.DryRunCreate())
		if err != nil {
			return false, "", err
		}
		return dry.Spec.Queue == queue, "queue " + dry.Spec.Queue, nil
	})
	got := f.CreatePodGroup(t, pg)
	if got.Spec.Queue != queue {
		t.Errorf("PodGroup stored with queue %q, want the namespace's queue %q", got.Spec.Queue, queue)
	}
}

// `kubectl rollout restart` of the webhook while admissions keep coming: every replica is
// replaced, and not one admission fails (maxUnavailable 0, readiness gating, a preStop delay
// that outlasts the endpoint removal, and graceful shutdown of in-flight reviews).
func TestDeployedWebhookRolloutRestartFailsNoAdmission(t *testing.T) {
	f := framework.New(t, "e2e-deployed-rollout")
	ns := framework.DeployedNamespace()
	_, before, err := f.DeploymentPods(ns, framework.WebhookDeployment)
	if err != nil {
		t.Fatalf("%v", err)
	}
	stream := f.StartAdmissionStream(20 * time.Millisecond)
	f.WaitFor("the admission stream to flow", 30*time.Second, func() (bool, string, error) {
		n := stream.Sent()
		return n >= 20, fmt.Sprintf("%d sent", n), nil
	})
	if res := framework.Kubectl(t, "", "-n", ns, "rollout", "restart", "deployment/"+framework.WebhookDeployment); res.ExitCode != 0 {
		stream.Stop()
		t.Fatalf("rollout restart: %s", res)
	}
	old := map[string]bool{}
	for _, p := range before {
		old[p.Name] = true
	}
	f.WaitFor("every webhook replica replaced", 5*time.Minute, func() (bool, string, error) {
		d, pods, err := f.DeploymentPods(ns, framework.WebhookDeployment)
		if err != nil {
			return false, "", err
		}
		for _, p := range pods {
			if old[p.Name] {
				return false, framework.DeploymentSummary(d) + "; old pod " + p.Name + " still there", nil
			}
		}
		return framework.RolledOut(d), framework.DeploymentSummary(d), nil
	})
	// The last old replica leaves the endpoints before it stops; keep sending a little longer so
	// that requests racing its exit are counted too.
	finishStream(t, f, stream, 100, "during the rollout")
}

// Killing the leader's process hands leadership on within the lease budget, and the new leader
// does the controller's work (a new Job gets its PodGroup).
func TestDeployedControllerLeaderHandover(t *testing.T) {
	f := framework.New(t, "e2e-deployed-leader")
	ns := framework.DeployedNamespace()
	var holder string
	f.WaitFor("a leader of "+framework.ControllersLease, time.Minute, func() (bool, string, error) {
		h, err := f.LeaseHolder(ns, framework.ControllersLease)
		holder = h
		return h != "", "holder " + h, err
	})
	_, pods, err := f.DeploymentPods(ns, framework.ControllersDeployment)
	if err != nil {
		t.Fatalf("%v", err)
	}
	var leader string
	for _, p := range pods {
		if strings.HasPrefix(holder, p.Name) {
			leader = p.Name
		}
	}
	if leader == "" || len(pods) < 2 {
		t.Fatalf("holder %q is none of the %d controller pods %v", holder, len(pods), podNames(pods))
	}
	lease, err := f.Kube.CoordinationV1().Leases(ns).Get(t.Context(), framework.ControllersLease, metav1.GetOptions{})
	if err != nil || lease.Spec.LeaseDurationSeconds == nil {
		t.Fatalf("lease %s: %v %+v", framework.ControllersLease, err, lease)
	}
	// A killed leader cannot release its lease: the others wait for it to expire, then try again
	// every retry period (2 s by default). Lease duration + two retry periods + an API round trip.
	budget := time.Duration(*lease.Spec.LeaseDurationSeconds)*time.Second + 5*time.Second
	// SIGKILL to the leader's container through the node's containerd: the process dies without
	// a word, and the pod object stays (a force-deleted pod would leave the kubelet syncing a pod
	// the node authorizer no longer lets it read). The kubelet restarts the container, whose new
	// process may win the lease too: any holder but the killed process is a handover.
	killed := time.Now()
	killContainer(t, f, ns, leader)
	var next string
	f.WaitFor("another process to take the lease", 2*budget, func() (bool, string, error) {
		h, err := f.LeaseHolder(ns, framework.ControllersLease)
		next = h
		return h != "" && h != holder, "holder " + h, err
	})
	took := time.Since(killed)
	t.Logf("leader %s killed; %s leads after %v (budget %v)", leader, next, took.Round(time.Millisecond), budget)
	if took > budget {
		t.Errorf("handover took %v, more than the lease budget %v", took, budget)
	}
	job := f.CreateJob(framework.NewJob(f.Namespace, framework.JobSpec{Name: "after-handover", MinAvailable: 1,
		Tasks: []framework.Task{{Name: "t", Replicas: 1, CPU: "10m"}}}))
	f.WaitPodGroup(framework.PodGroupName(job), time.Minute)
}

func podNames(pods []corev1.Pod) []string {
	var out []string
	for _, p := range pods {
		out = append(out, p.Name)
	}
	return out
}

// killContainer sends SIGKILL to the first container of a pod on the real node, as an OOM kill or
// a crash would end it.
func killContainer(t *testing.T, f *framework.Framework, ns, pod string) {
	t.Helper()
	p, err := f.Kube.CoreV1().Pods(ns).Get(t.Context(), pod, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("pod %s: %v", pod, err)
	}
	if err := signalContainer(t, *p, "SIGKILL"); err != nil {
		t.Fatalf("%v", err)
	}
}

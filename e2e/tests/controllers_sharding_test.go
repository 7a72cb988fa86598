package tests

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"vc-cpp.local/e2e/tests/framework"
)

// shardingSyncPeriod is the --shard-sync-period the test runs the controller with: a node that
// leaves the cluster leaves its shard only at the next periodic sync
// (spec controller-manager.md §5.7.5).
const shardingSyncPeriod = "3s"

// shardUtil is a node's CPU utilization as the sharding-controller computes it
// (spec controller-manager.md §5.7.3): the cpu requests of the regular containers of its pods
// that are not Succeeded, Failed or mirror pods, over the cpu capacity, at most 1, rounded to two
// decimals as the allocation-rate policy does.
func shardUtil(node corev1.Node, pods []corev1.Pod) float64 {
	capacity := node.Status.Capacity[corev1.ResourceCPU]
	if capacity.MilliValue() <= 0 {
		return 0
	}
	var milli int64
	for _, p := range pods {
		if p.Spec.NodeName != node.Name || p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed {
			continue
		}
		if _, mirror := p.Annotations["kubernetes.io/config.mirror"]; mirror {
			continue
		}
		for _, c := range p.Spec.Containers {
			q := c.Resources.Requests[corev1.ResourceCPU]
			milli += q.MilliValue()
		}
	}
	u := math.Min(1, float64(milli)/float64(capacity.MilliValue()))
	return math.Round(u*100) / 100
}

// TestControllersSharding runs the controller-manager with the sharding-controller and two
// scheduler configurations that split the nodes by CPU utilization: "busy" takes the nodes at
// 0.5 or above, "idle" those at 0.49 or below, neither with a node limit that the cluster
// reaches. So every node belongs to exactly one NodeShard whatever order the controller visits
// the nodes in (Volcano's is random), and the test can say which from the API alone. It checks
// the split, then that a new node joins, a node made busy by a pod moves, and a deleted node
// leaves.
func TestControllersSharding(t *testing.T) {
	cluster := framework.LoadLocalCluster(t)
	f := framework.New(t, "e2e-ctl-shard")
	s := f.Suffix
	busy, idle := "e2e-busy-"+s, "e2e-idle-"+s
	shards := f.Volcano.ShardV1alpha1().NodeShards()

	cluster.RestoreAtCleanup(t)
	// Runs after the test's controller-manager is gone (cleanups run last-registered first).
	t.Cleanup(func() {
		for _, name := range []string{busy, idle} {
			if err := shards.Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
				t.Errorf("cleanup: delete NodeShard %s: %v", name, err)
			}
		}
	})

	names := []string{"shard-" + s + "-1", "shard-" + s + "-2", "shard-" + s + "-3", "shard-" + s + "-4"}
	for _, n := range names[:3] {
		f.CreateNode(framework.NodeSpec{Name: n, CPU: "4", Memory: "8Gi", Pods: "10"})
	}
	// A pod bound to node 1 requesting 3 of its 4 CPUs: utilization 0.75.
	busyPod := func(name, node string) {
		f.CreatePod(t, &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: f.Namespace},
			Spec: corev1.PodSpec{
				NodeName:      node,
				RestartPolicy: corev1.RestartPolicyNever,
				Containers: []corev1.Container{{
					Name: "main", Image: "busybox", Command: []string{"sh", "-c", "sleep 3600"},
					Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{
						corev1.ResourceCPU: resource.MustParse("3"),
					}},
				}},
			},
		})
	}
	busyPod("busy-1", names[0])

	argv := stopClusterControllers(t, cluster)
	argv = append(argv,
		"--controllers=sharding-controller",
		"--scheduler-configs="+busy+":volcano:0.5:1.0:false:0:1000,"+idle+":volcano:0.0:0.49:false:0:1000",
		"--shard-sync-period="+shardingSyncPeriod,
		"--enable-node-event-trigger=true",
		// No such ConfigMap: the flags are the configuration (spec controller-manager.md §5.7.1).
		"--sharding-configmap=e2e-sharding-absent-"+s,
		"--sharding-configmap-namespace=volcano-system",
	)
	framework.StartProcess(t, "e2e-sharding-cm", cluster.LogPath("e2e-sharding-cm"), argv)
	framework.WaitHealthy(t, cluster.ControllersHealthz(), 30*time.Second)

	// expectSplit waits until the two NodeShards split the cluster's nodes as the utilization
	// says, and the test's nodes in want are where want says ("" = in neither shard).
	expectSplit := func(what string, want map[string]string) {
		t.Helper()
		f.WaitFor(what, framework.ControllerTimeout, func() (bool, string, error) {
			ctx := context.Background()
			nodes, err := f.Kube.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
			if err != nil {
				return false, "", err
			}
			pods, err := f.Kube.CoreV1().Pods("").List(ctx, metav1.ListOptions{})
			if err != nil {
				return false, "", err
			}
			got := map[string][]string{}
			for _, name := range []string{busy, idle} {
				sh, err := shards.Get(ctx, name, metav1.GetOptions{})
				if apierrors.IsNotFound(err) {
					return false, "NodeShard " + name + " not found", nil
				}
				if err != nil {
					return false, "", err
				}
				got[name] = sh.Spec.NodesDesired
			}
			where := map[string][]string{}
			for shard, members := range got {
				for _, n := range members {
					where[n] = append(where[n], shard)
				}
			}
			var problems []string
			for _, n := range nodes.Items {
				expected := idle
				if shardUtil(n, pods.Items) >= 0.5 {
					expected = busy
				}
				if len(where[n.Name]) != 1 || where[n.Name][0] != expected {
					problems = append(problems, fmt.Sprintf("%s (util %.2f) in %v, want %s", n.Name, shardUtil(n, pods.Items), where[n.Name], expected))
				}
				delete(where, n.Name)
			}
			for n, in := range where {
				problems = append(problems, fmt.Sprintf("%s is no node but in %v", n, in))
			}
			for n, shard := range want {
				found := ""
				for name, members := range got {
					for _, m := range members {
						if m == n {
							found = name
						}
					}
				}
				if found != shard {
					problems = append(problems, fmt.Sprintf("%s in %q, want %q", n, found, shard))
				}
			}
			sort.Strings(problems)
			seen := fmt.Sprintf("%s=%v %s=%v problems=%s", busy, got[busy], idle, got[idle], strings.Join(problems, "; "))
			return len(problems) == 0, seen, nil
		})
	}

	expectSplit("the nodes split into the busy and idle NodeShards",
		map[string]string{names[0]: busy, names[1]: idle, names[2]: idle})

	f.CreateNode(framework.NodeSpec{Name: names[3], CPU: "4", Memory: "8Gi", Pods: "10"})
	expectSplit("a new idle node joins the idle NodeShard",
		map[string]string{names[0]: busy, names[1]: idle, names[2]: idle, names[3]: idle})

	busyPod("busy-2", names[1])
	expectSplit("a node made busy by a pod moves to the busy NodeShard",
		map[string]string{names[0]: busy, names[1]: busy, names[2]: idle, names[3]: idle})

	if err := f.Kube.CoreV1().Nodes().Delete(context.Background(), names[2], metav1.DeleteOptions{}); err != nil {
		t.Fatalf("delete node %s: %v", names[2], err)
	}
	expectSplit("a deleted node leaves its NodeShard",
		map[string]string{names[0]: busy, names[1]: busy, names[2]: "", names[3]: idle})
}

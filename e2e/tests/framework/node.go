package framework

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// NodeSpec describes a fake node for kwok to manage.
type NodeSpec struct {
	Name   string
	CPU    string // capacity and allocatable, e.g. "2"
	Memory string // e.g. "8Gi"
	Pods   string // e.g. "110"
	Labels map[string]string
	Taints []corev1.Taint
}

// CreateNode creates a node whose capacity and allocatable are set at creation (the API
// server keeps a Node's status on create), registers it for deletion at cleanup (after the
// namespace is gone, so no pod of the test is still bound to it) and waits until kwok has
// made it Ready.
func (f *Framework) CreateNode(spec NodeSpec) *corev1.Node {
	f.T.Helper()
	res := corev1.ResourceList{
		corev1.ResourceCPU:    resource.MustParse(spec.CPU),
		corev1.ResourceMemory: resource.MustParse(spec.Memory),
		corev1.ResourcePods:   resource.MustParse(spec.Pods),
	}
	labels := map[string]string{
		"kubernetes.io/arch":     "amd64",
		"kubernetes.io/os":       "linux",
		"kubernetes.io/hostname": spec.Name,
		"type":                   "kwok",
	}
	for k, v := range spec.Labels {
		labels[k] = v
	}
	node := &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{
			Name:   spec.Name,
			Labels: labels,
			Annotations: map[string]string{
				"node.alpha.kubernetes.io/ttl": "0",
				"kwok.x-k8s.io/node":           "fake",
			},
		},
		Spec: corev1.NodeSpec{Taints: spec.Taints},
		Status: corev1.NodeStatus{
			Capacity:    res,
			Allocatable: res.DeepCopy(),
			NodeInfo: corev1.NodeSystemInfo{
				Architecture: "amd64", OperatingSystem: "linux",
				KubeletVersion: "fake", KubeProxyVersion: "fake",
			},
		},
	}
	if _, err := f.Kube.CoreV1().Nodes().Create(ctx(), node, metav1.CreateOptions{}); err != nil {
		f.T.Fatalf("create node %s: %v", spec.Name, err)
	}
	f.nodes = append(f.nodes, spec.Name)

	var ready *corev1.Node
	f.WaitFor("node "+spec.Name+" Ready", NodeReadyTimeout, func() (bool, string, error) {
		n, err := f.Kube.CoreV1().Nodes().Get(ctx(), spec.Name, metav1.GetOptions{})
		if err != nil {
			return false, "", err
		}
		ready = n
		cpu := n.Status.Allocatable[corev1.ResourceCPU]
		seen := fmt.Sprintf("ready=%v allocatable.cpu=%s", nodeReady(n), cpu.String())
		return nodeReady(n), seen, nil
	})
	return ready
}

func nodeReady(n *corev1.Node) bool {
	for _, c := range n.Status.Conditions {
		if c.Type == corev1.NodeReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

func (f *Framework) deleteNode(name string) {
	err := f.Kube.CoreV1().Nodes().Delete(ctx(), name, metav1.DeleteOptions{})
	if err != nil && !apierrors.IsNotFound(err) {
		f.T.Errorf("cleanup: delete node %s: %v", name, err)
	}
}

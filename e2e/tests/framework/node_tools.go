package framework

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Helpers for tests that act on the real node from the host they run on: its containers'
// cgroups, and short-lived tool pods running a binary built by the test.

// ContainerID is containerd's ID of a pod's i-th container ("" when it has not started, or is
// not containerd's).
func ContainerID(p *corev1.Pod, i int) string {
	if i >= len(p.Status.ContainerStatuses) {
		return ""
	}
	id, ok := strings.CutPrefix(p.Status.ContainerStatuses[i].ContainerID, "containerd://")
	if !ok {
		return ""
	}
	return id
}

// memoryCgroupRoot is where the node's kubelet puts pod cgroups (cgroup v1 memory hierarchy, the
// cgroupfs driver) on these machines.
const memoryCgroupRoot = "/sys/fs/cgroup/memory/kubepods"

// ContainerCgroupDir finds the memory cgroup directory of a container by its ID (the cgroupfs
// driver names it by the ID; the systemd driver's "cri-containerd-<id>.scope" is matched too).
func ContainerCgroupDir(containerID string) (string, error) {
	if containerID == "" {
		return "", fmt.Errorf("no container ID")
	}
	var found string
	err := filepath.WalkDir(memoryCgroupRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() || found != "" {
			return nil // a cgroup removed while walking is not an error
		}
		if strings.Contains(d.Name(), containerID) {
			found = path
			return filepath.SkipAll
		}
		if strings.Count(strings.TrimPrefix(path, memoryCgroupRoot), "/") >= 3 {
			return filepath.SkipDir // kubepods/<qos>/pod<uid>/<container>: no deeper
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	if found == "" {
		return "", fmt.Errorf("no memory cgroup of container %s under %s", containerID, memoryCgroupRoot)
	}
	return found, nil
}

// CgroupMemoryPeak is the highest memory use the cgroup has seen (memory.max_usage_in_bytes) and
// its limit, in bytes.
func CgroupMemoryPeak(dir string) (peak, limit int64, err error) {
	read := func(name string) (int64, error) {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return 0, err
		}
		return strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	}
	if peak, err = read("memory.max_usage_in_bytes"); err != nil {
		return 0, 0, err
	}
	limit, err = read("memory.limit_in_bytes")
	return peak, limit, err
}

// BuildStaticTool builds a Go command of this module (its import path, e.g.
// "vc-cpp.local/e2e/tests/cmd/webhookattack") as a static
// binary into a fresh directory and returns the directory: a busybox pod can run it from a
// hostPath mount.
func BuildStaticTool(t testing.TB, pkg string) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "vc-e2e-tool-")
	if err != nil {
		t.Fatalf("%v", err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatalf("%v", err)
	}
	cmd := exec.Command("go", "build", "-o", filepath.Join(dir, filepath.Base(pkg)), pkg)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, out)
	}
	return dir
}

// RunToolPod runs the binary `name` of toolDir (BuildStaticTool) with args in a busybox pod on the
// real node, waits up to timeout for it to finish, and returns its log. It fails t when the pod
// does not finish in time or exits non-zero. The pod is deleted at the end.
func (f *Framework) RunToolPod(t testing.TB, podName, toolDir, name string, args []string, timeout time.Duration) string {
	t.Helper()
	ctx := context.Background()
	pods := f.Kube.CoreV1().Pods(f.Namespace)
	hostPathDir := corev1.HostPathDirectory
	grace := int64(0)
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: podName, Namespace: f.Namespace},
		Spec: corev1.PodSpec{
			NodeName:                      RealNodeName(),
			RestartPolicy:                 corev1.RestartPolicyNever,
			TerminationGracePeriodSeconds: &grace,
			Containers: []corev1.Container{{
				Name: "tool", Image: "busybox", ImagePullPolicy: corev1.PullIfNotPresent,
				Command:      append([]string{"/tool/" + name}, args...),
				VolumeMounts: []corev1.VolumeMount{{Name: "tool", MountPath: "/tool", ReadOnly: true}},
			}},
			Volumes: []corev1.Volume{{Name: "tool", VolumeSource: corev1.VolumeSource{
				HostPath: &corev1.HostPathVolumeSource{Path: toolDir, Type: &hostPathDir}}}},
		},
	}
	if _, err := pods.Create(ctx, pod, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create tool pod %s: %v", podName, err)
	}
	defer func() {
		one := int64(1)
		_ = pods.Delete(ctx, podName, metav1.DeleteOptions{GracePeriodSeconds: &one})
		f.WaitFor("tool pod "+podName+" gone", time.Minute, func() (bool, string, error) {
			_, err := pods.Get(ctx, podName, metav1.GetOptions{})
			if err != nil && !apierrors.IsNotFound(err) {
				return false, "", err
			}
			return err != nil, fmt.Sprintf("get: %v", err), nil
		})
	}()
	var phase corev1.PodPhase
	f.WaitFor("tool pod "+podName+" to finish", timeout, func() (bool, string, error) {
		p, err := pods.Get(ctx, podName, metav1.GetOptions{})
		if err != nil {
			return false, "", err
		}
		phase = p.Status.Phase
		return phase == corev1.PodSucceeded || phase == corev1.PodFailed, string(phase), nil
	})
	raw, err := pods.GetLogs(podName, &corev1.PodLogOptions{}).DoRaw(ctx)
	if err != nil {
		t.Fatalf("logs of tool pod %s: %v", podName, err)
	}
	log := string(bytes.TrimSpace(raw))
	if phase != corev1.PodSucceeded {
		t.Fatalf("tool pod %s ended %s:\n%s", podName, phase, log)
	}
	return log
}

// Our controller-manager with --kube-api-content-type=application/vnd.kubernetes.protobuf (the
// e2e cluster runs it so): pods, events and nodes travel in Kubernetes' protobuf encoding, and
// what the API server stores is what the Job's template said.
package tests

import (
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	batchv1alpha1 "volcano.sh/apis/pkg/apis/batch/v1alpha1"

	"vc-cpp.local/e2e/tests/framework"
)

const (
	protobufSent      = `vc_cpp_kube_client_protobuf_objects_total{direction="sent"}`
	protobufReceived  = `vc_cpp_kube_client_protobuf_objects_total{direction="received"}`
	protobufFallbacks = `vc_cpp_kube_client_protobuf_fallbacks_total`
)

// TestControllersSpeakProtobuf: a Job whose pod template uses the members our protobuf encoder
// treats specially (quantities written as numbers and strings, named and numbered probe ports,
// inline volume sources and secret references, tolerations, an init container) gets pods the API
// server stores exactly as the template said; the pods went out in protobuf, none fell back to
// JSON, and the controller received its watch events in protobuf.
func TestControllersSpeakProtobuf(t *testing.T) {
	if framework.ControllersImpl() == "reference" {
		t.Skip("--kube-api-content-type is a vc-cpp flag; Volcano's controller-manager speaks JSON")
	}
	f := framework.New(t, "e2e-ctl-proto")
	c := framework.LoadLocalCluster(t)
	f.WaitQueueOpen("default")
	read := func(series string) float64 {
		v, err := controllerCounter(c, series)
		if err != nil {
			t.Fatalf("read %s: %v", series, err)
		}
		return v
	}
	sent0, received0, fallbacks0 := read(protobufSent), read(protobufReceived), read(protobufFallbacks)

	job := newJob(f, "proto", 2, runForever("w", 2))
	spec := &job.Spec.Tasks[0].Template.Spec
	optional := true
	grace := int64(7)
	main := &spec.Containers[0]
	main.Resources.Limits = corev1.ResourceList{
		corev1.ResourceCPU: resource.MustParse("500m"), corev1.ResourceMemory: resource.MustParse("1Gi")}
	main.Ports = []corev1.ContainerPort{{Name: "http", ContainerPort: 8080, Protocol: corev1.ProtocolTCP}}
	main.ReadinessProbe = &corev1.Probe{ProbeHandler: corev1.ProbeHandler{
		HTTPGet: &corev1.HTTPGetAction{Path: "/ready", Port: intstr.FromString("http")}}, PeriodSeconds: 3}
	main.LivenessProbe = &corev1.Probe{ProbeHandler: corev1.ProbeHandler{
		TCPSocket: &corev1.TCPSocketAction{Port: intstr.FromInt32(8080)}}}
	main.Env = []corev1.EnvVar{{Name: "A", Value: "1"}, {Name: "POD", ValueFrom: &corev1.EnvVarSource{
		FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}}}}
	main.EnvFrom = []corev1.EnvFromSource{{SecretRef: &corev1.SecretEnvSource{
		LocalObjectReference: corev1.LocalObjectReference{Name: "absent"}, Optional: &optional}}}
	main.VolumeMounts = []corev1.VolumeMount{{Name: "cfg", MountPath: "/cfg"}, {Name: "scratch", MountPath: "/tmp"}}
	spec.Volumes = []corev1.Volume{
		{Name: "cfg", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
			LocalObjectReference: corev1.LocalObjectReference{Name: "settings"}, Optional: &optional}}},
		{Name: "scratch", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{
			SizeLimit: resource.NewQuantity(64<<20, resource.BinarySI)}}},
	}
	spec.InitContainers = []corev1.Container{{Name: "init", Image: "busybox", Command: []string{"true"}}}
	spec.Tolerations = []corev1.Toleration{{Key: "dedicated", Operator: corev1.TolerationOpEqual,
		Value: "batch", Effect: corev1.TaintEffectNoSchedule}}
	spec.TerminationGracePeriodSeconds = &grace
	f.CreateJob(job)
	f.WaitJobPhase("proto", batchv1alpha1.Running, 2*time.Minute)

	pod, err := f.Kube.CoreV1().Pods(f.Namespace).Get(t.Context(), podName("proto", "w", 1), metav1.GetOptions{})
	if err != nil {
		t.Fatalf("get pod: %v", err)
	}
	ps := pod.Spec
	got := ps.Containers[0]
	checks := []struct {
		what      string
		got, want any
	}{
		{"cpu limit", got.Resources.Limits.Cpu().String(), "500m"},
		{"memory limit", got.Resources.Limits.Memory().String(), "1Gi"},
		{"port", fmt.Sprint(got.Ports), fmt.Sprint(main.Ports)},
		{"readiness port", got.ReadinessProbe.HTTPGet.Port.String(), "http"},
		{"readiness period", got.ReadinessProbe.PeriodSeconds, int32(3)},
		{"liveness port", got.LivenessProbe.TCPSocket.Port.IntValue(), 8080},
		{"env", fmt.Sprint(got.Env[0]), fmt.Sprint(main.Env[0])},
		{"env fieldRef", got.Env[1].ValueFrom.FieldRef.FieldPath, "metadata.name"},
		{"envFrom secret", got.EnvFrom[0].SecretRef.Name, "absent"},
		{"configMap volume", ps.Volumes[0].ConfigMap.Name, "settings"},
		{"emptyDir size", ps.Volumes[1].EmptyDir.SizeLimit.String(), "64Mi"},
		{"init container", ps.InitContainers[0].Name, "init"},
		{"toleration", fmt.Sprint(ps.Tolerations[0]), fmt.Sprint(spec.Tolerations[0])},
		{"grace", *ps.TerminationGracePeriodSeconds, int64(7)},
		{"scheduler", ps.SchedulerName, "volcano"},
	}
	for _, ch := range checks {
		if fmt.Sprint(ch.got) != fmt.Sprint(ch.want) {
			t.Errorf("pod %s: %s = %v, want %v", pod.Name, ch.what, ch.got, ch.want)
		}
	}

	// Two pods went out in protobuf, none as a fallback; their watch events came back so.
	f.WaitFor("the controller's protobuf counters", 30*time.Second, func() (bool, string, error) {
		sent, received, fallbacks := read(protobufSent), read(protobufReceived), read(protobufFallbacks)
		state := fmt.Sprintf("sent %v -> %v, received %v -> %v, fallbacks %v -> %v",
			sent0, sent, received0, received, fallbacks0, fallbacks)
		if fallbacks != fallbacks0 {
			t.Fatalf("objects fell back to JSON: %s", state)
		}
		return sent >= sent0+2 && received >= received0+2, state, nil
	})
}

// Memory per cached pod: a Ray/PyTorch worker pod (about 4 KB of JSON, managedFields included)
// cached as the default JSON form and as PodView. common/kube/cache/cache_bench.cpp measures the
// cache machinery with a Volcano-job pod and a minimal view; this one measures the view the
// controllers really install, on the pods of the motivating workload (KubeRay and PyTorch
// operators: long env lists, several volumes, GPU requests, operator labels and annotations).
//
// Counters: bytes_per_pod (heap growth from mallinfo2 while a store of kPods pods is filled, the
// list text freed) and json_text_bytes_per_pod (the pod as the API server sends it).

#include <benchmark/benchmark.h>
#include <malloc.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/json/fast_parse.h"
#include "common/json/release.h"
#include "common/kube/cache/object.h"
#include "common/kube/cache/store.h"
#include "controllers/views/pod_view.h"

namespace vc::controllers::views {
namespace {

using kube::cache::ObjectPtr;
using kube::cache::Store;
using kube::cache::TransformFn;
using nlohmann::json;

constexpr int kPods = 5000;

json env(const std::string& name, const std::string& value) {
  return {{"name", name}, {"value", value}};
}

json field_env(const std::string& name, const std::string& path) {
  return {{"name", name},
          {"valueFrom", {{"fieldRef", {{"apiVersion", "v1"}, {"fieldPath", path}}}}}};
}

// A worker of a RayCluster (or a PyTorchJob replica) as it looks once running.
json make_ray_worker(int i) {
  const std::string cluster = "raycluster-" + std::to_string(i / 16);
  const std::string ns = "ml-team-" + std::to_string(i % 25);
  const std::string name = cluster + "-worker-gpu-group-" + std::to_string(100000 + i);
  const std::string ts = "2024-06-11T08:15:42Z";
  const std::string pg = "ray-" + cluster + "-pg";
  json managed = {
      {{"manager", "kuberay-operator"},
       {"operation", "Update"},
       {"apiVersion", "v1"},
       {"time", ts},
       {"fieldsType", "FieldsV1"},
       {"fieldsV1",
        {{"f:metadata",
          {{"f:annotations", {{"f:ray.io/ft-enabled", json::object()}}},
           {"f:labels",
            {{"f:app.kubernetes.io/created-by", json::object()},
             {"f:ray.io/cluster", json::object()},
             {"f:ray.io/group", json::object()},
             {"f:ray.io/node-type", json::object()}}}}},
         {"f:spec",
          {{"f:containers", {{"k:{\"name\":\"ray-worker\"}", {{"f:env", json::object()}}}}},
           {"f:schedulerName", json::object()}}}}}},
      {{"manager", "kubelet"},
       {"operation", "Update"},
       {"apiVersion", "v1"},
       {"time", ts},
       {"fieldsType", "FieldsV1"},
       {"subresource", "status"},
       {"fieldsV1",
        {{"f:status",
          {{"f:conditions", json::object()},
           {"f:containerStatuses", json::object()},
           {"f:phase", json::object()},
           {"f:podIP", json::object()}}}}}}};
  json worker = {
      {"name", "ray-worker"},
      {"image", "rayproject/ray-ml:2.9.3-py310-gpu"},
      {"imagePullPolicy", "IfNotPresent"},
      {"command", {"/bin/bash", "-lc", "--"}},
      {"args",
       {"ulimit -n 65536; ray start --address=" + cluster + "-head-svc." + ns +
        ".svc.cluster.local:6379 --metrics-export-port=8080 --block "
        "--dashboard-agent-listen-port=52365 --num-gpus=1"}},
      {"env",
       {field_env("RAY_IP", "status.podIP"), env("RAY_CLUSTER_NAME", cluster),
        env("RAY_CLOUD_INSTANCE_ID", name), env("RAY_NODE_TYPE_NAME", "gpu-group"),
        env("KUBERAY_GEN_RAY_START_CMD", "ray start --block --num-gpus=1"), env("RAY_PORT", "6379"),
        env("RAY_timeout_ms", "1000"),
        env("RAY_ADDRESS", cluster + "-head-svc." + ns + ".svc.cluster.local:6379"),
        env("NCCL_DEBUG", "INFO"), env("MASTER_PORT", "23456"),
        env("PYTORCH_CUDA_ALLOC_CONF", "expandable_segments:True"),
        field_env("POD_NAME", "metadata.name")}},
      {"ports", {{{"containerPort", 8080}, {"name", "metrics"}, {"protocol", "TCP"}}}},
      {"resources",
       {{"requests", {{"cpu", "8"}, {"memory", "48Gi"}, {"nvidia.com/gpu", "1"}}},
        {"limits", {{"cpu", "8"}, {"memory", "48Gi"}, {"nvidia.com/gpu", "1"}}}}},
      {"lifecycle", {{"preStop", {{"exec", {{"command", {"/bin/sh", "-c", "ray stop"}}}}}}}},
      {"volumeMounts",
       {{{"name", "shared-mem"}, {"mountPath", "/dev/shm"}},
        {{"name", "checkpoints"}, {"mountPath", "/mnt/checkpoints"}},
        {{"name", "kube-api-access-9wq4z"},
         {"mountPath", "/var/run/secrets/kubernetes.io/serviceaccount"},
         {"readOnly", true}}}},
      {"terminationMessagePath", "/dev/termination-log"},
      {"terminationMessagePolicy", "File"}};
  json conditions = json::array();
  for (const char* type :
       {"PodReadyToStartContainers", "Initialized", "Ready", "ContainersReady", "PodScheduled"}) {
    conditions.push_back({{"type", type},
                          {"status", "True"},
                          {"lastProbeTime", nullptr},
                          {"lastTransitionTime", ts}});
  }
  return {
      {"metadata",
       {{"name", name},
        {"generateName", cluster + "-worker-gpu-group-"},
        {"namespace", ns},
        {"uid", "9b2f6c1d-4e3a-4f7b-8c9d-" + std::to_string(100000000000 + i)},
        {"resourceVersion", std::to_string(5000000 + i)},
        {"creationTimestamp", ts},
        {"labels",
         {{"app.kubernetes.io/created-by", "kuberay-operator"},
          {"app.kubernetes.io/name", "kuberay"},
          {"ray.io/cluster", cluster},
          {"ray.io/group", "gpu-group"},
          {"ray.io/identifier", cluster + "-worker"},
          {"ray.io/is-ray-node", "yes"},
          {"ray.io/node-type", "worker"}}},
        {"annotations",
         {{"ray.io/ft-enabled", "false"},
          {"scheduling.k8s.io/group-name", pg},
          {"scheduling.volcano.sh/queue-name", "ray-batch"},
          {"volcano.sh/preemptable", "false"}}},
        {"ownerReferences",
         {{{"apiVersion", "ray.io/v1"},
           {"kind", "RayCluster"},
           {"name", cluster},
           {"uid", "1c7e5a3b-2d4f-4a6b-9e8d-" + std::to_string(200000000000 + i / 16)},
           {"controller", true},
           {"blockOwnerDeletion", true}}}},
        {"managedFields", managed}}},
      {"spec",
       {{"containers", {worker}},
        {"volumes",
         {{{"name", "shared-mem"}, {"emptyDir", {{"medium", "Memory"}, {"sizeLimit", "16Gi"}}}},
          {{"name", "checkpoints"}, {"persistentVolumeClaim", {{"claimName", "ckpt-" + cluster}}}},
          {{"name", "kube-api-access-9wq4z"},
           {"projected",
            {{"defaultMode", 420},
             {"sources",
              {{{"serviceAccountToken", {{"expirationSeconds", 3607}, {"path", "token"}}}},
               {{"configMap",
                 {{"name", "kube-root-ca.crt"},
                  {"items", {{{"key", "ca.crt"}, {"path", "ca.crt"}}}}}}}}}}}}}},
        {"restartPolicy", "Always"},
        {"schedulerName", "volcano"},
        {"nodeName", "gpu-a100-node-" + std::to_string(i % 400)},
        {"serviceAccountName", "default"},
        {"terminationGracePeriodSeconds", 30},
        {"dnsPolicy", "ClusterFirst"},
        {"enableServiceLinks", true},
        {"priority", 0},
        {"preemptionPolicy", "PreemptLowerPriority"},
        {"tolerations",
         {{{"key", "nvidia.com/gpu"}, {"operator", "Exists"}, {"effect", "NoSchedule"}},
          {{"key", "node.kubernetes.io/not-ready"},
           {"operator", "Exists"},
           {"effect", "NoExecute"},
           {"tolerationSeconds", 300}}}}}},
      {"status",
       {{"phase", "Running"},
        {"conditions", conditions},
        {"hostIP", "10.20." + std::to_string(i % 250) + ".11"},
        {"podIP", "10.244." + std::to_string(i % 250) + "." + std::to_string(i % 200)},
        {"startTime", ts},
        {"qosClass", "Guaranteed"},
        {"containerStatuses",
         {{{"name", "ray-worker"},
           {"ready", true},
           {"restartCount", 0},
           {"started", true},
           {"image", "docker.io/rayproject/ray-ml:2.9.3-py310-gpu"},
           {"imageID",
            "docker.io/rayproject/"
            "ray-ml@sha256:0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0"},
           {"containerID",
            "containerd://5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b"},
           {"state", {{"running", {{"startedAt", ts}}}}}}}}}}};
}

const std::string& pod_list_text() {
  static const std::string text = [] {
    json list = {{"kind", "PodList"}, {"apiVersion", "v1"}, {"items", json::array()}};
    for (int i = 0; i < kPods; ++i) list["items"].push_back(make_ray_worker(i));
    return list.dump();
  }();
  return text;
}

size_t heap_in_use() {
  const struct mallinfo2 m = mallinfo2();
  return m.uordblks + m.hblkhd;
}

void fill(Store& store, const std::string& text, const TransformFn& transform) {
  std::vector<ObjectPtr> objects;
  {
    json list = json::parse(text);
    for (json& item : list["items"]) objects.push_back(transform(std::move(item)));
  }
  store.replace(std::move(objects));
}

void BM_CachedPodMemory(benchmark::State& state, TransformFn transform) {
  const std::string& text = pod_list_text();
  for (auto _ : state) {
    Store store;
    fill(store, text, transform);
    benchmark::DoNotOptimize(store.size());
  }
  state.SetItemsProcessed(state.iterations() * kPods);

  malloc_trim(0);
  const size_t before = heap_in_use();
  Store store;
  fill(store, text, transform);
  const size_t after = heap_in_use();
  state.counters["bytes_per_pod"] = static_cast<double>(after - before) / store.size();
  state.counters["json_text_bytes_per_pod"] = static_cast<double>(text.size()) / kPods;
}

BENCHMARK_CAPTURE(BM_CachedPodMemory, json_object, TransformFn(kube::cache::json_transform))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CachedPodMemory, pod_view, pod_view_transform().fn)
    ->Unit(benchmark::kMillisecond);

// One pod watch event as the pod informer handles it: parsed through the view's filter, turned
// into a PodView, and the document dropped by its destructor (0) or by fastjson::release (1), as
// the reflector does since the view was measured here.
void BM_PodEventToView(benchmark::State& state) {
  const std::string text = make_ray_worker(7).dump();
  const auto transform = pod_view_transform();
  const bool release = state.range(0) == 1;
  for (auto _ : state) {
    json pod = fastjson::parse(text, *transform.reads, "managedFields");
    benchmark::DoNotOptimize(transform.fn(std::move(pod)));
    if (release) fastjson::release(pod);
  }
  state.SetLabel(release ? "release" : "destructor");
}
BENCHMARK(BM_PodEventToView)->Arg(0)->Arg(1);

}  // namespace
}  // namespace vc::controllers::views

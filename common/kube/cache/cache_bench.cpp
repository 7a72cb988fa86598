// Decoding a 10,000-pod list into the cache, with the default JSON transform and with a compact
// typed view: throughput (bytes of list JSON per second) and the memory each cached pod costs
// (bytes_per_pod, from mallinfo2 before and after filling a store, the list text freed).

#include <benchmark/benchmark.h>
#include <malloc.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/kube/cache/object.h"
#include "common/kube/cache/store.h"

namespace vc::kube::cache {
namespace {

using nlohmann::json;

constexpr int kPods = 10000;

// A pod as a Volcano job's worker looks on a real cluster, including managedFields.
json make_pod(int i) {
  const std::string job = "job-" + std::to_string(i / 8);
  const std::string ns = "team-" + std::to_string(i % 40);
  const std::string name = job + "-worker-" + std::to_string(i % 8);
  const std::string ts = "2024-05-01T10:00:00Z";
  json fields_v1 = {
      {"f:metadata",
       {{"f:annotations",
         {{".", json::object()},
          {"f:scheduling.k8s.io/group-name", json::object()},
          {"f:volcano.sh/job-name", json::object()},
          {"f:volcano.sh/job-version", json::object()},
          {"f:volcano.sh/task-spec", json::object()}}},
        {"f:labels",
         {{".", json::object()},
          {"f:volcano.sh/job-name", json::object()},
          {"f:volcano.sh/job-namespace", json::object()},
          {"f:volcano.sh/queue-name", json::object()},
          {"f:volcano.sh/task-spec", json::object()}}},
        {"f:ownerReferences", {{".", json::object()}, {"k:{\"uid\":\"x\"}", json::object()}}}}},
      {"f:spec",
       {{"f:containers",
         {{"k:{\"name\":\"worker\"}",
           {{".", json::object()},
            {"f:command", json::object()},
            {"f:image", json::object()},
            {"f:imagePullPolicy", json::object()},
            {"f:name", json::object()},
            {"f:resources",
             {{".", json::object()},
              {"f:limits", json::object()},
              {"f:requests", json::object()}}}}}}},
        {"f:schedulerName", json::object()},
        {"f:restartPolicy", json::object()}}}};
  json status_fields = {
      {"f:status",
       {{"f:conditions", {{"k:{\"type\":\"Ready\"}", {{"f:status", json::object()}}}}},
        {"f:containerStatuses", json::object()},
        {"f:hostIP", json::object()},
        {"f:phase", json::object()},
        {"f:podIP", json::object()},
        {"f:startTime", json::object()}}}};
  json container = {
      {"name", "worker"},
      {"image", "registry.example.com/ml/trainer:v2.14.1"},
      {"imagePullPolicy", "IfNotPresent"},
      {"command", {"python", "-m", "trainer.main"}},
      {"env",
       {{{"name", "VC_TASK_INDEX"}, {"value", std::to_string(i % 8)}},
        {{"name", "VC_WORKER_NUM"}, {"value", "8"}},
        {{"name", "VK_TASK_INDEX"}, {"value", std::to_string(i % 8)}},
        {{"name", "MASTER_ADDR"}, {"value", job + "-master-0." + job}}}},
      {"ports", {{{"containerPort", 2222}, {"name", "job-port"}, {"protocol", "TCP"}}}},
      {"resources",
       {{"requests", {{"cpu", "4"}, {"memory", "16Gi"}, {"nvidia.com/gpu", "1"}}},
        {"limits", {{"cpu", "8"}, {"memory", "32Gi"}, {"nvidia.com/gpu", "1"}}}}},
      {"volumeMounts",
       {{{"name", "data"}, {"mountPath", "/data"}},
        {{"name", "kube-api-access-x7k2p"},
         {"mountPath", "/var/run/secrets/kubernetes.io/serviceaccount"},
         {"readOnly", true}}}},
      {"terminationMessagePath", "/dev/termination-log"},
      {"terminationMessagePolicy", "File"}};
  json conditions = json::array();
  for (const char* type : {"Initialized", "Ready", "ContainersReady", "PodScheduled"}) {
    conditions.push_back({{"type", type},
                          {"status", "True"},
                          {"lastProbeTime", nullptr},
                          {"lastTransitionTime", ts}});
  }
  return {{"metadata",
           {{"name", name},
            {"namespace", ns},
            {"uid", "3f9c2a1e-5b7d-4c8e-9a0f-" + std::to_string(100000000000 + i)},
            {"resourceVersion", std::to_string(1000000 + i)},
            {"creationTimestamp", ts},
            {"labels",
             {{"volcano.sh/job-name", job},
              {"volcano.sh/job-namespace", ns},
              {"volcano.sh/queue-name", "research"},
              {"volcano.sh/task-spec", "worker"},
              {"app", "trainer"}}},
            {"annotations",
             {{"scheduling.k8s.io/group-name", job + "-pg"},
              {"volcano.sh/job-name", job},
              {"volcano.sh/job-version", "0"},
              {"volcano.sh/task-spec", "worker"},
              {"volcano.sh/template-uid", job + "-worker"}}},
            {"ownerReferences",
             {{{"apiVersion", "batch.volcano.sh/v1alpha1"},
               {"kind", "Job"},
               {"name", job},
               {"uid", "7d1e4b2a-1111-4c8e-9a0f-" + std::to_string(200000000000 + i / 8)},
               {"controller", true},
               {"blockOwnerDeletion", true}}}},
            {"managedFields",
             {{{"manager", "vc-controller-manager"},
               {"operation", "Update"},
               {"apiVersion", "v1"},
               {"time", ts},
               {"fieldsType", "FieldsV1"},
               {"fieldsV1", fields_v1}},
              {{"manager", "kubelet"},
               {"operation", "Update"},
               {"apiVersion", "v1"},
               {"time", ts},
               {"fieldsType", "FieldsV1"},
               {"fieldsV1", status_fields},
               {"subresource", "status"}}}}}},
          {"spec",
           {{"containers", {container}},
            {"volumes",
             {{{"name", "data"}, {"persistentVolumeClaim", {{"claimName", "imagenet"}}}},
              {{"name", "kube-api-access-x7k2p"},
               {"projected",
                {{"defaultMode", 420},
                 {"sources",
                  {{{"serviceAccountToken", {{"expirationSeconds", 3607}, {"path", "token"}}}},
                   {{"configMap",
                     {{"name", "kube-root-ca.crt"},
                      {"items", {{{"key", "ca.crt"}, {"path", "ca.crt"}}}}}}}}}}}}}},
            {"restartPolicy", "OnFailure"},
            {"schedulerName", "volcano"},
            {"nodeName", "gpu-node-" + std::to_string(i % 500)},
            {"serviceAccountName", "default"},
            {"terminationGracePeriodSeconds", 30},
            {"dnsPolicy", "ClusterFirst"},
            {"priority", 0},
            {"tolerations",
             {{{"key", "node.kubernetes.io/not-ready"},
               {"operator", "Exists"},
               {"effect", "NoExecute"},
               {"tolerationSeconds", 300}},
              {{"key", "node.kubernetes.io/unreachable"},
               {"operator", "Exists"},
               {"effect", "NoExecute"},
               {"tolerationSeconds", 300}}}}}},
          {"status",
           {{"phase", "Running"},
            {"conditions", conditions},
            {"hostIP", "10.0." + std::to_string(i % 250) + ".7"},
            {"podIP", "10.244." + std::to_string(i % 250) + "." + std::to_string(i % 200)},
            {"startTime", ts},
            {"qosClass", "Burstable"},
            {"containerStatuses",
             {{{"name", "worker"},
               {"ready", true},
               {"restartCount", 0},
               {"started", true},
               {"image", "registry.example.com/ml/trainer:v2.14.1"},
               {"imageID",
                "registry.example.com/ml/"
                "trainer@sha256:4b1c9e0d2f3a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c"},
               {"containerID",
                "containerd://9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b7a6f5e4d3c2b1a0f9e8d"},
               {"state", {{"running", {{"startedAt", ts}}}}}}}}}}};
}

const std::string& pod_list_text() {
  static const std::string text = [] {
    json list = {{"kind", "PodList"},
                 {"apiVersion", "v1"},
                 {"metadata", {{"resourceVersion", "2000000"}}},
                 {"items", json::array()}};
    for (int i = 0; i < kPods; ++i) list["items"].push_back(make_pod(i));
    return list.dump();
  }();
  return text;
}

// The compact view a pod controller keeps: what it reads, nothing else.
struct PodView : Object {
  std::string phase;
  std::string node_name;
  std::string group_name;   // scheduling.k8s.io/group-name
  std::string task_spec;    // volcano.sh/task-spec
  std::string job_version;  // volcano.sh/job-version
  struct Requests {
    std::string cpu;
    std::string memory;
    std::string gpu;
  };
  std::vector<Requests> containers;
};

std::string string_at(const json& obj, const char* key) {
  auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : std::string();
}

ObjectPtr pod_view(json&& pod) {
  auto v = std::make_shared<PodView>();
  read_metadata(pod, *v);
  const json& meta = pod["metadata"];
  if (auto a = meta.find("annotations"); a != meta.end()) {
    v->group_name = string_at(*a, "scheduling.k8s.io/group-name");
    v->task_spec = string_at(*a, "volcano.sh/task-spec");
    v->job_version = string_at(*a, "volcano.sh/job-version");
  }
  v->phase = string_at(pod["status"], "phase");
  v->node_name = string_at(pod["spec"], "nodeName");
  for (const json& c : pod["spec"]["containers"]) {
    PodView::Requests r;
    if (auto res = c.find("resources"); res != c.end()) {
      if (auto req = res->find("requests"); req != res->end()) {
        r.cpu = string_at(*req, "cpu");
        r.memory = string_at(*req, "memory");
        r.gpu = string_at(*req, "nvidia.com/gpu");
      }
    }
    v->containers.push_back(std::move(r));
  }
  return v;
}

size_t heap_in_use() {
  const struct mallinfo2 m = mallinfo2();
  return m.uordblks + m.hblkhd;
}

// Parses the list, transforms every item and fills a store, as a reflector's list does.
void fill(Store& store, const std::string& text, const TransformFn& transform) {
  std::vector<ObjectPtr> objects;
  {
    json list = json::parse(text);
    json& items = list["items"];
    objects.reserve(items.size());
    for (json& item : items) objects.push_back(transform(std::move(item)));
  }
  store.replace(std::move(objects));
}

void BM_DecodePodListIntoStore(benchmark::State& state, TransformFn transform) {
  const std::string& text = pod_list_text();
  for (auto _ : state) {
    Store store;
    fill(store, text, transform);
    benchmark::DoNotOptimize(store.size());
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(text.size()));

  malloc_trim(0);
  const size_t before = heap_in_use();
  {
    Store store;
    fill(store, text, transform);
    const size_t after = heap_in_use();
    state.counters["bytes_per_pod"] =
        static_cast<double>(after - before) / static_cast<double>(store.size());
  }
  state.counters["json_bytes_per_pod"] = static_cast<double>(text.size()) / kPods;
}
BENCHMARK_CAPTURE(BM_DecodePodListIntoStore, json_transform, TransformFn(json_transform))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_DecodePodListIntoStore, compact_view, TransformFn(pod_view))
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace vc::kube::cache

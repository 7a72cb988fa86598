// nlohmann's parser against the fast path on a pod watch event as the API server sends it
// (managedFields included), with managedFields dropped as the informers ask, and with only the
// members a view reads built.
#include <string>

#include <benchmark/benchmark.h>
#include <nlohmann/json.hpp>

#include "common/json/fast_parse.h"

namespace {

using nlohmann::json;

std::string pod_event() {
  json managed = json::array();
  for (const char* manager : {"vc-controller-manager", "volcano-scheduler", "kwok"}) {
    managed.push_back({{"manager", manager},
                       {"operation", "Update"},
                       {"apiVersion", "v1"},
                       {"time", "2026-11-29T19:00:00Z"},
                       {"fieldsType", "FieldsV1"},
                       {"fieldsV1",
                        {{"f:metadata", {{"f:annotations", {{".", json::object()}}}}},
                         {"f:status",
                          {{"f:conditions", {{".", json::object()}}},
                           {"f:phase", json::object()},
                           {"f:podIP", json::object()}}}}}});
  }
  const json pod = {
      {"apiVersion", "v1"},
      {"kind", "Pod"},
      {"metadata",
       {{"name", "bench-0007-t1-0"},
        {"namespace", "vcbench"},
        {"uid", "3f0c3b2e-8a4e-4b55-9a4c-1d2f3e4a5b6c"},
        {"resourceVersion", "123456"},
        {"labels", {{"volcano.sh/job-name", "bench-0007"}, {"volcano.sh/task-spec", "t1"}}},
        {"annotations",
         {{"scheduling.k8s.io/group-name", "bench-0007-3f0c3b2e"},
          {"volcano.sh/job-version", "0"}}},
        {"ownerReferences",
         {{{"apiVersion", "batch.volcano.sh/v1alpha1"},
           {"kind", "Job"},
           {"name", "bench-0007"},
           {"uid", "9e8d7c6b-5a4f-3e2d-1c0b-a9f8e7d6c5b4"},
           {"controller", true},
           {"blockOwnerDeletion", true}}}},
        {"managedFields", managed}}},
      {"spec",
       {{"schedulerName", "volcano"},
        {"nodeName", "bench-node-3"},
        {"containers",
         {{{"name", "main"},
           {"image", "busybox"},
           {"resources", {{"requests", {{"cpu", "100m"}, {"memory", "64Mi"}}}}}}}}}},
      {"status",
       {{"phase", "Running"},
        {"podIP", "10.0.0.7"},
        {"conditions", {{{"type", "Ready"}, {"status", "True"}}}}}}};
  return json{{"type", "MODIFIED"}, {"object", pod}}.dump();
}

void BM_Nlohmann(benchmark::State& state) {
  const std::string text = pod_event();
  for (auto _ : state) benchmark::DoNotOptimize(json::parse(text));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_Nlohmann);

void BM_FastPath(benchmark::State& state) {
  const std::string text = pod_event();
  for (auto _ : state) benchmark::DoNotOptimize(vc::fastjson::parse(text));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_FastPath);

void BM_FastPathDroppingManagedFields(benchmark::State& state) {
  const std::string text = pod_event();
  for (auto _ : state) benchmark::DoNotOptimize(vc::fastjson::parse(text, "managedFields"));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_FastPathDroppingManagedFields);

// As a pod informer parses: only the members its view reads are built, the rest is skipped.
void BM_FastPathFiltered(benchmark::State& state) {
  const std::string text = pod_event();
  const auto filter = vc::fastjson::MemberFilter::only(
      {"type", "object.metadata.name", "object.metadata.namespace", "object.metadata.labels",
       "object.metadata.annotations", "object.metadata.ownerReferences", "object.spec.nodeName",
       "object.status.phase"});
  for (auto _ : state) {
    benchmark::DoNotOptimize(vc::fastjson::parse(text, filter, "managedFields"));
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_FastPathFiltered)->Iterations(2000);

}  // namespace

// Costs of one admission review: decoding, encoding, and a full round trip over one kept-alive
// TLS connection on loopback (the API server reuses its connections the same way).
#include <stdexcept>
#include <string>

#include <benchmark/benchmark.h>
#include <nlohmann/json.hpp>

#include "webhook/server/review_codec.h"
#include "webhook/server/server_test_util.h"

namespace vc::webhook::server {
namespace {

using nlohmann::json;

// A Volcano Job of three tasks, about the size the API server sends for a typical job.
std::string job_review() {
  json tasks = json::array();
  for (const char* name : {"head", "worker", "ps"}) {
    tasks.push_back({{"name", name},
                     {"replicas", 2},
                     {"template",
                      {{"metadata", {{"labels", {{"app", "ray"}, {"role", name}}}}},
                       {"spec",
                        {{"containers",
                          {{{"name", "main"},
                            {"image", "rayproject/ray:2.9.0"},
                            {"command", {"sh", "-c", "ray start --block"}},
                            {"resources",
                             {{"requests", {{"cpu", "2"}, {"memory", "4Gi"}}},
                              {"limits", {{"cpu", "2"}, {"memory", "4Gi"}}}}}}}},
                         {"restartPolicy", "OnFailure"}}}}}});
  }
  const json review = {
      {"apiVersion", "admission.k8s.io/v1"},
      {"kind", "AdmissionReview"},
      {"request",
       {{"uid", "705ab4f5-6393-11e8-b7cc-42010a800002"},
        {"kind", {{"group", "batch.volcano.sh"}, {"version", "v1alpha1"}, {"kind", "Job"}}},
        {"resource",
         {{"group", "batch.volcano.sh"}, {"version", "v1alpha1"}, {"resource", "jobs"}}},
        {"name", "ray-job"},
        {"namespace", "default"},
        {"operation", "CREATE"},
        {"userInfo", {{"username", "alice"}, {"groups", {"system:authenticated"}}}},
        {"object",
         {{"apiVersion", "batch.volcano.sh/v1alpha1"},
          {"kind", "Job"},
          {"metadata", {{"name", "ray-job"}, {"namespace", "default"}}},
          {"spec", {{"minAvailable", 6}, {"queue", "default"}, {"tasks", tasks}}}}}}}};
  return review.dump();
}

void BM_DecodeReview(benchmark::State& state) {
  const std::string body = job_review();
  for (auto _ : state) {
    auto decoded = decode_review(body);
    benchmark::DoNotOptimize(decoded);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * body.size()));
}
BENCHMARK(BM_DecodeReview);

void BM_EncodeMutation(benchmark::State& state) {
  const AdmissionResponse response = AdmissionResponse::mutate(
      json::array({{{"op", "add"}, {"path", "/spec/schedulerName"}, {"value", "volcano"}},
                   {{"op", "add"}, {"path", "/spec/maxRetry"}, {"value", 3}},
                   {{"op", "replace"}, {"path", "/spec/queue"}, {"value", "default"}}}));
  for (auto _ : state) {
    benchmark::DoNotOptimize(encode_review("705ab4f5-6393-11e8-b7cc-42010a800002", response));
  }
}
BENCHMARK(BM_EncodeMutation);

void BM_RoundTripKeepAlive(benchmark::State& state) {
  test::RunningServer server(
      {{"/jobs/validate", false, [](auto&, auto&, auto&) { return AdmissionResponse::allow(); }}});
  auto client = server.connect();
  const std::string body = job_review();
  for (auto _ : state) {
    auto reply = client->post("/jobs/validate?timeout=10s", body);
    if (!reply || reply->status != 200) {
      state.SkipWithError("request failed");
      break;
    }
  }
}
BENCHMARK(BM_RoundTripKeepAlive)->UseRealTime();

}  // namespace
}  // namespace vc::webhook::server

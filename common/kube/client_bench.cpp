// Throughput of the paths that dominate start-up and steady state: listing 10,000 pods (one big
// response decoded into JSON) and decoding watch events.

#include <benchmark/benchmark.h>

#include "common/kube/client.h"
#include "common/kube/watch_decoder.h"
#include "common/testing/fake_apiserver.h"

namespace vc::kube {
namespace {

using vc::testing::FakeApiServer;
using vc::testing::Request;
using vc::testing::Response;

// A pod about the size of a typical batch worker (~2 KB of JSON).
json make_pod(int i) {
  const std::string name = "job-" + std::to_string(i / 8) + "-worker-" + std::to_string(i % 8);
  return {
      {"apiVersion", "v1"},
      {"kind", "Pod"},
      {"metadata",
       {{"name", name},
        {"namespace", "team-" + std::to_string(i % 20)},
        {"uid", "4f1c2d3e-0000-4000-8000-" + std::to_string(100000000000 + i)},
        {"resourceVersion", std::to_string(1000 + i)},
        {"labels", {{"volcano.sh/job-name", "job-" + std::to_string(i / 8)}, {"app", "train"}}},
        {"annotations",
         {{"scheduling.k8s.io/group-name", "job-" + std::to_string(i / 8)},
          {"volcano.sh/task-spec", "worker"}}},
        {"ownerReferences",
         {{{"apiVersion", "batch.volcano.sh/v1alpha1"},
           {"kind", "Job"},
           {"name", "job-" + std::to_string(i / 8)},
           {"uid", "aaaa-bbbb"},
           {"controller", true}}}}}},
      {"spec",
       {{"schedulerName", "volcano"},
        {"nodeName", "node-" + std::to_string(i % 500)},
        {"containers",
         {{{"name", "worker"},
           {"image", "registry.example/train:v1.2.3"},
           {"command", {"python", "train.py", "--epochs=10"}},
           {"env", {{{"name", "RANK"}, {"value", std::to_string(i % 8)}}}},
           {"resources",
            {{"requests", {{"cpu", "4"}, {"memory", "16Gi"}, {"nvidia.com/gpu", "1"}}},
             {"limits", {{"cpu", "4"}, {"memory", "16Gi"}, {"nvidia.com/gpu", "1"}}}}}}}}}},
      {"status",
       {{"phase", "Running"},
        {"podIP", "10.1." + std::to_string(i / 250) + "." + std::to_string(i % 250)},
        {"conditions",
         {{{"type", "Ready"}, {"status", "True"}, {"lastTransitionTime", "2024-01-01T00:00:00Z"}},
          {{"type", "PodScheduled"},
           {"status", "True"},
           {"lastTransitionTime", "2024-01-01T00:00:00Z"}}}}}}};
}

void BM_List10kPods(benchmark::State& state) {
  json list = {{"kind", "PodList"}, {"apiVersion", "v1"}, {"metadata", {{"resourceVersion", "1"}}}};
  json& items = list["items"] = json::array();
  for (int i = 0; i < 10000; ++i) items.push_back(make_pod(i));
  const std::string body = list.dump();
  FakeApiServer server;
  server.handle("GET", "/api/v1/pods", [&body](const Request&) {
    Response r;
    r.body = body;
    return r;
  });
  ClientOptions o;
  o.qps = 0;
  Client client(server.config(), o);
  for (auto _ : state) {
    auto r = client.list(resources::pods, "");
    if (!r.ok() || (*r)["items"].size() != 10000) state.SkipWithError("list failed");
    benchmark::DoNotOptimize(r);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(body.size()));
  state.counters["body_MB"] = static_cast<double>(body.size()) / 1e6;
}
BENCHMARK(BM_List10kPods)->Unit(benchmark::kMillisecond);

// The same list handed over item by item: what an informer does with a big list.
void BM_ListEach10kPods(benchmark::State& state) {
  json list = {{"kind", "PodList"}, {"apiVersion", "v1"}, {"metadata", {{"resourceVersion", "1"}}}};
  json& items = list["items"] = json::array();
  for (int i = 0; i < 10000; ++i) items.push_back(make_pod(i));
  const std::string body = list.dump();
  FakeApiServer server;
  server.handle("GET", "/api/v1/pods", [&body](const Request&) {
    Response r;
    r.body = body;
    return r;
  });
  ClientOptions o;
  o.qps = 0;
  Client client(server.config(), o);
  for (auto _ : state) {
    std::size_t n = 0;
    auto r = client.list_each(resources::pods, "", {}, [&](json&& item) {
      benchmark::DoNotOptimize(item);
      ++n;
    });
    if (!r.ok() || n != 10000) state.SkipWithError("list failed");
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(body.size()));
}
BENCHMARK(BM_ListEach10kPods)->Unit(benchmark::kMillisecond);

void BM_DecodeWatchEvents(benchmark::State& state) {
  std::string stream;
  for (int i = 0; i < 1000; ++i) {
    stream += json{{"type", "MODIFIED"}, {"object", make_pod(i)}}.dump() + "\n";
  }
  const std::size_t chunk = static_cast<std::size_t>(state.range(0));
  for (auto _ : state) {
    WatchDecoder decoder;
    int events = 0;
    for (std::size_t pos = 0; pos < stream.size(); pos += chunk) {
      auto st = decoder.feed(std::string_view(stream).substr(pos, chunk),
                             [&](WatchEvent&&) { ++events; });
      if (!st.ok()) state.SkipWithError("decode failed");
    }
    if (events != 1000) state.SkipWithError("lost events");
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * 1000);
}
BENCHMARK(BM_DecodeWatchEvents)->Arg(512)->Arg(65536)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace vc::kube

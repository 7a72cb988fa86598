// CPU cost of one admission review without the transport: the bench-webhook bodies
// (bench/webhook/reviews) through the router and the real endpoints, decode to encoded answer.
// What `make bench-webhook` measures per review minus TLS, HTTP and the socket, so a change to
// the codec or an admit rule shows here in seconds instead of in a cluster run.
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include <benchmark/benchmark.h>
#include <nlohmann/json.hpp>

#include "webhook/admission/cluster_view.h"
#include "webhook/admission/options.h"
#include "webhook/app/endpoints.h"
#include "webhook/server/router.h"

namespace vc::webhook::app {
namespace {

std::string read_review(const std::string& name) {
  const std::string path = std::string(VC_SOURCE_DIR) + "/bench/webhook/reviews/" + name;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  // The API server sends compact JSON; the files are indented for reading.
  return nlohmann::json::parse(ss.str()).dump();
}

const server::Router& router() {
  static const server::Router r = [] {
    auto view = std::make_shared<StaticClusterView>();
    view->add_queue(nlohmann::json::parse(
        R"({"metadata":{"name":"default"},"spec":{"weight":1},"status":{"state":"Open"}})"));
    return server::Router(all_endpoints(), view, std::make_shared<const AdmissionOptions>());
  }();
  return r;
}

void serve(benchmark::State& state, const char* file, const char* path) {
  const std::string body = read_review(file);
  const server::HttpRequest request{"POST", path, "application/json", body};
  for (auto _ : state) {
    auto response = router().serve(request);
    if (response.status != 200) {
      state.SkipWithError(("status " + std::to_string(response.status)).c_str());
      break;
    }
    benchmark::DoNotOptimize(response);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * body.size()));
}

void BM_JobCreateMutate(benchmark::State& s) {
  serve(s, "job-create-mutate.json", "/jobs/mutate");
}
void BM_JobCreateValidate(benchmark::State& s) {
  serve(s, "job-create-validate.json", "/jobs/validate");
}
void BM_QueueCreateValidate(benchmark::State& s) {
  serve(s, "queue-create-validate.json", "/queues/validate");
}
BENCHMARK(BM_JobCreateMutate);
BENCHMARK(BM_JobCreateValidate);
BENCHMARK(BM_QueueCreateValidate);
// A fixed count, for instruction counts that do not depend on timing:
//   valgrind --tool=callgrind vc_webhook_app_bench --benchmark_filter=iterations
BENCHMARK(BM_JobCreateMutate)->Iterations(300);
BENCHMARK(BM_JobCreateValidate)->Iterations(300);
BENCHMARK(BM_QueueCreateValidate)->Iterations(300);

}  // namespace
}  // namespace vc::webhook::app

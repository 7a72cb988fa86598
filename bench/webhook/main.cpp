// vc-webhook-load: closed-loop HTTPS load of AdmissionReviews against one webhook server.
//
//   vc-webhook-load --url https://127.0.0.1:28643 --cacert ca.crt
//     --body reviews/job-create-mutate.json:/jobs/mutate:allowed
//     --body reviews/queue-create-validate.json:/queues/validate
//     --concurrency 8 --duration 10 --warmup 2 [--busy-poll-us 1000]
//     [--server-pid PID --server-core 1]
//
// Prints one JSON line (report.h) on stdout and the first few errors on stderr. Exit status:
// 0 all answers were right, 1 some were not (the JSON line is still printed), 2 bad usage or setup.
#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "bench/webhook/load_generator.h"
#include "bench/webhook/report.h"
#include "bench/webhook/review_template.h"
#include "bench/webhook/server_probe.h"
#include "bench/webhook/target_url.h"

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument("cannot read '" + path + "'");
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::chrono::nanoseconds seconds(double s) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::duration<double>(s));
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Closed-loop HTTPS AdmissionReview load generator (vc-cpp bench-webhook)"};
  std::string url;
  std::string ca_file;
  std::vector<std::string> bodies;
  int concurrency = 1;
  int threads = 1;
  double duration_s = 10;
  double warmup_s = 2;
  double timeout_s = 10;
  std::size_t error_samples = 5;
  unsigned busy_poll_us = 0;
  std::optional<int> server_pid;
  std::optional<int> server_core;
  app.add_option("--url", url, "https://HOST:PORT of the webhook server")->required();
  app.add_option("--cacert", ca_file, "CA bundle (PEM) that signed the server certificate")
      ->required()
      ->check(CLI::ExistingFile);
  app.add_option("--body", bodies,
                 "FILE:PATH[:allowed|denied], repeatable; requests rotate over the bodies")
      ->required();
  app.add_option("--concurrency", concurrency, "kept-alive connections, one request in flight each")
      ->check(CLI::Range(1, 100000));
  app.add_option("--threads", threads, "client threads (one io_context each)")
      ->check(CLI::Range(1, 1024));
  app.add_option("--duration", duration_s, "seconds measured")->check(CLI::PositiveNumber);
  app.add_option("--warmup", warmup_s, "seconds of load before the measurement")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--timeout", timeout_s, "seconds a request may take before it is an error")
      ->check(CLI::PositiveNumber);
  app.add_option("--busy-poll-us", busy_poll_us,
                 "microseconds a client thread keeps polling for answers before it sleeps "
                 "(0: sleep at once); for a client on a core of its own")
      ->check(CLI::Range(0u, 10'000'000u));
  app.add_option("--error-samples", error_samples, "how many error texts to keep and print");
  app.add_option("--server-pid", server_pid,
                 "PID of the server: report its CPU seconds and peak RSS over the window");
  app.add_option("--server-core", server_core,
                 "core the server is pinned to: report that core's busy time over the window");
  CLI11_PARSE(app, argc, argv);

  vc::bench::LoadOptions options;
  try {
    const auto target = vc::bench::parse_target_url(url);
    options.host = target.host;
    options.port = target.port;
    options.ca_file = ca_file;
    for (const auto& spec : bodies) {
      const auto body = vc::bench::parse_body_spec(spec);
      vc::bench::ReviewTemplate review;
      try {
        review = vc::bench::ReviewTemplate::parse(read_file(body.file));
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(body.file + ": " + e.what());
      }
      options.targets.push_back({body.path, std::filesystem::path(body.file).filename().string(),
                                 std::move(review), body.expect_allowed});
    }
  } catch (const std::exception& e) {
    std::cerr << "vc-webhook-load: " << e.what() << "\n";
    return 2;
  }
  options.concurrency = concurrency;
  options.threads = threads;
  options.duration = seconds(duration_s);
  options.warmup = seconds(warmup_s);
  options.request_timeout =
      std::chrono::duration_cast<std::chrono::milliseconds>(seconds(timeout_s));
  options.max_error_samples = error_samples;
  options.busy_poll = std::chrono::microseconds(busy_poll_us);

  std::optional<vc::bench::ServerProbe> probe;
  if (server_pid || server_core) {
    probe.emplace(server_pid ? std::optional<pid_t>(*server_pid) : std::nullopt, server_core);
    options.on_window_start = [&] { probe->window_start(); };
    options.on_window_end = [&] { probe->window_end(); };
  }

  vc::bench::LoadResult result;
  try {
    result = vc::bench::run_load(options);
  } catch (const std::exception& e) {
    std::cerr << "vc-webhook-load: " << e.what() << "\n";
    return 2;
  }

  std::optional<vc::bench::ProbeInfo> probe_info;
  if (probe) {
    probe_info = vc::bench::ProbeInfo{server_pid ? std::optional<pid_t>(*server_pid) : std::nullopt,
                                      server_core, probe->readings()};
  }
  std::cout << vc::bench::result_json(options, result, probe_info).dump() << std::endl;

  const std::uint64_t errors = result.errors + result.warmup_errors;
  if (errors > 0) {
    std::cerr << "vc-webhook-load: " << errors << " error(s) (" << result.warmup_errors
              << " during warm-up); first " << result.error_samples.size() << ":\n";
    for (const auto& e : result.error_samples) std::cerr << "  " << e << "\n";
    return 1;
  }
  return 0;
}

#include "bench/webhook/report.h"

#include <cmath>

namespace vc::bench {
namespace {

// Microseconds with one decimal: enough for loopback latencies, short enough to read.
double us(std::chrono::nanoseconds ns) {
  return std::round(static_cast<double>(ns.count()) / 100.0) / 10.0;
}

double round3(double v) {
  return std::round(v * 1000.0) / 1000.0;
}

template <typename T>
nlohmann::ordered_json or_null(const std::optional<T>& v) {
  return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
}

}  // namespace

nlohmann::ordered_json result_json(const LoadOptions& options, const LoadResult& result,
                                   const std::optional<ProbeInfo>& probe) {
  const double seconds = std::chrono::duration<double>(result.window).count();
  nlohmann::ordered_json j = {
      {"requests", result.requests},
      {"errors", result.errors},
      {"reviews_per_s",
       seconds > 0 ? std::round(static_cast<double>(result.requests) / seconds * 10) / 10 : 0.0},
      {"p50_us", us(result.latency.percentile(0.50))},
      {"p90_us", us(result.latency.percentile(0.90))},
      {"p99_us", us(result.latency.percentile(0.99))},
      {"max_us", us(result.latency.max())},
      {"mean_us", us(result.latency.mean())},
      {"duration_s", round3(seconds)},
      {"concurrency", options.concurrency},
      {"threads", std::min(options.threads, options.concurrency)},
      {"client_busy_poll_us", options.busy_poll.count()},
      {"warmup_requests", result.warmup_requests},
      {"warmup_errors", result.warmup_errors},
      {"connections_opened", result.connections_opened},
      {"client_cpu_s", round3(result.client_cpu_seconds)},
  };
  nlohmann::ordered_json per_path = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < options.targets.size() && i < result.per_target.size(); ++i) {
    const auto& t = options.targets[i];
    const auto& s = result.per_target[i];
    per_path.push_back({{"path", t.path},
                        {"file", t.name},
                        {"review", t.review.describe()},
                        {"expect", t.expect_allowed ? "allowed" : "denied"},
                        {"requests", s.requests},
                        {"errors", s.errors},
                        {"p50_us", us(s.latency.percentile(0.50))},
                        {"p99_us", us(s.latency.percentile(0.99))}});
  }
  j["per_path"] = std::move(per_path);
  if (probe) {
    const ServerReadings& r = probe->readings;
    nlohmann::ordered_json server = {
        {"pid", or_null(probe->pid)},
        {"cpu_s",
         r.cpu_seconds ? nlohmann::ordered_json(round3(*r.cpu_seconds)) : nlohmann::ordered_json()},
        {"run_queue_wait_s", r.run_queue_wait_seconds
                                 ? nlohmann::ordered_json(round3(*r.run_queue_wait_seconds))
                                 : nlohmann::ordered_json()},
        {"peak_rss_kib", or_null(r.peak_rss_kib)},
        {"rss_kib", or_null(r.rss_kib)},
        {"peak_rss_reset", r.peak_rss_reset},
        {"core", or_null(probe->core)},
        {"core_busy_s", r.core_busy_seconds ? nlohmann::ordered_json(round3(*r.core_busy_seconds))
                                            : nlohmann::ordered_json()},
        {"core_elapsed_s", r.core_elapsed_seconds
                               ? nlohmann::ordered_json(round3(*r.core_elapsed_seconds))
                               : nlohmann::ordered_json()},
    };
    if (!r.problem.empty()) server["problem"] = r.problem;
    j["server"] = std::move(server);
  }
  j["error_samples"] = result.error_samples;
  return j;
}

}  // namespace vc::bench

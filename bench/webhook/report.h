#pragma once
// The one JSON line vc-webhook-load prints. Latencies are in microseconds, rates per second.
//
//   {"requests":..,"errors":..,"reviews_per_s":..,"p50_us":..,"p90_us":..,"p99_us":..,
//    "max_us":..,"mean_us":..,"duration_s":..,"concurrency":..,"threads":..,
//    "warmup_requests":..,"warmup_errors":..,"connections_opened":..,"client_cpu_s":..,
//    "per_path":[{"path":..,"file":..,"review":..,"expect":..,"requests":..,"errors":..,
//                 "p50_us":..,"p99_us":..}],
//    "server":{"pid":..,"cpu_s":..,"run_queue_wait_s":..,"peak_rss_kib":..,"rss_kib":..,"peak_rss_reset":..,
//              "core":..,"core_busy_s":..,"core_elapsed_s":..,"problem":..},   (with --server-pid)
//    "error_samples":[..]}
//
// Thread-safety: pure.

#include <sys/types.h>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "bench/webhook/load_generator.h"
#include "bench/webhook/server_probe.h"

namespace vc::bench {

struct ProbeInfo {
  std::optional<pid_t> pid;
  std::optional<int> core;
  ServerReadings readings;
};

nlohmann::ordered_json result_json(const LoadOptions& options, const LoadResult& result,
                                   const std::optional<ProbeInfo>& probe);

}  // namespace vc::bench

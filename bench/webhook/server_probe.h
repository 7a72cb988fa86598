#pragma once
// ServerProbe: what the server under test spent during the measured window, read from /proc at
// the window's edges (load_generator.h calls window_start() and window_end()): CPU seconds, peak
// RSS (reset at the start of the window when the kernel lets us), how long its threads were
// runnable but waiting for a CPU (scheduler run-queue wait: other processes, or its own threads
// competing for one core), and the busy time of the core the server is pinned to, which shows
// how much of that core other processes took.
//
// Thread-safety: one thread at a time (run_load() calls the hooks on its calling thread).

#include <sys/types.h>
#include <cstdint>
#include <optional>
#include <string>

namespace vc::bench {

struct ServerReadings {
  std::optional<double> cpu_seconds;             // utime + stime delta over the window
  std::optional<std::uint64_t> peak_rss_kib;     // VmHWM at the end of the window
  std::optional<std::uint64_t> rss_kib;          // VmRSS at the end of the window
  bool peak_rss_reset = false;                   // false: VmHWM covers the whole process life
  std::optional<double> run_queue_wait_seconds;  // runnable but not running, all threads
  std::optional<double> core_busy_seconds;       // the pinned core, everyone's busy time
  std::optional<double> core_elapsed_seconds;    // the pinned core, busy + idle
  std::string problem;                           // why a reading is missing, if one is
};

class ServerProbe {
 public:
  // Either may be absent; then those readings stay empty.
  ServerProbe(std::optional<pid_t> pid, std::optional<int> core);

  void window_start();
  void window_end();
  const ServerReadings& readings() const { return readings_; }

 private:
  void note(const std::string& problem);

  const std::optional<pid_t> pid_;
  const std::optional<int> core_;
  std::optional<std::uint64_t> cpu_ticks_start_;
  std::optional<std::uint64_t> wait_ns_start_;
  std::optional<std::uint64_t> core_busy_start_;
  std::optional<std::uint64_t> core_total_start_;
  ServerReadings readings_;
};

}  // namespace vc::bench

#include "bench/webhook/server_probe.h"

#include "bench/webhook/proc_stats.h"

namespace vc::bench {

ServerProbe::ServerProbe(std::optional<pid_t> pid, std::optional<int> core)
    : pid_(pid), core_(core) {}

void ServerProbe::note(const std::string& problem) {
  if (!readings_.problem.empty()) readings_.problem += "; ";
  readings_.problem += problem;
}

void ServerProbe::window_start() {
  if (pid_) {
    cpu_ticks_start_ = read_process_cpu_ticks(*pid_);
    if (!cpu_ticks_start_) note("cannot read /proc/" + std::to_string(*pid_) + "/stat");
    wait_ns_start_ = read_process_wait_ns(*pid_);
    if (auto err = reset_peak_rss(*pid_)) {
      note("peak RSS not reset (" + *err + "), VmHWM covers the process life");
    } else {
      readings_.peak_rss_reset = true;
    }
  }
  if (core_) {
    if (auto t = read_core_ticks(*core_)) {
      core_busy_start_ = t->busy;
      core_total_start_ = t->total;
    } else {
      note("no cpu" + std::to_string(*core_) + " line in /proc/stat");
    }
  }
}

void ServerProbe::window_end() {
  const double tick = seconds_per_tick();
  if (pid_) {
    const auto ticks = read_process_cpu_ticks(*pid_);
    if (ticks && cpu_ticks_start_) {
      readings_.cpu_seconds = static_cast<double>(*ticks - *cpu_ticks_start_) * tick;
    } else if (!ticks) {
      note("server process " + std::to_string(*pid_) + " gone at the end of the window");
    }
    const auto wait_ns = read_process_wait_ns(*pid_);
    if (wait_ns && wait_ns_start_ && *wait_ns >= *wait_ns_start_) {
      readings_.run_queue_wait_seconds = static_cast<double>(*wait_ns - *wait_ns_start_) / 1e9;
    }
    readings_.peak_rss_kib = read_process_status_kib(*pid_, "VmHWM");
    readings_.rss_kib = read_process_status_kib(*pid_, "VmRSS");
  }
  if (core_ && core_busy_start_) {
    if (auto t = read_core_ticks(*core_)) {
      readings_.core_busy_seconds = static_cast<double>(t->busy - *core_busy_start_) * tick;
      readings_.core_elapsed_seconds = static_cast<double>(t->total - *core_total_start_) * tick;
    }
  }
}

}  // namespace vc::bench

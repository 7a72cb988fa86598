#pragma once
// Linux /proc readings taken at the edges of the measured window: the server's CPU time and peak
// resident memory, and how busy the server's core was (to see how much of it other processes
// took). The parse_* functions are pure; the read_* functions read /proc.
//
// Thread-safety: every function may be called from any thread.

#include <sys/types.h>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace vc::bench {

// utime + stime in clock ticks from the text of /proc/PID/stat. The command name (field 2) may
// contain spaces and parentheses, so fields are counted after its last ')'.
std::optional<std::uint64_t> parse_stat_cpu_ticks(std::string_view stat);

// The value in KiB of a "Key:   1234 kB" line of /proc/PID/status (VmHWM, VmRSS).
std::optional<std::uint64_t> parse_status_kib(std::string_view status, std::string_view key);

struct CoreTicks {
  std::uint64_t busy = 0;   // user + nice + system + irq + softirq + steal
  std::uint64_t total = 0;  // busy + idle + iowait
};
// The "cpuN" line of /proc/stat.
std::optional<CoreTicks> parse_core_ticks(std::string_view proc_stat, int core);

// The run-queue wait in nanoseconds (the second field) of a /proc/PID/task/TID/schedstat text:
// how long the thread was runnable but another one had the CPU.
std::optional<std::uint64_t> parse_schedstat_wait_ns(std::string_view schedstat);

// Seconds per clock tick (sysconf(_SC_CLK_TCK)).
double seconds_per_tick();

std::optional<std::uint64_t> read_process_cpu_ticks(pid_t pid);
std::optional<std::uint64_t> read_process_status_kib(pid_t pid, std::string_view key);
std::optional<CoreTicks> read_core_ticks(int core);
// The run-queue wait summed over the process's threads (threads that exited are not counted).
std::optional<std::uint64_t> read_process_wait_ns(pid_t pid);
// Resets the process's peak RSS (VmHWM) to its current RSS by writing "5" to
// /proc/PID/clear_refs. Returns an error text when the kernel refused (not our process, old
// kernel); VmHWM then covers the whole life of the process.
std::optional<std::string> reset_peak_rss(pid_t pid);

}  // namespace vc::bench

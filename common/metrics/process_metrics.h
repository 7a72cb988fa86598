#pragma once
// The process_* series that Go's Prometheus client exports for every Go binary (Volcano's
// included), with the same names, types and units, read from /proc at each scrape:
//
//   process_cpu_seconds_total             counter  user + system CPU time of the process
//   process_resident_memory_bytes         gauge    resident set size
//   process_virtual_memory_bytes          gauge    size of the address space
//   process_virtual_memory_max_bytes      gauge    RLIMIT_AS soft limit (unlimited: 2^64-1)
//   process_start_time_seconds            gauge    since the Unix epoch
//   process_open_fds                      gauge    entries of /proc/self/fd
//   process_max_fds                       gauge    RLIMIT_NOFILE soft limit
//   process_network_receive_bytes_total   counter  IpExt InOctets of the process's network
//   process_network_transmit_bytes_total  counter  namespace (what Go reports under these names)
//
// A series whose source cannot be read is left out of that scrape (and logged once), as Go's
// collector leaves it out.
//
// Thread-safety: Collect() and the parse functions may be called from any thread.

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include <prometheus/collectable.h>
#include <prometheus/metric_family.h>

namespace vc::metrics {

// The fields of /proc/<pid>/stat we read, in the file's units.
struct ProcStat {
  std::uint64_t utime_ticks = 0;
  std::uint64_t stime_ticks = 0;
  std::uint64_t start_ticks = 0;  // after boot
  std::uint64_t vsize_bytes = 0;
  std::uint64_t rss_pages = 0;
};

// Parses one /proc/<pid>/stat line; the command name may hold spaces and parentheses.
std::optional<ProcStat> parse_proc_stat(std::string_view text);
// The "btime" line of /proc/stat: boot time in seconds since the epoch.
std::optional<std::uint64_t> parse_boot_time(std::string_view proc_stat);

struct NetworkBytes {
  double received = 0;
  double transmitted = 0;
};
// InOctets and OutOctets of the "IpExt:" header and value lines of /proc/<pid>/net/netstat.
std::optional<NetworkBytes> parse_netstat(std::string_view text);

class ProcessCollector : public prometheus::Collectable {
 public:
  std::vector<prometheus::MetricFamily> Collect() const override;
};

}  // namespace vc::metrics

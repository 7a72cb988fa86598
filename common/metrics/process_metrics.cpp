#include "common/metrics/process_metrics.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <charconv>
#include <string>

#include "common/log/log.h"

namespace vc::metrics {
namespace {

using prometheus::MetricFamily;
using prometheus::MetricType;

// Splits on runs of spaces and tabs.
std::vector<std::string_view> fields(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < text.size() && text[i] != ' ' && text[i] != '\t' && text[i] != '\n') ++i;
    if (i > start) out.push_back(text.substr(start, i - start));
    if (i < text.size() && text[i] == '\n') break;
  }
  return out;
}

std::optional<std::uint64_t> to_u64(std::string_view s) {
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

// The lines of text, without their '\n'.
std::vector<std::string_view> lines(std::string_view text) {
  std::vector<std::string_view> out;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    out.push_back(text.substr(0, nl));
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return out;
}

// /proc files report size 0, so read until EOF.
std::optional<std::string> read_proc_file(const char* path) {
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::string out;
  char buf[4096];
  ssize_t n;
  while ((n = ::read(fd, buf, sizeof buf)) > 0) out.append(buf, static_cast<std::size_t>(n));
  ::close(fd);
  if (n < 0) return std::nullopt;
  return out;
}

// Counts the entries of /proc/self/fd; like Go's collector, the count includes the descriptor
// that reads the directory.
std::optional<double> open_fds() {
  DIR* dir = ::opendir("/proc/self/fd");
  if (dir == nullptr) return std::nullopt;
  double count = 0;
  while (const dirent* entry = ::readdir(dir)) {
    const std::string_view name = entry->d_name;
    if (name != "." && name != "..") ++count;
  }
  ::closedir(dir);
  return count;
}

// The soft limit; RLIM_INFINITY (2^64-1) prints as 1.8446744073709552e+19, as Go's does.
std::optional<double> soft_limit(int resource) {
  rlimit limit{};
  if (::getrlimit(resource, &limit) != 0) return std::nullopt;
  return static_cast<double>(limit.rlim_cur);
}

// Boot time does not change while we run: read /proc/stat once.
std::optional<std::uint64_t> boot_time() {
  static const std::optional<std::uint64_t> bt = [] {
    auto text = read_proc_file("/proc/stat");
    return text ? parse_boot_time(*text) : std::nullopt;
  }();
  return bt;
}

// Logs the first failure of each source, so that a missing /proc is reported without flooding
// the log at every scrape.
void report_unreadable(std::atomic<bool>& reported, const char* source) {
  if (!reported.exchange(true)) {
    VC_LOG_WARN("process metrics: cannot read a source; its series are left out",
                kv("source", source));
  }
}

void add(std::vector<MetricFamily>& out, const char* name, const char* help, MetricType type,
         double value) {
  MetricFamily family;
  family.name = name;
  family.help = help;
  family.type = type;
  family.metric.resize(1);
  if (type == MetricType::Counter) {
    family.metric[0].counter.value = value;
  } else {
    family.metric[0].gauge.value = value;
  }
  out.push_back(std::move(family));
}

}  // namespace

std::optional<ProcStat> parse_proc_stat(std::string_view text) {
  // "pid (comm) state ppid ...": comm may contain ") ", so the fields start after the last ')'.
  const std::size_t close = text.rfind(')');
  if (close == std::string_view::npos) return std::nullopt;
  const auto f = fields(text.substr(close + 1));
  // f[0] is field 3 (state): utime is field 14, stime 15, starttime 22, vsize 23, rss 24.
  if (f.size() < 22) return std::nullopt;
  const auto utime = to_u64(f[11]);
  const auto stime = to_u64(f[12]);
  const auto start = to_u64(f[19]);
  const auto vsize = to_u64(f[20]);
  const auto rss = to_u64(f[21]);
  if (!utime || !stime || !start || !vsize || !rss) return std::nullopt;
  return ProcStat{*utime, *stime, *start, *vsize, *rss};
}

std::optional<std::uint64_t> parse_boot_time(std::string_view proc_stat) {
  for (const std::string_view line : lines(proc_stat)) {
    const auto f = fields(line);
    if (f.size() == 2 && f[0] == "btime") return to_u64(f[1]);
  }
  return std::nullopt;
}

std::optional<NetworkBytes> parse_netstat(std::string_view text) {
  const auto all = lines(text);
  // Each group is a header line of names and a value line, both starting with "IpExt:".
  for (std::size_t i = 0; i + 1 < all.size(); ++i) {
    const auto names = fields(all[i]);
    const auto values = fields(all[i + 1]);
    if (names.empty() || names[0] != "IpExt:" || values.size() != names.size()) continue;
    std::optional<double> in, out;
    for (std::size_t k = 1; k < names.size(); ++k) {
      const auto v = to_u64(values[k]);
      if (!v) break;
      if (names[k] == "InOctets") in = static_cast<double>(*v);
      if (names[k] == "OutOctets") out = static_cast<double>(*v);
    }
    if (in && out) return NetworkBytes{*in, *out};
  }
  return std::nullopt;
}

std::vector<MetricFamily> ProcessCollector::Collect() const {
  static std::atomic<bool> stat_reported{false}, boot_reported{false}, fd_reported{false},
      limit_reported{false}, net_reported{false};
  std::vector<MetricFamily> out;

  const auto stat_text = read_proc_file("/proc/self/stat");
  const auto stat = stat_text ? parse_proc_stat(*stat_text) : std::nullopt;
  if (stat) {
    const auto ticks = static_cast<double>(::sysconf(_SC_CLK_TCK));
    const auto page = static_cast<double>(::sysconf(_SC_PAGESIZE));
    add(out, "process_cpu_seconds_total", "User and system CPU time of the process, in seconds.",
        MetricType::Counter, static_cast<double>(stat->utime_ticks + stat->stime_ticks) / ticks);
    add(out, "process_resident_memory_bytes", "Resident set size of the process, in bytes.",
        MetricType::Gauge, static_cast<double>(stat->rss_pages) * page);
    add(out, "process_virtual_memory_bytes", "Size of the process's address space, in bytes.",
        MetricType::Gauge, static_cast<double>(stat->vsize_bytes));
    if (const auto bt = boot_time()) {
      add(out, "process_start_time_seconds",
          "When the process started, in seconds since the Unix epoch.", MetricType::Gauge,
          static_cast<double>(*bt) + static_cast<double>(stat->start_ticks) / ticks);
    } else {
      report_unreadable(boot_reported, "/proc/stat btime");
    }
  } else {
    report_unreadable(stat_reported, "/proc/self/stat");
  }

  if (const auto fds = open_fds()) {
    add(out, "process_open_fds", "File descriptors the process holds open.", MetricType::Gauge,
        *fds);
  } else {
    report_unreadable(fd_reported, "/proc/self/fd");
  }

  const auto max_fds = soft_limit(RLIMIT_NOFILE);
  const auto max_vsize = soft_limit(RLIMIT_AS);
  if (max_fds && max_vsize) {
    add(out, "process_max_fds", "Most file descriptors the process may open (soft limit).",
        MetricType::Gauge, *max_fds);
    add(out, "process_virtual_memory_max_bytes",
        "Largest address space the process may have, in bytes (soft limit).", MetricType::Gauge,
        *max_vsize);
  } else {
    report_unreadable(limit_reported, "getrlimit");
  }

  const auto net_text = read_proc_file("/proc/self/net/netstat");
  if (const auto net = net_text ? parse_netstat(*net_text) : std::nullopt) {
    add(out, "process_network_receive_bytes_total",
        "Bytes received over IP in the process's network namespace.", MetricType::Counter,
        net->received);
    add(out, "process_network_transmit_bytes_total",
        "Bytes sent over IP in the process's network namespace.", MetricType::Counter,
        net->transmitted);
  } else {
    report_unreadable(net_reported, "/proc/self/net/netstat");
  }
  return out;
}

}  // namespace vc::metrics

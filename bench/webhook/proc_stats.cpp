#include "bench/webhook/proc_stats.h"

#include <unistd.h>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace vc::bench {
namespace {

std::optional<std::string> read_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Splits off the next space-separated field of text.
std::string_view next_field(std::string_view& text) {
  const auto start = text.find_first_not_of(" \t");
  if (start == std::string_view::npos) {
    text = {};
    return {};
  }
  text.remove_prefix(start);
  const auto end = text.find_first_of(" \t\n");
  const std::string_view field = text.substr(0, end);
  text.remove_prefix(end == std::string_view::npos ? text.size() : end);
  return field;
}

std::optional<std::uint64_t> to_u64(std::string_view s) {
  std::uint64_t v = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

}  // namespace

std::optional<std::uint64_t> parse_stat_cpu_ticks(std::string_view stat) {
  const auto paren = stat.rfind(')');
  if (paren == std::string_view::npos) return std::nullopt;
  std::string_view rest = stat.substr(paren + 1);
  // After the name: field 3 (state) ... field 14 utime, field 15 stime.
  std::optional<std::uint64_t> utime;
  for (int field = 3; field <= 15; ++field) {
    const std::string_view f = next_field(rest);
    if (f.empty()) return std::nullopt;
    if (field == 14) utime = to_u64(f);
    if (field == 15) {
      const auto stime = to_u64(f);
      if (!utime || !stime) return std::nullopt;
      return *utime + *stime;
    }
  }
  return std::nullopt;
}

std::optional<std::uint64_t> parse_status_kib(std::string_view status, std::string_view key) {
  std::size_t pos = 0;
  while (pos < status.size()) {
    const auto eol = status.find('\n', pos);
    std::string_view line =
        status.substr(pos, eol == std::string_view::npos ? std::string_view::npos : eol - pos);
    pos = eol == std::string_view::npos ? status.size() : eol + 1;
    if (line.size() > key.size() && line.substr(0, key.size()) == key && line[key.size()] == ':') {
      line.remove_prefix(key.size() + 1);
      const std::string_view value = next_field(line);
      if (next_field(line) != "kB") return std::nullopt;
      return to_u64(value);
    }
  }
  return std::nullopt;
}

std::optional<CoreTicks> parse_core_ticks(std::string_view proc_stat, int core) {
  const std::string prefix = "cpu" + std::to_string(core);
  std::size_t pos = 0;
  while (pos < proc_stat.size()) {
    const auto eol = proc_stat.find('\n', pos);
    std::string_view line =
        proc_stat.substr(pos, eol == std::string_view::npos ? std::string_view::npos : eol - pos);
    pos = eol == std::string_view::npos ? proc_stat.size() : eol + 1;
    if (next_field(line) != prefix) continue;
    // user nice system idle iowait irq softirq steal (guest and guest_nice are inside user/nice)
    std::uint64_t v[8] = {};
    for (auto& x : v) {
      const auto n = to_u64(next_field(line));
      if (!n) return std::nullopt;
      x = *n;
    }
    CoreTicks t;
    t.busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
    t.total = t.busy + v[3] + v[4];
    return t;
  }
  return std::nullopt;
}

std::optional<std::uint64_t> parse_schedstat_wait_ns(std::string_view schedstat) {
  if (next_field(schedstat).empty()) return std::nullopt;  // on-CPU time
  return to_u64(next_field(schedstat));
}

double seconds_per_tick() {
  const long hz = ::sysconf(_SC_CLK_TCK);
  return hz > 0 ? 1.0 / static_cast<double>(hz) : 0.01;
}

std::optional<std::uint64_t> read_process_cpu_ticks(pid_t pid) {
  const auto text = read_file("/proc/" + std::to_string(pid) + "/stat");
  if (!text) return std::nullopt;
  return parse_stat_cpu_ticks(*text);
}

std::optional<std::uint64_t> read_process_status_kib(pid_t pid, std::string_view key) {
  const auto text = read_file("/proc/" + std::to_string(pid) + "/status");
  if (!text) return std::nullopt;
  return parse_status_kib(*text, key);
}

std::optional<CoreTicks> read_core_ticks(int core) {
  const auto text = read_file("/proc/stat");
  if (!text) return std::nullopt;
  return parse_core_ticks(*text, core);
}

std::optional<std::uint64_t> read_process_wait_ns(pid_t pid) {
  std::error_code ec;
  const std::filesystem::path tasks = "/proc/" + std::to_string(pid) + "/task";
  std::filesystem::directory_iterator it(tasks, ec);
  if (ec) return std::nullopt;
  std::uint64_t total = 0;
  for (const auto& entry : it) {
    const auto text = read_file(entry.path().string() + "/schedstat");
    if (!text) continue;  // the thread exited after the listing
    if (const auto wait = parse_schedstat_wait_ns(*text)) total += *wait;
  }
  return total;
}

std::optional<std::string> reset_peak_rss(pid_t pid) {
  const std::string path = "/proc/" + std::to_string(pid) + "/clear_refs";
  std::ofstream out(path);
  if (!out) return "cannot open " + path + ": " + std::strerror(errno);
  out << "5";
  out.flush();
  if (!out) return "writing 5 to " + path + " failed: " + std::strerror(errno);
  return std::nullopt;
}

}  // namespace vc::bench

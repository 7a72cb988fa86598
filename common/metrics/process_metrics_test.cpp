#include "common/metrics/process_metrics.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <fstream>
#include <map>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "common/metrics/registry.h"

namespace vc::metrics {
namespace {

using prometheus::MetricType;

// name -> (type, value) of one collection.
std::map<std::string, std::pair<MetricType, double>> collect() {
  std::map<std::string, std::pair<MetricType, double>> out;
  for (const auto& family : ProcessCollector().Collect()) {
    EXPECT_EQ(family.metric.size(), 1u) << family.name;
    const auto& m = family.metric.at(0);
    EXPECT_TRUE(m.label.empty()) << family.name;
    out[family.name] = {family.type,
                        family.type == MetricType::Counter ? m.counter.value : m.gauge.value};
  }
  return out;
}

double value(const std::string& name) {
  const auto all = collect();
  const auto it = all.find(name);
  if (it == all.end()) {
    ADD_FAILURE() << name << " missing";
    return -1;
  }
  return it->second.second;
}

double process_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

TEST(ProcStat, FieldsAreCountedFromTheLastParenthesis) {
  // A command name with ") (" and spaces must not shift the fields.
  const std::string line =
      "4242 (odd) (name 1) S 1 4242 4242 0 -1 4194560 900 0 0 0 "
      "250 130 0 0 20 0 7 0 987654 123456789 2500 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0\n";
  const auto s = parse_proc_stat(line);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->utime_ticks, 250u);
  EXPECT_EQ(s->stime_ticks, 130u);
  EXPECT_EQ(s->start_ticks, 987654u);
  EXPECT_EQ(s->vsize_bytes, 123456789u);
  EXPECT_EQ(s->rss_pages, 2500u);
}

TEST(ProcStat, TruncatedOrGarbledLinesAreRejected) {
  EXPECT_FALSE(parse_proc_stat("4242 (x) S 1 2 3").has_value());
  EXPECT_FALSE(parse_proc_stat("no parenthesis at all").has_value());
  EXPECT_FALSE(
      parse_proc_stat("1 (x) S 1 1 1 0 -1 0 0 0 0 0 ten 1 0 0 20 0 1 0 5 6 7").has_value());
}

TEST(ProcStat, BootTimeIsTheBtimeLine) {
  EXPECT_EQ(parse_boot_time("cpu  1 2 3\nintr 5\nbtime 1700000000\nprocesses 9\n"), 1700000000u);
  EXPECT_FALSE(parse_boot_time("cpu  1 2 3\n").has_value());
}

TEST(ProcStat, NetstatOctetsComeFromTheIpExtPair) {
  const std::string text =
      "TcpExt: SyncookiesSent InOctets\n"
      "TcpExt: 1 999\n"
      "IpExt: InNoRoutes InOctets OutOctets InMcastOctets\n"
      "IpExt: 0 5000 7000 3\n";
  const auto n = parse_netstat(text);
  ASSERT_TRUE(n.has_value());
  EXPECT_EQ(n->received, 5000);
  EXPECT_EQ(n->transmitted, 7000);
  EXPECT_FALSE(parse_netstat("IpExt: InOctets OutOctets\n").has_value());
}

TEST(ProcessCollector, ExportsGosNamesAndTypes) {
  const auto all = collect();
  const std::map<std::string, MetricType> want{
      {"process_cpu_seconds_total", MetricType::Counter},
      {"process_resident_memory_bytes", MetricType::Gauge},
      {"process_virtual_memory_bytes", MetricType::Gauge},
      {"process_virtual_memory_max_bytes", MetricType::Gauge},
      {"process_start_time_seconds", MetricType::Gauge},
      {"process_open_fds", MetricType::Gauge},
      {"process_max_fds", MetricType::Gauge},
      {"process_network_receive_bytes_total", MetricType::Counter},
      {"process_network_transmit_bytes_total", MetricType::Counter},
  };
  ASSERT_EQ(all.size(), want.size());
  for (const auto& [name, type] : want) {
    ASSERT_TRUE(all.contains(name)) << name;
    EXPECT_EQ(all.at(name).first, type) << name;
  }
}

TEST(ProcessCollector, ResidentMemoryAgreesWithStatm) {
  std::ifstream statm("/proc/self/statm");
  double size_pages = 0, resident_pages = 0;
  ASSERT_TRUE(statm >> size_pages >> resident_pages);
  const double statm_rss = resident_pages * static_cast<double>(sysconf(_SC_PAGESIZE));
  const double rss = value("process_resident_memory_bytes");
  EXPECT_GT(rss, 1 << 20) << "a test binary holds more than a MiB";
  EXPECT_GT(rss, statm_rss / 2);
  EXPECT_LT(rss, statm_rss * 2);
  EXPECT_GE(value("process_virtual_memory_bytes"), rss);
}

TEST(ProcessCollector, StartTimeIsJustBeforeTheTest) {
  const double now =
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  const double start = value("process_start_time_seconds");
  // Boot time is whole seconds and start is in clock ticks: a second of slack on the late side.
  EXPECT_LE(start, now + 1);
  EXPECT_GT(start, now - 15) << "this process started moments ago";
}

TEST(ProcessCollector, OpenFdsRiseByOneForAnOpenFile) {
  const double before = value("process_open_fds");
  const int fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  EXPECT_EQ(value("process_open_fds"), before + 1);
  ::close(fd);
  EXPECT_EQ(value("process_open_fds"), before);
  EXPECT_GE(before, 3) << "stdin, stdout, stderr";
}

TEST(ProcessCollector, LimitsAreTheSoftRlimits) {
  rlimit files{}, address_space{};
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &files), 0);
  ASSERT_EQ(getrlimit(RLIMIT_AS, &address_space), 0);
  EXPECT_EQ(value("process_max_fds"), static_cast<double>(files.rlim_cur));
  // Unlimited is 2^64-1, which Go's collector reports as 1.8446744073709552e+19 too.
  EXPECT_EQ(value("process_virtual_memory_max_bytes"), static_cast<double>(address_space.rlim_cur));
}

TEST(ProcessCollector, CpuSecondsGrowWithCpuBurnt) {
  const double before = value("process_cpu_seconds_total");
  const double cpu_start = process_cpu_seconds();
  // Burn 300 ms of CPU, or give up after 10 s of wall time on a loaded machine.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  volatile std::uint64_t sink = 0;
  while (process_cpu_seconds() - cpu_start < 0.3 && std::chrono::steady_clock::now() < deadline) {
    for (int i = 0; i < 100000; ++i) sink = sink + static_cast<std::uint64_t>(i);
  }
  const double burnt = process_cpu_seconds() - cpu_start;
  ASSERT_GE(burnt, 0.3) << "could not burn CPU within 10 s";
  const double after = value("process_cpu_seconds_total");
  // Clock ticks are 10 ms; allow two of them at each end.
  EXPECT_GE(after - before, burnt - 0.04);
  EXPECT_LE(after, process_cpu_seconds() + 0.04);
}

TEST(ProcessCollector, NetworkCountersCountLoopbackBytes) {
  const double received = value("process_network_receive_bytes_total");
  const double sent = value("process_network_transmit_bytes_total");
  const int listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  ASSERT_GE(listener, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  ASSERT_EQ(bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(listen(listener, 1), 0);
  ASSERT_EQ(getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len), 0);
  const int client = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  ASSERT_EQ(connect(client, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  const int server = accept(listener, nullptr, nullptr);
  ASSERT_GE(server, 0);
  constexpr std::size_t kBytes = 256 * 1024;
  std::thread writer([client] {
    const std::string chunk(kBytes, 'x');
    std::size_t done = 0;
    while (done < kBytes) {
      const ssize_t n = write(client, chunk.data() + done, kBytes - done);
      if (n <= 0) return;
      done += static_cast<std::size_t>(n);
    }
  });
  std::size_t got = 0;
  char buf[65536];
  while (got < kBytes) {
    const ssize_t n = read(server, buf, sizeof buf);
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  writer.join();
  close(server);
  close(client);
  close(listener);
  ASSERT_EQ(got, kBytes);
  EXPECT_GE(value("process_network_receive_bytes_total") - received, kBytes);
  EXPECT_GE(value("process_network_transmit_bytes_total") - sent, kBytes);
}

TEST(ProcessCollector, RenderedAfterTheRegistry) {
  const std::string text = render_text();
  EXPECT_NE(text.find("# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total "),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("# TYPE process_open_fds gauge\nprocess_open_fds "), std::string::npos)
      << text;
}

}  // namespace
}  // namespace vc::metrics

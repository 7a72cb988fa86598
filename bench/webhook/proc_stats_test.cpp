#include "bench/webhook/proc_stats.h"

#include <unistd.h>

#include <gtest/gtest.h>

namespace vc::bench {
namespace {

TEST(ParseStatCpuTicks, SumsUtimeAndStimeAfterACommandNameWithSpacesAndParens) {
  const std::string stat =
      "4242 (vc (webhook) x) S 1 4242 4242 0 -1 4194560 1234 0 0 0 "
      "150 25 0 0 20 0 9 0 12345 1000000 2000 18446744073709551615";
  EXPECT_EQ(parse_stat_cpu_ticks(stat), 175u);
}

TEST(ParseStatCpuTicks, TruncatedOrGarbledTextGivesNothing) {
  EXPECT_EQ(parse_stat_cpu_ticks("4242 (x) S 1 2 3"), std::nullopt);
  EXPECT_EQ(parse_stat_cpu_ticks("no parens at all"), std::nullopt);
  EXPECT_EQ(parse_stat_cpu_ticks("1 (x) S 1 1 1 0 -1 0 0 0 0 0 abc 1"), std::nullopt);
}

TEST(ParseStatusKib, FindsTheKeyedLine) {
  const std::string status =
      "Name:\tvc-webhook\nVmPeak:\t  900000 kB\nVmHWM:\t   51200 kB\nVmRSS:\t   40960 kB\n";
  EXPECT_EQ(parse_status_kib(status, "VmHWM"), 51200u);
  EXPECT_EQ(parse_status_kib(status, "VmRSS"), 40960u);
  EXPECT_EQ(parse_status_kib(status, "VmSwap"), std::nullopt);
  EXPECT_EQ(parse_status_kib("VmHWMx:\t1 kB\n", "VmHWM"), std::nullopt);
}

TEST(ParseCoreTicks, BusyExcludesIdleAndIowait) {
  const std::string stat =
      "cpu  10 0 10 100 0 0 0 0 0 0\n"
      "cpu0 1 2 3 40 5 6 7 8 0 0\n"
      "cpu1 100 0 50 1000 10 1 2 3 0 0\n"
      "intr 123\n";
  const auto c1 = parse_core_ticks(stat, 1);
  ASSERT_TRUE(c1.has_value());
  EXPECT_EQ(c1->busy, 156u);
  EXPECT_EQ(c1->total, 1166u);
  const auto c0 = parse_core_ticks(stat, 0);
  ASSERT_TRUE(c0.has_value());
  EXPECT_EQ(c0->busy, 27u);
  EXPECT_EQ(parse_core_ticks(stat, 2), std::nullopt);
}

TEST(ParseSchedstat, SecondFieldIsTheRunQueueWait) {
  EXPECT_EQ(parse_schedstat_wait_ns("123456789 9876 42\n"), 9876u);
  EXPECT_EQ(parse_schedstat_wait_ns("123456789"), std::nullopt);
  EXPECT_EQ(parse_schedstat_wait_ns(""), std::nullopt);
}

TEST(ProcReaders, ReadThisProcess) {
  const pid_t self = ::getpid();
  EXPECT_TRUE(read_process_cpu_ticks(self).has_value());
  const auto rss = read_process_status_kib(self, "VmRSS");
  ASSERT_TRUE(rss.has_value());
  EXPECT_GT(*rss, 0u);
  EXPECT_TRUE(read_core_ticks(0).has_value());
  EXPECT_TRUE(read_process_wait_ns(self).has_value());
  EXPECT_GT(seconds_per_tick(), 0.0);
}

}  // namespace
}  // namespace vc::bench

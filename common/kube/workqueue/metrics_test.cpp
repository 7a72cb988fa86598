#include "common/kube/workqueue/metrics.h"

#include <gtest/gtest.h>
#include <prometheus/metric_family.h>

#include <thread>

#include "common/kube/workqueue/rate_limiting_queue.h"
#include "common/metrics/registry.h"

namespace vc::kube::workqueue {
namespace {

using namespace std::chrono_literals;

// g++ 12 warns on designated initializers that skip members, so options are built here.
QueueOptions on_clock(std::shared_ptr<Clock> clock, std::string name = {}) {
  QueueOptions o;
  o.name = std::move(name);
  o.clock = std::move(clock);
  return o;
}

// The value of one series of the process registry, or nullopt when it does not exist. For a
// histogram, the sample count.
std::optional<double> metric(const std::string& family, const std::string& queue) {
  for (const auto& f : vc::metrics::registry().Collect()) {
    if (f.name != family) continue;
    for (const auto& m : f.metric) {
      bool match = false;
      for (const auto& l : m.label) match |= l.name == "name" && l.value == queue;
      if (!match) continue;
      switch (f.type) {
        case prometheus::MetricType::Counter:
          return m.counter.value;
        case prometheus::MetricType::Gauge:
          return m.gauge.value;
        case prometheus::MetricType::Histogram:
          return static_cast<double>(m.histogram.sample_count);
        default:
          return std::nullopt;
      }
    }
  }
  return std::nullopt;
}

// Polls until the series has the wanted value; the timer thread updates some gauges.
bool eventually_equals(const std::string& family, const std::string& queue, double want) {
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  while (std::chrono::steady_clock::now() < deadline) {
    if (metric(family, queue) == want) return true;
    std::this_thread::sleep_for(1ms);
  }
  return false;
}

TEST(QueueMetrics, SeriesMoveWithQueueActivity) {
  const std::string name = "metrics-test-queue";
  auto clock = std::make_shared<FakeClock>();
  RateLimitingQueue<std::string> q(on_clock(clock, name));

  q.add("a");
  q.add("b");
  q.add("a");  // deduplicated: not an add
  EXPECT_EQ(metric("workqueue_adds_total", name), 2);
  EXPECT_EQ(metric("workqueue_depth", name), 2);

  clock->step(2s);
  ASSERT_EQ(q.get(), "a");
  EXPECT_EQ(metric("workqueue_depth", name), 1);
  EXPECT_EQ(metric("workqueue_queue_duration_seconds", name), 1);

  clock->step(3s);
  EXPECT_TRUE(eventually_equals("workqueue_longest_running_processor_seconds", name, 3))
      << "saw " << metric("workqueue_longest_running_processor_seconds", name).value_or(-1);
  EXPECT_TRUE(eventually_equals("workqueue_unfinished_work_seconds", name, 3))
      << "saw " << metric("workqueue_unfinished_work_seconds", name).value_or(-1);

  q.done("a");
  EXPECT_EQ(metric("workqueue_work_duration_seconds", name), 1);
  EXPECT_EQ(metric("workqueue_unfinished_work_seconds", name), 0);
  EXPECT_EQ(metric("workqueue_longest_running_processor_seconds", name), 0);

  q.add_rate_limited("c");
  EXPECT_EQ(metric("workqueue_retries_total", name), 1);
  clock->step(5ms);
  ASSERT_EQ(q.get(), "b");
  ASSERT_EQ(q.get(), "c");
  EXPECT_EQ(metric("workqueue_adds_total", name), 3);
  EXPECT_EQ(metric("workqueue_depth", name), 0);
}

TEST(QueueMetrics, UnnamedQueueRecordsNothing) {
  QueueMetrics m("");
  EXPECT_FALSE(m.enabled());
  m.add();  // must be a harmless no-op
  m.set_depth(3);
}

}  // namespace
}  // namespace vc::kube::workqueue

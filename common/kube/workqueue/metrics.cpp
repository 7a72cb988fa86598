#include "common/kube/workqueue/metrics.h"

#include <prometheus/counter.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>

#include "common/metrics/registry.h"

namespace vc::kube::workqueue {

namespace {

// The families are created once; each queue adds its own labelled series.
struct Families {
  prometheus::Family<prometheus::Gauge>& depth;
  prometheus::Family<prometheus::Counter>& adds;
  prometheus::Family<prometheus::Counter>& retries;
  prometheus::Family<prometheus::Histogram>& queue_duration;
  prometheus::Family<prometheus::Histogram>& work_duration;
  prometheus::Family<prometheus::Gauge>& unfinished_work;
  prometheus::Family<prometheus::Gauge>& longest_running;
};

Families& families() {
  auto& r = vc::metrics::registry();
  static Families f{
      prometheus::BuildGauge()
          .Name("workqueue_depth")
          .Help("Current depth of workqueue")
          .Register(r),
      prometheus::BuildCounter()
          .Name("workqueue_adds_total")
          .Help("Total number of adds handled by workqueue")
          .Register(r),
      prometheus::BuildCounter()
          .Name("workqueue_retries_total")
          .Help("Total number of retries handled by workqueue")
          .Register(r),
      prometheus::BuildHistogram()
          .Name("workqueue_queue_duration_seconds")
          .Help("How long in seconds an item stays in workqueue before being requested")
          .Register(r),
      prometheus::BuildHistogram()
          .Name("workqueue_work_duration_seconds")
          .Help("How long in seconds processing an item from workqueue takes")
          .Register(r),
      prometheus::BuildGauge()
          .Name("workqueue_unfinished_work_seconds")
          .Help("How many seconds of work has been done that is in progress and hasn't been "
                "observed by work_duration. Large values indicate stuck threads.")
          .Register(r),
      prometheus::BuildGauge()
          .Name("workqueue_longest_running_processor_seconds")
          .Help("How many seconds has the longest running processor for workqueue been running")
          .Register(r),
  };
  return f;
}

// 10ns .. 10s in decades, as Kubernetes components use, so dashboards carry over.
const prometheus::Histogram::BucketBoundaries& duration_buckets() {
  static const prometheus::Histogram::BucketBoundaries b{1e-8, 1e-7, 1e-6, 1e-5, 1e-4,
                                                         1e-3, 1e-2, 1e-1, 1,    10};
  return b;
}

}  // namespace

QueueMetrics::QueueMetrics(const std::string& name) {
  if (name.empty()) return;
  auto& f = families();
  const prometheus::Labels labels{{"name", name}};
  depth_ = &f.depth.Add(labels);
  adds_ = &f.adds.Add(labels);
  retries_ = &f.retries.Add(labels);
  queue_duration_ = &f.queue_duration.Add(labels, duration_buckets());
  work_duration_ = &f.work_duration.Add(labels, duration_buckets());
  unfinished_work_ = &f.unfinished_work.Add(labels);
  longest_running_ = &f.longest_running.Add(labels);
}

void QueueMetrics::set_depth(double n) {
  if (depth_) depth_->Set(n);
}
void QueueMetrics::add() {
  if (adds_) adds_->Increment();
}
void QueueMetrics::retry() {
  if (retries_) retries_->Increment();
}
void QueueMetrics::observe_queue_duration(double seconds) {
  if (queue_duration_) queue_duration_->Observe(seconds);
}
void QueueMetrics::observe_work_duration(double seconds) {
  if (work_duration_) work_duration_->Observe(seconds);
}
void QueueMetrics::set_unfinished_work(double seconds) {
  if (unfinished_work_) unfinished_work_->Set(seconds);
}
void QueueMetrics::set_longest_running(double seconds) {
  if (longest_running_) longest_running_->Set(seconds);
}

}  // namespace vc::kube::workqueue

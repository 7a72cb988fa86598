#pragma once
// QueueMetrics: the workqueue_* Prometheus series of one named queue, registered in
// vc::metrics::registry() with the label name=<queue name>. A queue without a name records
// nothing. Queue names must be unique in a process: two queues with one name share series.

#include <string>

namespace prometheus {
class Counter;
class Gauge;
class Histogram;
}  // namespace prometheus

namespace vc::kube::workqueue {

// Thread-safety: every method may be called from any thread (prometheus metrics are atomic).
class QueueMetrics {
 public:
  explicit QueueMetrics(const std::string& name);
  bool enabled() const { return depth_ != nullptr; }

  void set_depth(double n);
  void add();
  void retry();
  void observe_queue_duration(double seconds);
  void observe_work_duration(double seconds);
  void set_unfinished_work(double seconds);
  void set_longest_running(double seconds);

 private:
  prometheus::Gauge* depth_ = nullptr;
  prometheus::Counter* adds_ = nullptr;
  prometheus::Counter* retries_ = nullptr;
  prometheus::Histogram* queue_duration_ = nullptr;
  prometheus::Histogram* work_duration_ = nullptr;
  prometheus::Gauge* unfinished_work_ = nullptr;
  prometheus::Gauge* longest_running_ = nullptr;
};

}  // namespace vc::kube::workqueue

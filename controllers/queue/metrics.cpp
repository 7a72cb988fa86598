#include "controllers/queue/metrics.h"

#include <prometheus/family.h>
#include <prometheus/gauge.h>

#include "common/metrics/registry.h"

namespace vc::controllers::queue {

struct QueueMetrics::Families {
  prometheus::Family<prometheus::Gauge>& inqueue;
  prometheus::Family<prometheus::Gauge>& pending;
  prometheus::Family<prometheus::Gauge>& running;
  prometheus::Family<prometheus::Gauge>& unknown;
  prometheus::Family<prometheus::Gauge>& completed;
};

namespace {

// Help texts name the phase as Volcano does: "The number of Inqueue PodGroup in this queue".
prometheus::Family<prometheus::Gauge>& gauge(const char* metric_phase, const char* help_phase) {
  return prometheus::BuildGauge()
      .Name(std::string("volcano_queue_pod_group_") + metric_phase + "_count")
      .Help(std::string("The number of ") + help_phase + " PodGroup in this queue")
      .Register(vc::metrics::registry());
}

}  // namespace

QueueMetrics& QueueMetrics::instance() {
  static QueueMetrics m;
  return m;
}

QueueMetrics::QueueMetrics()
    : families_(std::make_unique<Families>(Families{
          gauge("inqueue", "Inqueue"), gauge("pending", "Pending"), gauge("running", "Running"),
          gauge("unknown", "Unknown"), gauge("completed", "Completed")})) {}

QueueMetrics::~QueueMetrics() = default;

void QueueMetrics::set(const std::string& queue, const PhaseCounts& c) {
  const prometheus::Labels labels{{"queue_name", queue}};
  families_->inqueue.Add(labels).Set(c.inqueue);
  families_->pending.Add(labels).Set(c.pending);
  families_->running.Add(labels).Set(c.running);
  families_->unknown.Add(labels).Set(c.unknown);
  families_->completed.Add(labels).Set(c.completed);
}

void QueueMetrics::remove(const std::string& queue) {
  const prometheus::Labels labels{{"queue_name", queue}};
  for (auto* family : {&families_->inqueue, &families_->pending, &families_->running,
                       &families_->unknown, &families_->completed}) {
    // Has() first: Add() would create the series only to remove it.
    if (family->Has(labels)) family->Remove(&family->Add(labels));
  }
}

}  // namespace vc::controllers::queue

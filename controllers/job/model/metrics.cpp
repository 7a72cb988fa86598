#include "controllers/job/model/metrics.h"

#include <cmath>

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/histogram.h>

#include "common/metrics/registry.h"

namespace vc::controllers::job {

namespace {

struct Families {
  prometheus::Family<prometheus::Counter>& completed;
  prometheus::Family<prometheus::Counter>& failed;
  prometheus::Histogram& latency;
};

// Help texts are Volcano's, so /metrics reads the same for both implementations.
Families& families() {
  static Families f{
      prometheus::BuildCounter()
          .Name("volcano_job_completed_phase_count")
          .Help("Number of job completed phase")
          .Register(vc::metrics::registry()),
      prometheus::BuildCounter()
          .Name("volcano_job_failed_phase_count")
          .Help("Number of job failed phase")
          .Register(vc::metrics::registry()),
      prometheus::BuildHistogram()
          .Name("volcano_controller_job_to_pod_creation_latency_milliseconds")
          .Help("Latency from VCJob creation to pod created in milliseconds")
          .Register(vc::metrics::registry())
          .Add({}, pod_creation_latency_buckets()),
  };
  return f;
}

prometheus::Labels job_labels(const std::string& ns, const std::string& name,
                              const std::string& queue) {
  return {{"job_name", ns + "/" + name}, {"queue_name", queue}};
}

void remove_series(prometheus::Family<prometheus::Counter>& family,
                   const prometheus::Labels& labels) {
  // Has() first: Add() would create the series only to remove it.
  if (family.Has(labels)) family.Remove(&family.Add(labels));
}

}  // namespace

std::vector<double> pod_creation_latency_buckets() {
  constexpr double kMin = 50;
  constexpr double kMax = 60000;
  constexpr int kCount = 30;
  // Growth factor first, then powers of it: the same floating-point steps as client_golang, so
  // the `le` labels print identically.
  const double growth = std::pow(kMax / kMin, 1.0 / static_cast<double>(kCount - 1));
  std::vector<double> bounds(kCount);
  for (int i = 0; i < kCount; ++i) bounds[i] = kMin * std::pow(growth, static_cast<double>(i));
  return bounds;
}

void register_job_metrics() {
  families();
}

void job_completed(const Job& job) {
  families().completed.Add(job_labels(job.namespace_, job.name, job.spec.queue)).Increment();
}

void job_failed(const Job& job) {
  families().failed.Add(job_labels(job.namespace_, job.name, job.spec.queue)).Increment();
}

void delete_job_series(const std::string& ns, const std::string& name, const std::string& queue) {
  const prometheus::Labels labels = job_labels(ns, name, queue);
  Families& f = families();
  remove_series(f.completed, labels);
  remove_series(f.failed, labels);
}

void observe_pod_creation_latency(std::chrono::milliseconds latency) {
  families().latency.Observe(static_cast<double>(latency.count()));
}

}  // namespace vc::controllers::job

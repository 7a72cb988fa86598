#include "controllers/job/verdict/verdict_metrics.h"

#include <mutex>
#include <set>

#include <prometheus/family.h>
#include <prometheus/gauge.h>

#include "common/metrics/registry.h"

namespace vc::controllers::job::verdict {
namespace {

using explain::Verdict;

constexpr Verdict kVerdicts[] = {Verdict::Progressing, Verdict::Finished,
                                 Verdict::WaitingForCapacity, Verdict::ConfigurationError,
                                 Verdict::Failed};

prometheus::Family<prometheus::Gauge>& family() {
  static auto& f = prometheus::BuildGauge()
                       .Name("vc_cpp_job_verdicts")
                       .Help(
                           "Volcano Jobs per queue and verdict of the job controller's "
                           "diagnosis (vc-cpp explain): Progressing, Finished, "
                           "WaitingForCapacity, ConfigurationError, Failed")
                       .Register(vc::metrics::registry());
  return f;
}

prometheus::Labels labels(const std::string& queue, Verdict v) {
  return {{"queue", queue}, {"verdict", std::string(explain::to_string(v))}};
}

std::mutex mu;
std::set<std::string> published_queues;  // queues with series, guarded by mu

}  // namespace

void publish_verdict_counts(const std::map<std::pair<std::string, Verdict>, long>& counts) {
  std::lock_guard lock(mu);
  auto& f = family();
  std::set<std::string> queues;
  for (const auto& [key, n] : counts) queues.insert(key.first);
  for (const std::string& q : published_queues) {
    if (queues.contains(q)) continue;
    for (Verdict v : kVerdicts) {
      if (f.Has(labels(q, v))) f.Remove(&f.Add(labels(q, v)));
    }
  }
  for (const std::string& q : queues) {
    for (Verdict v : kVerdicts) {
      const auto it = counts.find({q, v});
      f.Add(labels(q, v)).Set(it == counts.end() ? 0.0 : static_cast<double>(it->second));
    }
  }
  published_queues = std::move(queues);
}

void clear_verdict_counts() {
  publish_verdict_counts({});
}

}  // namespace vc::controllers::job::verdict

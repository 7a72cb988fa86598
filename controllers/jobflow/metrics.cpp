#include "controllers/jobflow/metrics.h"

#include <prometheus/counter.h>
#include <prometheus/family.h>

#include "common/metrics/registry.h"

namespace vc::controllers::jobflow {
namespace {

prometheus::Family<prometheus::Counter>& counter(const char* name, const char* help) {
  return prometheus::BuildCounter().Name(name).Help(help).Register(vc::metrics::registry());
}

prometheus::Family<prometheus::Counter>& succeeded() {
  static auto& f =
      counter("volcano_jobflow_succeed_phase_count", "Number of jobflow succeed phase");
  return f;
}

prometheus::Family<prometheus::Counter>& failed() {
  static auto& f = counter("volcano_jobflow_failed_phase_count", "Number of jobflow failed phase");
  return f;
}

prometheus::Family<prometheus::Counter>& probe_checks() {
  static auto& f = counter("vc_cpp_jobflow_probe_checks_total",
                           "JobFlow probe checks run (--jobflow-probes), by kind and result");
  return f;
}

}  // namespace

void count_succeeded(const std::string& ns) {
  succeeded().Add({{"jobflow_namespace", ns}}).Increment();
}

void count_failed(const std::string& ns) {
  failed().Add({{"jobflow_namespace", ns}}).Increment();
}

void count_probe_check(const std::string& kind, bool passed) {
  probe_checks().Add({{"kind", kind}, {"result", passed ? "passed" : "failed"}}).Increment();
}

}  // namespace vc::controllers::jobflow

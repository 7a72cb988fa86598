#pragma once
// The flag-derived settings admit functions read (spec webhook.md §4.1).

#include <string>
#include <vector>

#include "webhook/admission/pod_admission_config.h"

namespace vc::webhook {

struct AdmissionOptions {
  std::vector<std::string> scheduler_names{"volcano"};  // --scheduler-name
  int max_queue_depth = 5;                              // --max-queue-depth
  bool enable_root_queue_protection = true;             // --enable-root-queue-protection
  bool enable_queue_allocated_pods_check = false;       // --enable-queue-allocated-pods-check
  bool scheduling_gates_queue_admission = false;  // feature gate SchedulingGatesQueueAdmission
  bool pod_level_resources = true;                // Kubernetes feature gate PodLevelResources
  // --admission-conf, loaded at start-up; null when absent or invalid (then pods/mutate is off).
  std::shared_ptr<const PodAdmissionConfig> pod_admission_config;

  // The default schedulerName for jobs: the first --scheduler-name, or "volcano" if none.
  std::string default_scheduler_name() const {
    return scheduler_names.empty() ? "volcano" : scheduler_names.front();
  }
};

}  // namespace vc::webhook

#pragma once
// LiveOptions: the AdmissionOptions the admit functions read, replaceable while the server runs.
// Only the pod admission configuration (--admission-conf) changes after start-up; each change
// publishes a new immutable AdmissionOptions, and a review in flight keeps the snapshot it
// started with.
//
// Thread-safety: every method may be called from any thread.

#include <memory>
#include <mutex>

#include "webhook/admission/options.h"

namespace vc::webhook::app {

class LiveOptions {
 public:
  explicit LiveOptions(AdmissionOptions initial)
      : current_(std::make_shared<const AdmissionOptions>(std::move(initial))) {}

  std::shared_ptr<const AdmissionOptions> current() const {
    std::lock_guard lock(mu_);
    return current_;
  }

  // Publishes a copy of the current options with this pod admission configuration (null turns
  // pods/mutate off).
  void set_pod_admission_config(std::shared_ptr<const PodAdmissionConfig> config) {
    std::lock_guard lock(mu_);
    auto next = std::make_shared<AdmissionOptions>(*current_);
    next->pod_admission_config = std::move(config);
    current_ = std::move(next);
  }

 private:
  mutable std::mutex mu_;
  std::shared_ptr<const AdmissionOptions> current_;  // guarded by mu_
};

}  // namespace vc::webhook::app

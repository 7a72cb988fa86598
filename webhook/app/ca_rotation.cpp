#include "webhook/app/ca_rotation.h"

#include <utility>

#include "common/kube/stoppable_sleep.h"
#include "common/log/log.h"
#include "webhook/app/read_file.h"

namespace vc::webhook::app {

CaRotation::CaRotation(kube::Client& client, std::string ca_file, std::vector<CaTarget> targets,
                       std::shared_ptr<server::TrustedCas> trusted,
                       std::function<void()> on_trusted, CaRotationOptions options)
    : client_(client),
      ca_file_(std::move(ca_file)),
      targets_(std::move(targets)),
      trusted_(std::move(trusted)),
      on_trusted_(std::move(on_trusted)),
      options_(std::move(options)) {}

CaRotation::~CaRotation() {
  stop();
}

void CaRotation::registered(const std::string& ca) {
  std::lock_guard lock(mu_);
  current_ = ca;
  if (auto set = trusted_->set(ca); !set) {
    // The pair is then never held back: no worse than without rotation support.
    VC_LOG_WARN("the CA file holds no certificate; new serving pairs are not held back",
                kv("ca_file", ca_file_), kv("err", set.error()));
  }
}

CaRotation::Outcome CaRotation::check(std::stop_token stop) {
  std::lock_guard lock(mu_);
  const auto fail = [&](const std::string& error) {
    if (error != last_error_) {
      VC_LOG_ERROR("CA rotation: caBundle not updated; the current serving pair stays",
                   kv("ca_file", ca_file_), kv("err", error));
      last_error_ = error;
    }
    return Outcome::Failed;
  };
  auto ca = read_file(ca_file_);
  if (!ca) return fail("cannot read the CA file: " + ca.error());
  if (*ca == current_) return Outcome::Unchanged;

  VC_LOG_INFO("CA file changed: adding the new CA to every caBundle", kv("ca_file", ca_file_));
  for (const auto& target : targets_) {
    auto synced = sync_ca_bundle(client_, target.path, target.mutating, *ca, options_.sync, stop);
    if (!synced) return fail("failed to add caCert for webhook " + synced.error());
  }
  if (!kube::sleep_unless_stopped(options_.settle, stop)) return Outcome::Failed;
  if (auto set = trusted_->set(*ca); !set) return fail(set.error());
  current_ = std::move(*ca);
  last_error_.clear();
  VC_LOG_INFO("every caBundle holds the new CA: serving pairs it signed from now on",
              kv("ca_file", ca_file_));
  if (on_trusted_) on_trusted_();
  return Outcome::Registered;
}

void CaRotation::start(const std::string& registered_ca) {
  registered(registered_ca);
  if (thread_.joinable()) return;
  thread_ = std::jthread([this](std::stop_token stop) {
    while (kube::sleep_unless_stopped(options_.poll_interval, stop)) check(stop);
  });
}

void CaRotation::stop() {
  if (!thread_.joinable()) return;
  thread_.request_stop();
  thread_.join();
}

}  // namespace vc::webhook::app

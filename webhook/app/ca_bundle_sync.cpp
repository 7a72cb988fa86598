#include "webhook/app/ca_bundle_sync.h"

#include <condition_variable>
#include <mutex>

#include "common/log/log.h"
#include "webhook/app/ca_bundle.h"
#include "webhook/app/endpoints.h"

namespace vc::webhook::app {
namespace {

using Clock = std::chrono::steady_clock;

// Sleeps d unless stop is requested first; false when stopped.
bool sleep_unless_stopped(std::stop_token stop, Clock::duration d) {
  std::mutex mu;
  std::condition_variable_any cv;
  std::unique_lock lock(mu);
  cv.wait_for(lock, stop, d, [] { return false; });
  return !stop.stop_requested();
}

// Go prints a client-go error as the Status message.
std::string go_error_text(const kube::ApiError& e) {
  return e.message.empty() ? e.describe() : e.message;
}

// GETs the configuration, waiting while it does not exist.
api::Expected<nlohmann::json> get_configuration(kube::Client& client, const kube::Resource& r,
                                                const std::string& name, const char* kind,
                                                const CaBundleSyncOptions& options,
                                                std::stop_token stop) {
  const auto deadline = Clock::now() + options.wait_timeout;
  bool logged = false;
  while (true) {
    auto got = client.get(r, "", name);
    if (got.ok()) return std::move(got).value();
    if (!got.is(kube::ErrorKind::NotFound)) {
      return api::Unexpected{std::string("failed to get ") + kind + " webhook failed to get " +
                             kind + " webhook " + go_error_text(got.error())};
    }
    if (!logged) {
      VC_LOG_WARN(
          "waiting for the webhook configuration to be created", kv("kind", r.kind),
          kv("name", name),
          kv("timeout",
             std::chrono::duration_cast<std::chrono::seconds>(options.wait_timeout).count()));
      logged = true;
    }
    if (Clock::now() + options.poll_interval > deadline) {
      VC_LOG_ERROR("webhook configuration did not appear in time", kv("kind", r.kind),
                   kv("name", name));
      return api::Unexpected{std::string("failed to get ") + kind +
                             " webhook context deadline exceeded"};
    }
    if (!sleep_unless_stopped(stop, options.poll_interval)) {
      return api::Unexpected{std::string("stopped while waiting for ") + std::string(r.kind) + " " +
                             name};
    }
  }
}

}  // namespace

api::Expected<CaBundleOutcome> sync_ca_bundle(kube::Client& client, const std::string& path,
                                              bool mutating, std::string_view ca,
                                              const CaBundleSyncOptions& options,
                                              std::stop_token stop) {
  const kube::Resource& r = mutating ? kube::resources::mutatingwebhookconfigurations
                                     : kube::resources::validatingwebhookconfigurations;
  const char* kind = mutating ? "mutating" : "validating";
  const std::string name = webhook_configuration_name(path);
  for (int conflicts = 0;; ++conflicts) {
    auto current = get_configuration(client, r, name, kind, options, stop);
    if (!current) return api::Unexpected{current.error()};
    auto updated = plan_ca_bundle(*current, ca, options.keep_previous);
    if (!updated) {
      VC_LOG_V(3, "caBundle already current", kv("kind", r.kind), kv("name", name));
      return CaBundleOutcome::Unchanged;
    }
    auto written = client.update(r, "", *updated);
    if (written.ok()) {
      VC_LOG_INFO("patched caBundle", kv("kind", r.kind), kv("name", name));
      return CaBundleOutcome::Updated;
    }
    if (written.is(kube::ErrorKind::Conflict) && conflicts < options.max_conflicts) {
      VC_LOG_DEBUG("caBundle update conflicted, reading again", kv("name", name),
                   kv("attempt", conflicts + 1));
      continue;
    }
    return api::Unexpected{std::string("failed to update ") + kind + " admission webhooks " + name +
                           " " + go_error_text(written.error())};
  }
}

}  // namespace vc::webhook::app

#pragma once
// The caBundle executor (spec webhook.md §4.3): for one enabled admission path, reads the webhook
// configuration named webhook_configuration_name(path) - a MutatingWebhookConfiguration for a
// mutating endpoint, else a ValidatingWebhookConfiguration - and, when plan_ca_bundle() says so,
// writes it back with the CA.
//
//   GET, while NotFound: every poll_interval until wait_timeout (Volcano: 1 s, 5 min); any other
//        error ends at once.
//   UPDATE when the plan (the CA file plus up to keep_previous earlier CAs) has a change; on 409 Conflict read again and re-plan (up to
//        max_conflicts times).
//
// Errors are Volcano's texts ("failed to get mutating webhook failed to get mutating webhook
// <err>", "failed to get validating webhook context deadline exceeded", "failed to update
// mutating admission webhooks <name> <err>"); the caller prefixes "failed to add caCert for
// webhook ". A stop request ends the wait early with an error saying so.
//
// Thread-safety: a function; it blocks the calling thread (start-up).

#include <chrono>
#include <stop_token>
#include <string>
#include <string_view>

#include "common/api/expected.h"
#include "common/kube/client.h"

namespace vc::webhook::app {

struct CaBundleSyncOptions {
  std::chrono::milliseconds poll_interval{1000};
  std::chrono::milliseconds wait_timeout{std::chrono::minutes(5)};
  int max_conflicts = 10;
  // --ca-bundle-keep-previous: certificates the bundle held that the CA file no longer names,
  // kept after the file's (plan_ca_bundle).
  int keep_previous = 1;
};

enum class CaBundleOutcome { Unchanged, Updated };

api::Expected<CaBundleOutcome> sync_ca_bundle(kube::Client& client, const std::string& path,
                                              bool mutating, std::string_view ca,
                                              const CaBundleSyncOptions& options = {},
                                              std::stop_token stop = {});

}  // namespace vc::webhook::app

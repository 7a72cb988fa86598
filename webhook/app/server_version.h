#pragma once
// The cluster's Kubernetes version (GET /version), which Volcano reads at start-up to set the
// Kubernetes feature-gate defaults to that release's (spec webhook.md §4.2 step 4d). The only gate
// the webhook reads is PodLevelResources: Alpha and off in v1.32 and v1.33 (and absent before),
// Beta and on from v1.34.
//
// Thread-safety: free functions; get_server_version blocks the calling thread.

#include <chrono>
#include <stop_token>
#include <string>

#include <nlohmann/json.hpp>

#include "common/api/expected.h"
#include "common/kube/config.h"

namespace vc::webhook::app {

struct ServerVersion {
  int major = 0;
  int minor = 0;            // "35+" (some providers) reads as 35
  std::string git_version;  // "v1.35.3"
};

// Reads {"major":"1","minor":"35","gitVersion":"v1.35.3",...}.
api::Expected<ServerVersion> parse_server_version(const nlohmann::json& body);

// GET /version from the API server; the error says what failed. A stop request ends the wait.
api::Expected<ServerVersion> get_server_version(const kube::Config& config,
                                                const std::string& user_agent,
                                                std::chrono::milliseconds timeout,
                                                std::stop_token stop = {});

// PodLevelResources' default at that version.
bool pod_level_resources_default(const ServerVersion& version);

}  // namespace vc::webhook::app

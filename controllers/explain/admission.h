#pragma once
// The first link for `vc-cpp explain -f FILE`: would the Volcano webhook admit the Job of a
// manifest? It runs the webhook's own mutate and validate rules on it (the offline check of
// `vc-webhook-manager check`, docs/check.md) against the cluster's queues and namespaces, so a
// denied apply is explained with the webhook's exact message, before anything is created.
//
// Threads: pure functions, except that the ClusterView is read.

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/api/expected.h"
#include "controllers/explain/diagnose.h"
#include "webhook/admission/cluster_view.h"

namespace vc::controllers::explain {

// The Volcano Job of a manifest text (YAML or JSON, one or more documents): the one named `name`,
// or the only one when name is empty. The error says what is wrong (unreadable documents, no
// Job, several Jobs and no name).
api::Expected<nlohmann::json> job_in_manifest(std::string_view text, const std::string& name);

struct Admission {
  bool allowed = true;
  std::string message;                // the denial, exactly as the webhook writes it
  std::string denied_by;              // the endpoint path
  std::vector<std::string> warnings;  // the webhook's warnings
  nlohmann::json object;              // the Job as the webhook would leave it
  std::string namespace_;
  std::string name;
};

// Admits the Job as the API server would call the webhook on CREATE.
Admission admit_job(const nlohmann::json& job, const webhook::ClusterView& view,
                    const std::string& default_namespace);

// The Admission link.
Link admission_link(const Admission& a);

// The whole explanation of a Job the webhook denies: the Admission link stops it, and nothing
// after it is reached.
Explanation denied_explanation(const Admission& a);

// The explanation of a Job the webhook admits that is not in the cluster (yet).
Explanation not_created_explanation(const Admission& a);

// x with the Admission link put first (x.stop moves with it).
Explanation with_admission(Explanation x, const Admission& a);

}  // namespace vc::controllers::explain

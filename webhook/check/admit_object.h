#pragma once
// Runs one object through its route as the API server would on CREATE: fill in the namespace
// (cluster-scoped kinds lose theirs), call each mutating endpoint and apply its JSON patch, reset
// status and fill a generateName-only name as the API server does before validation, then call
// the validating endpoints on the result. The first denial stops the chain.
//
// Threads: pure function of its arguments (the view must allow reads).

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "webhook/admission/cluster_view.h"
#include "webhook/admission/options.h"
#include "webhook/check/routing.h"

namespace vc::webhook::check {

struct Outcome {
  bool allowed = true;
  std::string message;                // the denial message, exactly as the endpoint wrote it
  std::string denied_by;              // the path of the endpoint that denied
  std::vector<std::string> warnings;  // from every endpoint called, in call order
  std::vector<std::string> skipped;   // lookups an offline view could not make
  nlohmann::json object;              // after mutation, as it would be stored (status reset)
};

// The API server's random suffix for metadata.generateName, replaced by a fixed placeholder so
// that the length checks on names see a name as long as the real one.
inline constexpr std::string_view kGeneratedSuffix = "xxxxx";

Outcome admit_object(const nlohmann::json& object, const Route& route, const ClusterView& view,
                     const AdmissionOptions& options, const std::string& default_namespace,
                     const std::string& uid);

// metadata.<field> when it is a string, else "".
std::string metadata_string(const nlohmann::json& object, std::string_view field);

// The namespace a namespaced object is created in: metadata.namespace, else default_namespace.
std::string target_namespace(const nlohmann::json& object, const std::string& default_namespace);

// When warning is an admit function's note that an offline view skipped a lookup, the text to
// report as "skipped"; otherwise empty.
std::string skipped_lookup_text(std::string_view warning);

}  // namespace vc::webhook::check

#include "webhook/check/admit_object.h"

#include <stdexcept>
#include <utility>

#include "webhook/admission/scheduling/offline.h"

namespace vc::webhook::check {
namespace {

using nlohmann::json;

// Sets metadata.<field>, creating metadata when it is absent (or not an object: the endpoints
// then see what the API server's decoder would have rejected anyway).
void set_metadata(json& object, const char* field, const std::string& value) {
  auto& meta = object["metadata"];
  if (!meta.is_object()) meta = json::object();
  meta[field] = value;
}

const Endpoint& endpoint_for(const std::string& path) {
  const Endpoint* endpoint = find_endpoint(path);
  // routing.cpp names only served paths (routing_test checks each one).
  if (endpoint == nullptr) throw std::logic_error("check: no admission endpoint " + path);
  return *endpoint;
}

// nlohmann's exception text without its "[json.exception.<kind>.<id>] " prefix.
std::string without_exception_id(const std::string& what) {
  const std::size_t end = what.find("] ");
  return what.starts_with("[json.exception.") && end != std::string::npos ? what.substr(end + 2)
                                                                          : what;
}

std::string operation_field(const json& operation, const char* name) {
  auto it = operation.is_object() ? operation.find(name) : operation.end();
  return it != operation.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// Calls one endpoint and folds its response into the outcome; false when it denied.
bool call(const Endpoint& endpoint, AdmissionRequest& request, const ClusterView& view,
          const AdmissionOptions& options, Outcome& outcome) {
  AdmissionResponse response = endpoint.admit(request, view, options);
  for (std::string& w : response.warnings) {
    std::string skipped = view.online() ? std::string() : skipped_lookup_text(w);
    if (skipped.empty()) {
      outcome.warnings.push_back(std::move(w));
    } else {
      outcome.skipped.push_back(std::move(skipped));
    }
  }
  if (!response.allowed) {
    outcome.allowed = false;
    outcome.message = std::move(response.message);
    outcome.denied_by = endpoint.path;
    return false;
  }
  if (endpoint.mutating && response.patch.is_array()) {
    for (const json& operation : response.patch) {
      try {
        request.object = request.object.patch(json::array({operation}));
      } catch (const json::exception& e) {
        // The API server fails the request when a webhook's patch does not apply.
        outcome.allowed = false;
        outcome.message =
            "the API server would fail the request (Internal error): the patch from " +
            endpoint.path + " does not apply: " + operation_field(operation, "op") + " \"" +
            operation_field(operation, "path") + "\": " + without_exception_id(e.what());
        outcome.denied_by = endpoint.path;
        return false;
      }
    }
  }
  return true;
}

}  // namespace

std::string metadata_string(const nlohmann::json& object, std::string_view field) {
  if (!object.is_object()) return {};
  auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return {};
  auto it = meta->find(field);
  return it != meta->end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::string target_namespace(const nlohmann::json& object, const std::string& default_namespace) {
  std::string ns = metadata_string(object, "namespace");
  return ns.empty() ? default_namespace : ns;
}

std::string skipped_lookup_text(std::string_view warning) {
  // scheduling/offline.h: "skipped <what>: no cluster access".
  const std::string marker = scheduling::skipped_offline("");
  const std::string_view prefix = "skipped ";
  const std::string_view suffix = std::string_view(marker).substr(prefix.size());
  if (warning.starts_with(prefix) && warning.ends_with(suffix)) {
    return std::string(warning.substr(prefix.size()));
  }
  // jobs/validate_job_create.cpp: "queue <name> was not checked: no cluster connection ...".
  if (warning.ends_with("was not checked: no cluster connection for lookups")) {
    return std::string(warning);
  }
  return {};
}

Outcome admit_object(const nlohmann::json& object, const Route& route, const ClusterView& view,
                     const AdmissionOptions& options, const std::string& default_namespace,
                     const std::string& uid) {
  Outcome outcome;
  AdmissionRequest request;
  request.uid = uid;
  request.resource = {std::string(route.resource.group), std::string(route.resource.version),
                      std::string(route.resource.plural)};
  request.operation = "CREATE";
  request.dry_run = true;
  request.object = object;
  if (route.resource.namespaced) {
    request.namespace_ = target_namespace(object, default_namespace);
    set_metadata(request.object, "namespace", request.namespace_);
  } else if (auto meta = request.object.find("metadata");
             meta != request.object.end() && meta->is_object()) {
    meta->erase("namespace");  // the API server clears it for cluster-scoped kinds
  }
  request.name = metadata_string(request.object, "name");

  for (const std::string& path : route.paths) {
    const Endpoint& endpoint = endpoint_for(path);
    if (!endpoint.mutating) continue;
    if (!call(endpoint, request, view, options, outcome)) return outcome;
  }

  if (route.drops_status && request.object.is_object()) request.object.erase("status");
  outcome.object = request.object;
  const std::string generate_name = metadata_string(request.object, "generateName");
  if (request.name.empty() && !generate_name.empty()) {
    // The API server cuts generateName to 58 characters before adding its 5 random ones.
    request.name = generate_name.substr(0, 58) + std::string(kGeneratedSuffix);
    set_metadata(request.object, "name", request.name);
  }

  for (const std::string& path : route.paths) {
    const Endpoint& endpoint = endpoint_for(path);
    if (endpoint.mutating) continue;
    if (!call(endpoint, request, view, options, outcome)) return outcome;
  }
  return outcome;
}

}  // namespace vc::webhook::check

#include "controllers/hypernode/executor.h"

#include <algorithm>

#include "common/kube/resource.h"
#include "common/log/log.h"

namespace vc::controllers::hypernode {
namespace {

using log::kv;
namespace resources = kube::resources;

// A conflicting update, planned again from the HyperNode as the API server has it now: the patch
// to send, or null when there is nothing left to do (gone, no longer ours, already as wanted).
api::Expected<nlohmann::json> replan_update(const std::string& name, std::string_view source,
                                            const DesiredHyperNode& wanted, kube::Client& client) {
  auto fresh = client.get(resources::hypernodes, "", name);
  if (!fresh) {
    if (fresh.error().kind == kube::ErrorKind::NotFound) return nlohmann::json(nullptr);
    return api::Unexpected{"re-reading: " + fresh.error().describe()};
  }
  volcano::HyperNode current;
  try {
    volcano::decode_hyper_node(*fresh, current);
  } catch (const volcano::DecodeError& e) {
    return api::Unexpected{std::string("re-reading: ") + e.what()};
  }
  const ReconcilePlan again = plan_reconcile(source, {wanted}, {&current});
  if (again.updates.empty()) return nlohmann::json(nullptr);
  return again.updates.front().patch;
}

bool update(const UpdateHyperNode& u, std::string_view source,
            const std::vector<DesiredHyperNode>& desired, kube::Client& client) {
  nlohmann::json patch = u.patch;
  for (int attempt = 1;; ++attempt) {
    auto r = client.patch(resources::hypernodes, "", u.name, kube::PatchType::Merge, patch.dump());
    if (r) {
      VC_LOG_INFO("updated HyperNode", kv("hypernode", u.name), kv("source", source));
      return true;
    }
    if (r.error().kind != kube::ErrorKind::Conflict || attempt >= kUpdateTries) {
      VC_LOG_ERROR("failed to update HyperNode", kv("hypernode", u.name), kv("source", source),
                   kv("error", r.error().describe()));
      return false;
    }
    const auto wanted = std::find_if(desired.begin(), desired.end(),
                                     [&](const DesiredHyperNode& d) { return d.name == u.name; });
    if (wanted == desired.end()) return false;  // the plan comes from desired: not reached
    auto again = replan_update(u.name, source, *wanted, client);
    if (!again) {
      VC_LOG_ERROR("failed to update HyperNode", kv("hypernode", u.name), kv("source", source),
                   kv("error", again.error()));
      return false;
    }
    if (again->is_null()) return true;
    patch = std::move(*again);
  }
}

}  // namespace

RoundOutcome execute_plan(const ReconcilePlan& plan, std::string_view source,
                          const std::vector<DesiredHyperNode>& desired, kube::Client& client) {
  RoundOutcome out;
  const auto count = [&out](bool ok) { ++(ok ? out.written : out.failed); };
  for (const CreateHyperNode& c : plan.creates) {
    auto r = client.create(resources::hypernodes, "", encode_hyper_node(c.hyper_node));
    if (r) {
      VC_LOG_INFO("created HyperNode", kv("hypernode", c.hyper_node.name), kv("source", source));
    } else {
      // AlreadyExists: a HyperNode of that name that the source does not own (or one the cache
      // has not shown yet); logged, as in Volcano.
      VC_LOG_ERROR("failed to create HyperNode", kv("hypernode", c.hyper_node.name),
                   kv("source", source), kv("error", r.error().describe()));
    }
    count(r.ok());
  }
  for (const UpdateHyperNode& u : plan.updates) count(update(u, source, desired, client));
  for (const DeleteHyperNode& d : plan.deletes) {
    auto r = client.remove(resources::hypernodes, "", d.name);
    const bool gone = r.ok() || r.error().kind == kube::ErrorKind::NotFound;
    if (gone) {
      VC_LOG_INFO("deleted HyperNode", kv("hypernode", d.name), kv("source", source));
    } else {
      VC_LOG_ERROR("failed to delete HyperNode", kv("hypernode", d.name), kv("source", source),
                   kv("error", r.error().describe()));
    }
    count(gone);
  }
  return out;
}

std::string write_node_count(kube::Client& client, const std::string& name,
                             const nlohmann::json& patch) {
  auto r = client.patch(resources::hypernodes, "", name, kube::PatchType::Merge, patch.dump(),
                        {.field_manager = "", .force = false, .subresource = "status"});
  if (r) return "";
  return "writing status.nodeCount of HyperNode " + name + ": " + r.error().describe();
}

}  // namespace vc::controllers::hypernode

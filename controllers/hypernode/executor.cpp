#include "controllers/hypernode/executor.h"

#include <algorithm>
#include <optional>

#include "common/kube/resource.h"
#include "common/log/log.h"

namespace vc::controllers::hypernode {
namespace {

using log::kv;
namespace resources = kube::resources;

// The HyperNode as the API server has it now: null when it is gone.
api::Expected<std::optional<volcano::HyperNode>> read_fresh(const std::string& name,
                                                            kube::Client& client) {
  auto fresh = client.get(resources::hypernodes, "", name);
  if (!fresh) {
    if (fresh.error().kind == kube::ErrorKind::NotFound) {
      return std::optional<volcano::HyperNode>();
    }
    return api::Unexpected{"re-reading: " + fresh.error().describe()};
  }
  volcano::HyperNode current;
  try {
    volcano::decode_hyper_node(*fresh, current);
  } catch (const volcano::DecodeError& e) {
    return api::Unexpected{std::string("re-reading: ") + e.what()};
  }
  return std::optional<volcano::HyperNode>(std::move(current));
}

// A conflicting update, planned again from the HyperNode as the API server has it now: the patch
// to send, or null when there is nothing left to do (gone, no longer ours, already as wanted).
api::Expected<nlohmann::json> replan_update(const std::string& name, std::string_view source,
                                            const DesiredHyperNode& wanted, kube::Client& client) {
  auto current = read_fresh(name, client);
  if (!current) return api::Unexpected{current.error()};
  if (!*current) return nlohmann::json(nullptr);
  const ReconcilePlan again = plan_reconcile(source, {wanted}, {&**current});
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

// A create refused with AlreadyExists. Either the source made that HyperNode in an earlier round
// that the cache had not shown when this round was planned (label names are derived, so a
// repeated round names the same HyperNode): it is brought to this round's result as a
// conflicting update would be, or this round's later members would be lost until the next
// trigger. Or it is not the source's: the create's error is logged, as in Volcano.
bool create_exists(const DesiredHyperNode& wanted, std::string_view source,
                   const std::string& create_error, kube::Client& client) {
  const auto fail = [&](const std::string& error) {
    VC_LOG_ERROR("failed to create HyperNode", kv("hypernode", wanted.name), kv("source", source),
                 kv("error", error));
    return false;
  };
  auto current = read_fresh(wanted.name, client);
  if (!current) return fail(create_error + "; " + current.error());
  if (!*current) return fail(create_error + "; then gone when re-read");  // its delete re-queues
  const std::string* owner = (*current)->label(kSourceLabel);
  if (owner == nullptr || *owner != source) return fail(create_error);
  const ReconcilePlan again = plan_reconcile(source, {wanted}, {&**current});
  if (again.updates.empty()) return true;  // already as wanted
  return update(again.updates.front(), source, {wanted}, client);
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
      count(true);
    } else if (r.error().kind == kube::ErrorKind::AlreadyExists) {
      count(create_exists(c.hyper_node, source, r.error().describe(), client));
    } else {
      VC_LOG_ERROR("failed to create HyperNode", kv("hypernode", c.hyper_node.name),
                   kv("source", source), kv("error", r.error().describe()));
      count(false);
    }
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

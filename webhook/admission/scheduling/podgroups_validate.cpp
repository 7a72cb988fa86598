// /podgroups/validate (spec webhook.md §2.4).

#include "common/go/strconv.h"
#include "common/volcano/go_types.h"
#include "webhook/admission/field_error.h"
#include "webhook/admission/request_checks.h"
#include "webhook/admission/scheduling/admit.h"
#include "webhook/admission/scheduling/offline.h"
#include "webhook/admission/scheduling/podgroup_request.h"
#include "webhook/admission/scheduling/queue_model.h"

namespace vc::webhook::scheduling {
namespace {

constexpr const char* kBothTierFields =
    "must not specify 'highestTierAllowed' and 'highestTierName' in networkTopology "
    "simultaneously.";

// The queue must be known and Open. Volcano's message keeps its trailing ". ".
std::string queue_state_message(const std::string& queue_name, const ClusterView& view,
                                std::vector<std::string>& warnings) {
  if (queue_name.empty()) return {};
  if (!view.online()) {
    warnings.push_back(skipped_offline("the state check of queue " + go::quote(queue_name)));
    return {};
  }
  auto queue = view.get_queue(queue_name);
  if (!queue.ok()) return "unable to find queue: " + queue.error();
  const QueueModel model = read_queue(*queue);
  if (model.state == "Open") return {};
  return "can only submit PodGroup to queue with state `Open`, queue `" + model.name +
         "` status is `" + model.state + "`. ";
}

bool sets_both_tier_fields(const std::optional<volcano::NetworkTopology>& topology) {
  return topology && topology->highest_tier_allowed && !topology->highest_tier_name.empty();
}

// The pod group's own networkTopology, then the first subGroupPolicy entry that sets both.
std::string topology_message(const volcano::PodGroupSpec& spec) {
  std::vector<std::string> pieces;
  if (sets_both_tier_fields(spec.network_topology)) pieces.push_back(kBothTierFields);
  for (const volcano::SubGroupPolicy& policy : spec.sub_group_policy) {
    if (sets_both_tier_fields(policy.network_topology)) {
      pieces.push_back("in subGroupPolicy '" + policy.name + "': " + kBothTierFields);
      break;
    }
  }
  std::string out;
  for (const auto& piece : pieces) out += (out.empty() ? "" : " ") + piece;
  return out;
}

}  // namespace

AdmissionResponse admit_podgroups_validate(const AdmissionRequest& request, const ClusterView& view,
                                           const AdmissionOptions& /*options*/) {
  if (auto e = check_and_decode(request, kPodGroupsResource, volcano::go_types::podgroup())) {
    return AdmissionResponse::deny(*e);
  }
  if (request.operation != "CREATE") {
    return AdmissionResponse::deny("unsupported operation " + request.operation);
  }
  auto podgroup = decode_podgroup_request(request);
  if (!podgroup) return AdmissionResponse::deny(podgroup.error());
  AdmissionResponse response;
  const std::string message = queue_state_message(podgroup->spec.queue, view, response.warnings) +
                              topology_message(podgroup->spec);
  if (!message.empty()) {
    response.allowed = false;
    response.message = message;
  }
  return response;
}

}  // namespace vc::webhook::scheduling

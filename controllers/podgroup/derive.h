#pragma once
// The PodGroup the pg-controller builds for a pod that has none
// (spec controller-manager.md §3.2-§3.3), as pure functions of a pod snapshot, the merged
// annotations of the pod's owners, the options and the clock. The executor (executor.h) fetches the
// owner annotations and writes the result.
//
// Threads: pure functions; callable from any thread.

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/api/resource_list.h"
#include "common/api/time.h"
#include "controllers/framework/controller.h"
#include "controllers/views/pod_view.h"

namespace vc::controllers::podgroup {

// Keys (spec controller-manager.md §6.1).
inline constexpr std::string_view kPodGroupNamePrefix = "podgroup-";
inline constexpr std::string_view kGroupMinMemberAnnotation =
    "scheduling.volcano.sh/group-min-member";
inline constexpr std::string_view kQueueNameAnnotation = "scheduling.volcano.sh/queue-name";
inline constexpr std::string_view kVolcanoPrefix = "volcano.sh/";
inline constexpr std::string_view kPreemptableKey = "volcano.sh/preemptable";
inline constexpr std::string_view kCooldownTimeKey = "volcano.sh/cooldown-time";
inline constexpr std::string_view kRevocableZoneKey = "volcano.sh/revocable-zone";
inline constexpr std::string_view kJdbMinAvailableKey = "volcano.sh/jdb-min-available";
inline constexpr std::string_view kJdbMaxUnavailableKey = "volcano.sh/jdb-max-unavailable";
inline constexpr std::string_view kNetworkTopologyModeKey = "volcano.sh/network-topology-mode";
inline constexpr std::string_view kNetworkTopologyTierKey =
    "volcano.sh/network-topology-highest-tier";

// Annotations of the pod's owners merged in ownerReference order, the first owner winning per key
// (spec controller-manager.md §3.3). Empty when --inherit-owner-annotations is off.
using OwnerAnnotations = std::map<std::string, std::string, std::less<>>;

// "podgroup-" + UID of the pod's controller reference, else + the pod's UID
// (spec controller-manager.md §3.2 step 4).
std::string podgroup_name(const views::PodView& pod);

// Kubernetes' quota usage of the pod (spec controller-manager.md §3.3): count/pods always; unless
// the pod is Succeeded/Failed or past its deletion grace period, also pods,
// cpu/memory/ephemeral-storage with their requests./limits. forms, hugepages-* and
// requests.hugepages-*, and requests.<X> for every extended resource X.
api::ResourceList pod_quota_usage(const views::PodView& pod, api::TimePoint now);

// spec.minResources: the usage summed min_member times, plus for every non-native
// "requests.<X>" key a copy named <X>.
api::ResourceList min_resources(const views::PodView& pod, std::int32_t min_member,
                                api::TimePoint now);

struct DerivedPodGroup {
  nlohmann::json object;              // the PodGroup to create
  std::vector<std::string> warnings;  // invalid annotations that were replaced by defaults
};

// The PodGroup for the pod (spec controller-manager.md §3.3). owner holds the merged owner
// annotations; they are used only when options.inherit_owner_annotations is set.
DerivedPodGroup derive_podgroup(const views::PodView& pod, const OwnerAnnotations& owner,
                                const ControllerOptions& options, api::TimePoint now);

}  // namespace vc::controllers::podgroup

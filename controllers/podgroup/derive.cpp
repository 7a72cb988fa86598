#include "controllers/podgroup/derive.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <limits>
#include <optional>

#include "controllers/views/pod_resources.h"

namespace vc::controllers::podgroup {

namespace {

using nlohmann::json;

// Go's strconv.ParseInt(s, 10, bits): optional sign, then decimal digits only.
std::optional<std::int64_t> parse_int(std::string_view s, std::int64_t min, std::int64_t max) {
  bool negative = false;
  if (!s.empty() && (s.front() == '+' || s.front() == '-')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  if (s.empty()) return std::nullopt;
  __int128 v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
    if (v > static_cast<__int128>(max) + 1) return std::nullopt;
  }
  if (negative) v = -v;
  if (v < min || v > max) return std::nullopt;
  return static_cast<std::int64_t>(v);
}

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

bool past_deletion_grace(const views::PodView& pod, api::TimePoint now) {
  if (!pod.deletion_timestamp || !pod.deletion_grace_period_seconds) return false;
  return now > *pod.deletion_timestamp + std::chrono::seconds(*pod.deletion_grace_period_seconds);
}

std::int32_t min_member_of(const OwnerAnnotations& owner, bool inherit,
                           std::vector<std::string>& warnings) {
  if (!inherit) return 1;
  auto it = owner.find(kGroupMinMemberAnnotation);
  if (it == owner.end()) return 1;
  auto v = parse_int(it->second, std::numeric_limits<std::int32_t>::min(),
                     std::numeric_limits<std::int32_t>::max());
  if (!v || *v < 0) {
    warnings.push_back("invalid " + std::string(kGroupMinMemberAnnotation) + " \"" + it->second +
                       "\" on the pod's owner; using minMember 1");
    return 1;
  }
  return static_cast<std::int32_t>(*v);
}

std::optional<json> network_topology(const views::PodView& pod,
                                     std::vector<std::string>& warnings) {
  const std::string* mode = pod.annotation(kNetworkTopologyModeKey);
  const std::string* tier = pod.annotation(kNetworkTopologyTierKey);
  if (!mode && !tier) return std::nullopt;
  json nt = {{"mode", "hard"}};
  if (mode) {
    const std::string m = lower(*mode);
    if (m == "hard" || m == "soft") {
      nt["mode"] = m;
    } else {
      warnings.push_back("invalid " + std::string(kNetworkTopologyModeKey) + " \"" + *mode +
                         "\"; using hard");
    }
  }
  if (tier) {
    auto t = parse_int(*tier, std::numeric_limits<std::int64_t>::min(),
                       std::numeric_limits<std::int64_t>::max());
    if (t) {
      nt["highestTierAllowed"] = *t;
    } else {
      warnings.push_back("invalid " + std::string(kNetworkTopologyTierKey) + " \"" + *tier +
                         "\"; leaving highestTierAllowed unset");
    }
  }
  return nt;
}

json owner_references(const views::PodView& pod) {
  json refs = json::array();
  if (pod.controller_ref()) {
    for (const auto& r : pod.owner_references) refs.push_back(r.to_owner_ref());
  } else {
    refs.push_back(api::make_controller_ref("v1", "Pod", pod.name, pod.uid));
  }
  return refs;
}

}  // namespace

std::string podgroup_name(const views::PodView& pod) {
  const views::OwnerRefView* ref = pod.controller_ref();
  return std::string(kPodGroupNamePrefix) + (ref ? ref->uid : pod.uid);
}

api::ResourceList pod_quota_usage(const views::PodView& pod, api::TimePoint now) {
  if (pod.phase == "Succeeded" || pod.phase == "Failed" || past_deletion_grace(pod, now)) {
    return {{"count/pods", api::Quantity::from_int(1)}};
  }
  return views::quota_pod_usage(views::to_resource_list(pod.requests),
                                views::to_resource_list(pod.limits));
}

api::ResourceList min_resources(const views::PodView& pod, std::int32_t min_member,
                                api::TimePoint now) {
  const api::ResourceList usage = pod_quota_usage(pod, now);
  api::ResourceList total;
  // Summed min_member times, as Volcano does: the first pass copies each quantity (keeping its
  // printed text), later passes add (printing canonically).
  for (std::int32_t i = 0; i < min_member; ++i) api::add_to(total, usage);
  views::add_unprefixed_requests(total);
  return total;
}

DerivedPodGroup derive_podgroup(const views::PodView& pod, const OwnerAnnotations& owner,
                                const ControllerOptions& options, api::TimePoint now) {
  DerivedPodGroup out;
  const bool inherit = options.inherit_owner_annotations;
  const std::int32_t min_member = min_member_of(owner, inherit, out.warnings);

  json annotations = json::object();
  json labels = json::object();
  if (inherit) {
    for (const auto& [k, v] : owner) {
      if (std::string_view(k).starts_with(kVolcanoPrefix)) annotations[k] = v;
    }
  }
  for (std::string_view key : {kPreemptableKey, kCooldownTimeKey, kRevocableZoneKey}) {
    if (const std::string* v = pod.annotation(key)) annotations[std::string(key)] = *v;
  }
  for (std::string_view key : {kPreemptableKey, kCooldownTimeKey}) {
    if (const std::string* v = pod.label(key)) labels[std::string(key)] = *v;
  }
  if (const std::string* v = pod.annotation(kJdbMinAvailableKey)) {
    annotations[std::string(kJdbMinAvailableKey)] = *v;
  } else if (const std::string* w = pod.annotation(kJdbMaxUnavailableKey)) {
    annotations[std::string(kJdbMaxUnavailableKey)] = *w;
  }

  json metadata = {{"name", podgroup_name(pod)},
                   {"namespace", pod.namespace_},
                   {"ownerReferences", owner_references(pod)}};
  if (!annotations.empty()) metadata["annotations"] = std::move(annotations);
  if (!labels.empty()) metadata["labels"] = std::move(labels);

  // Go's omitempty drops a zero minMember and empty strings; minResources is a pointer, so an
  // empty list is still sent as {}.
  json spec = json::object();
  if (min_member != 0) spec["minMember"] = min_member;
  spec["minResources"] = min_resources(pod, min_member, now);
  if (const std::string* q = pod.annotation(kQueueNameAnnotation); q && !q->empty()) {
    spec["queue"] = *q;
  }
  if (!pod.priority_class_name.empty()) spec["priorityClassName"] = pod.priority_class_name;
  if (auto nt = network_topology(pod, out.warnings)) spec["networkTopology"] = std::move(*nt);

  out.object = {{"apiVersion", "scheduling.volcano.sh/v1beta1"},
                {"kind", "PodGroup"},
                {"metadata", std::move(metadata)},
                {"spec", std::move(spec)},
                {"status", {{"phase", "Pending"}}}};
  return out;
}

}  // namespace vc::controllers::podgroup

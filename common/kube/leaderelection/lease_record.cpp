#include "common/kube/leaderelection/lease_record.h"

#include "common/kube/resource.h"

namespace vc::kube::leaderelection {
namespace {

using nlohmann::json;

std::optional<WallTime> time_field(const json& spec, const char* key) {
  const auto it = spec.find(key);
  if (it == spec.end() || !it->is_string()) return std::nullopt;
  return parse_time(it->get_ref<const std::string&>());
}

int int_field(const json& spec, const char* key) {
  const auto it = spec.find(key);
  return it != spec.end() && it->is_number_integer() ? it->get<int>() : 0;
}

}  // namespace

LeaseRecord record_from_lease(const json& lease) {
  LeaseRecord r;
  const auto spec = lease.find("spec");
  if (spec == lease.end() || !spec->is_object()) return r;
  const auto holder = spec->find("holderIdentity");
  if (holder != spec->end() && holder->is_string()) r.holder_identity = holder->get<std::string>();
  r.lease_duration_seconds = int_field(*spec, "leaseDurationSeconds");
  r.acquire_time = time_field(*spec, "acquireTime");
  r.renew_time = time_field(*spec, "renewTime");
  r.lease_transitions = int_field(*spec, "leaseTransitions");
  return r;
}

void put_record(json& lease, const LeaseRecord& record) {
  json& spec = lease["spec"];
  if (!spec.is_object()) spec = json::object();
  spec["holderIdentity"] = record.holder_identity;
  spec["leaseDurationSeconds"] = record.lease_duration_seconds;
  if (record.acquire_time) {
    spec["acquireTime"] = format_micro_time(*record.acquire_time);
  } else {
    spec.erase("acquireTime");
  }
  if (record.renew_time) {
    spec["renewTime"] = format_micro_time(*record.renew_time);
  } else {
    spec.erase("renewTime");
  }
  spec["leaseTransitions"] = record.lease_transitions;
}

json make_lease(std::string_view ns, std::string_view name, const LeaseRecord& record) {
  json lease = {{"apiVersion", resources::leases.api_version()},
                {"kind", std::string(resources::leases.kind)},
                {"metadata", {{"name", std::string(name)}, {"namespace", std::string(ns)}}}};
  put_record(lease, record);
  return lease;
}

}  // namespace vc::kube::leaderelection

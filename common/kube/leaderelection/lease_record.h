#pragma once
// LeaseRecord: the leader-election fields of a coordination.k8s.io/v1 Lease's spec, and their
// mapping to and from the Lease JSON. Other fields of the object are left as they are.

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/kube/leaderelection/micro_time.h"

namespace vc::kube::leaderelection {

struct LeaseRecord {
  std::string holder_identity;  // "" = nobody (e.g. released)
  int lease_duration_seconds = 0;
  std::optional<WallTime> acquire_time;
  std::optional<WallTime> renew_time;
  int lease_transitions = 0;

  bool operator==(const LeaseRecord&) const = default;
};

// Reads spec; absent or malformed fields read as their zero value (the API server validates
// Leases, so that only happens with objects written by hand).
LeaseRecord record_from_lease(const nlohmann::json& lease);

// Sets the record's fields in lease.spec, keeping every other field of the object.
void put_record(nlohmann::json& lease, const LeaseRecord& record);

// A new Lease object named name in namespace ns holding record.
nlohmann::json make_lease(std::string_view ns, std::string_view name, const LeaseRecord& record);

}  // namespace vc::kube::leaderelection

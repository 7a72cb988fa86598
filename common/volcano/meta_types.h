#pragma once
// The small Kubernetes types several Volcano kinds embed, typed and decoded with the rules of
// json_read.h (missing or null = zero value, unknown members ignored, a wrong JSON type throws
// DecodeError naming the field):
//   - metav1.OwnerReference (a Command's target) as api::OwnerRef;
//   - v1.ObjectReference (a CronJob's status.active);
//   - metav1.Condition (a HyperNode's status.conditions);
//   - metav1.LabelSelector (a HyperNode member's labelMatch), as written: api::LabelSelector
//     compiles and validates it where a controller matches labels.
// The encoders write what Go's encoding/json writes for the same values (json_write.h).
//
// Threads: plain values and pure functions.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/api/owner_ref.h"
#include "common/api/time.h"
#include "common/volcano/json_read.h"

namespace vc::volcano {

struct ObjectReference {
  std::string kind;
  std::string namespace_;
  std::string name;
  std::string uid;
  std::string api_version;
  std::string resource_version;
  std::string field_path;
  friend bool operator==(const ObjectReference&, const ObjectReference&) = default;
};

// metav1.Condition.
struct Condition {
  std::string type;
  std::string status;  // "True", "False", "Unknown"
  std::int64_t observed_generation = 0;
  std::optional<api::TimePoint> last_transition_time;
  std::string reason;
  std::string message;
  friend bool operator==(const Condition&, const Condition&) = default;
};

struct LabelSelectorRequirement {
  std::string key;
  std::string operator_;  // "In", "NotIn", "Exists", "DoesNotExist"; not checked here
  std::vector<std::string> values;
  friend bool operator==(const LabelSelectorRequirement&,
                         const LabelSelectorRequirement&) = default;
};

struct LabelSelector {
  std::map<std::string, std::string> match_labels;
  std::vector<LabelSelectorRequirement> match_expressions;
  friend bool operator==(const LabelSelector&, const LabelSelector&) = default;
};

// The member `name` of `object`; nullopt when absent or null (Go's nil pointer).
std::optional<api::OwnerRef> owner_ref_at(const nlohmann::json& object, std::string_view name,
                                          const FieldPath& at);
// metadata.ownerReferences and the like; empty when absent or null.
std::vector<api::OwnerRef> owner_refs_at(const nlohmann::json& object, std::string_view name,
                                         const FieldPath& at);
std::optional<LabelSelector> label_selector_at(const nlohmann::json& object, std::string_view name,
                                               const FieldPath& at);
// The list member `name` of `object`; empty when absent or null.
std::vector<ObjectReference> object_references_at(const nlohmann::json& object,
                                                  std::string_view name, const FieldPath& at);
std::vector<Condition> conditions_at(const nlohmann::json& object, std::string_view name,
                                     const FieldPath& at);

// Every member `omitempty`.
nlohmann::json encode_object_reference(const ObjectReference& ref);
// type, status, reason and message always; observedGeneration when non-zero;
// lastTransitionTime always (null when unset).
nlohmann::json encode_condition(const Condition& condition);

}  // namespace vc::volcano

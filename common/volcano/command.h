#pragma once
// The Volcano Command (bus.volcano.sh/v1alpha1), typed: a request to act on another object,
// which the job and queue controllers read, delete and turn into work
// (spec job-controller.md §6, spec controller-manager.md §2.3). Its `target` is a
// metav1.OwnerReference naming the object; `action` is kept verbatim (any string is accepted
// and each controller decides what it means).
//
// Decoding follows json_read.h: a Command with a member of the wrong JSON type throws
// DecodeError naming the field, as Go's client would fail to decode it (and never deliver it).
//
// Threads: plain values and pure functions.

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/api/expected.h"
#include "common/api/owner_ref.h"
#include "common/volcano/json_read.h"
#include "common/volcano/object_meta.h"

namespace vc::volcano {

inline constexpr const char* kCommandApiVersion = "bus.volcano.sh/v1alpha1";
inline constexpr const char* kCommandKind = "Command";

struct Command : ObjectMeta {
  std::string action;
  std::optional<api::OwnerRef> target;  // nullopt: no target (Go's nil pointer)
  std::string reason;
  std::string message;

  // Whether the target is set with exactly this apiVersion and kind (both case-sensitive).
  bool targets(std::string_view api_version, std::string_view kind) const;
};

// Decodes a whole Command (metadata, action, target, reason, message) into out. Throws
// DecodeError.
void decode_command(const nlohmann::json& command, Command& out,
                    const FieldPath& root = FieldPath());
// The same, the error as a value: for readers that skip a Command that does not decode.
api::Expected<Command> command_from_json(const nlohmann::json& command);

}  // namespace vc::volcano

#pragma once
// Owner references (metav1.OwnerReference) on objects held as nlohmann::json: building the
// controller reference a controller puts on what it creates, and asking who controls an object
// (metav1.GetControllerOf / IsControlledBy semantics).
//
// The readers never throw: an object without metadata, or without ownerReferences, simply has
// no owners, and entries that are not owner references (missing or non-string apiVersion,
// kind, name or uid) are skipped, since the API server never stores such entries.
//
// Threads: plain values and pure functions; safe from any thread on distinct or const data.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/api/expected.h"

namespace vc::api {

struct OwnerRef {
  std::string api_version;
  std::string kind;
  std::string name;
  std::string uid;
  std::optional<bool> controller;
  std::optional<bool> block_owner_deletion;

  bool is_controller() const { return controller.value_or(false); }
  friend bool operator==(const OwnerRef&, const OwnerRef&) = default;
};

// {"apiVersion", "kind", "name", "uid", "controller"?, "blockOwnerDeletion"?}; unset optionals
// are omitted. from_json throws nlohmann::json exceptions on a malformed reference.
void to_json(nlohmann::json& j, const OwnerRef& ref);
void from_json(const nlohmann::json& j, OwnerRef& ref);
// Non-throwing decode; the error names the missing or mistyped field.
Expected<OwnerRef> owner_ref_from_json(const nlohmann::json& j);

// The reference a controller sets on objects it creates: controller=true and
// blockOwnerDeletion=true, so garbage collection deletes them with the owner and foreground
// deletion of the owner waits for them.
OwnerRef make_controller_ref(std::string api_version, std::string kind, std::string name,
                             std::string uid);

// metadata.ownerReferences of an object.
std::vector<OwnerRef> owner_refs_of(const nlohmann::json& object);
// The first reference with controller=true, if any.
std::optional<OwnerRef> controller_of(const nlohmann::json& object);
// True when the object's controller reference has this uid.
bool is_controlled_by(const nlohmann::json& object, std::string_view uid);
// True when any owner reference has this uid.
bool has_owner(const nlohmann::json& object, std::string_view uid);

// Adds ref to metadata.ownerReferences (creating metadata and the list as needed), replacing
// an existing entry with the same uid. Programmer error (std::invalid_argument) if object is
// not a JSON object.
void set_owner_ref(nlohmann::json& object, const OwnerRef& ref);

}  // namespace vc::api

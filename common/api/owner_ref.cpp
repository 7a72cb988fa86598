#include "common/api/owner_ref.h"

#include <stdexcept>

namespace vc::api {
namespace {

using nlohmann::json;

// metadata.ownerReferences, or nullptr when absent or not a list.
const json* owner_list(const json& object) {
  if (!object.is_object()) return nullptr;
  auto metadata = object.find("metadata");
  if (metadata == object.end() || !metadata->is_object()) return nullptr;
  auto refs = metadata->find("ownerReferences");
  if (refs == metadata->end() || !refs->is_array()) return nullptr;
  return &*refs;
}

std::optional<std::string> error_for(const json& j, const char* field, bool required_string) {
  auto it = j.find(field);
  if (it == j.end() || it->is_null()) {
    if (required_string) return std::string(field) + ": Required value";
    return std::nullopt;
  }
  if (required_string ? !it->is_string() : !it->is_boolean()) {
    return std::string(field) + ": Invalid value: " + it->dump() + ": must be a " +
           (required_string ? "string" : "boolean");
  }
  return std::nullopt;
}

}  // namespace

void to_json(json& j, const OwnerRef& ref) {
  j = json{
      {"apiVersion", ref.api_version}, {"kind", ref.kind}, {"name", ref.name}, {"uid", ref.uid}};
  if (ref.controller) j["controller"] = *ref.controller;
  if (ref.block_owner_deletion) j["blockOwnerDeletion"] = *ref.block_owner_deletion;
}

Expected<OwnerRef> owner_ref_from_json(const json& j) {
  if (!j.is_object()) {
    return Unexpected{"owner reference must be a JSON object, got " + std::string(j.type_name())};
  }
  for (const char* field : {"apiVersion", "kind", "name", "uid"}) {
    if (auto err = error_for(j, field, true)) return Unexpected{*err};
  }
  for (const char* field : {"controller", "blockOwnerDeletion"}) {
    if (auto err = error_for(j, field, false)) return Unexpected{*err};
  }
  OwnerRef ref;
  ref.api_version = j.at("apiVersion").get<std::string>();
  ref.kind = j.at("kind").get<std::string>();
  ref.name = j.at("name").get<std::string>();
  ref.uid = j.at("uid").get<std::string>();
  if (auto it = j.find("controller"); it != j.end() && it->is_boolean()) {
    ref.controller = it->get<bool>();
  }
  if (auto it = j.find("blockOwnerDeletion"); it != j.end() && it->is_boolean()) {
    ref.block_owner_deletion = it->get<bool>();
  }
  return ref;
}

void from_json(const json& j, OwnerRef& ref) {
  auto parsed = owner_ref_from_json(j);
  if (!parsed) throw json::other_error::create(599, "owner reference: " + parsed.error(), &j);
  ref = std::move(parsed).value();
}

OwnerRef make_controller_ref(std::string api_version, std::string kind, std::string name,
                             std::string uid) {
  return OwnerRef{
      std::move(api_version), std::move(kind), std::move(name), std::move(uid), true, true};
}

std::vector<OwnerRef> owner_refs_of(const json& object) {
  std::vector<OwnerRef> refs;
  if (const json* list = owner_list(object)) {
    for (const auto& entry : *list) {
      if (auto ref = owner_ref_from_json(entry)) refs.push_back(std::move(ref).value());
    }
  }
  return refs;
}

std::optional<OwnerRef> controller_of(const json& object) {
  if (const json* list = owner_list(object)) {
    for (const auto& entry : *list) {
      auto ref = owner_ref_from_json(entry);
      if (ref && ref->is_controller()) return std::move(ref).value();
    }
  }
  return std::nullopt;
}

bool is_controlled_by(const json& object, std::string_view uid) {
  auto ref = controller_of(object);
  return ref && ref->uid == uid;
}

bool has_owner(const json& object, std::string_view uid) {
  if (const json* list = owner_list(object)) {
    for (const auto& entry : *list) {
      auto ref = owner_ref_from_json(entry);
      if (ref && ref->uid == uid) return true;
    }
  }
  return false;
}

void set_owner_ref(json& object, const OwnerRef& ref) {
  if (!object.is_object()) {
    throw std::invalid_argument("set_owner_ref: the object must be a JSON object");
  }
  json& metadata = object["metadata"];
  if (!metadata.is_object()) metadata = json::object();
  json& refs = metadata["ownerReferences"];
  if (!refs.is_array()) refs = json::array();
  for (auto& entry : refs) {
    if (entry.is_object() && entry.value("uid", json()) == ref.uid) {
      entry = ref;
      return;
    }
  }
  refs.push_back(ref);
}

}  // namespace vc::api

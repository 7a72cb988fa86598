#include "common/volcano/meta_types.h"

#include "common/volcano/json_write.h"

namespace vc::volcano {

using nlohmann::json;

namespace {

api::OwnerRef owner_ref(const json& ref, const FieldPath& p) {
  api::OwnerRef out;
  out.api_version = read::string_at(ref, "apiVersion", p);
  out.kind = read::string_at(ref, "kind", p);
  out.name = read::string_at(ref, "name", p);
  out.uid = read::string_at(ref, "uid", p);
  out.controller = read::opt_bool_at(ref, "controller", p);
  out.block_owner_deletion = read::opt_bool_at(ref, "blockOwnerDeletion", p);
  return out;
}

}  // namespace

std::optional<api::OwnerRef> owner_ref_at(const json& object, std::string_view name,
                                          const FieldPath& at) {
  const json* ref = read::object_at(object, name, at);
  if (ref == nullptr) return std::nullopt;
  return owner_ref(*ref, at.key(name));
}

std::vector<api::OwnerRef> owner_refs_at(const json& object, std::string_view name,
                                         const FieldPath& at) {
  std::vector<api::OwnerRef> out;
  read::each_at(object, name, at,
                [&](const json& ref, const FieldPath& p) { out.push_back(owner_ref(ref, p)); });
  return out;
}

std::optional<LabelSelector> label_selector_at(const json& object, std::string_view name,
                                               const FieldPath& at) {
  const json* selector = read::object_at(object, name, at);
  if (selector == nullptr) return std::nullopt;
  const FieldPath p = at.key(name);
  LabelSelector out;
  out.match_labels = read::string_map_at(*selector, "matchLabels", p);
  read::each_at(*selector, "matchExpressions", p, [&](const json& e, const FieldPath& ep) {
    out.match_expressions.push_back({read::string_at(e, "key", ep),
                                     read::string_at(e, "operator", ep),
                                     read::strings_at(e, "values", ep)});
  });
  return out;
}

std::vector<ObjectReference> object_references_at(const json& object, std::string_view name,
                                                  const FieldPath& at) {
  std::vector<ObjectReference> out;
  read::each_at(object, name, at, [&](const json& r, const FieldPath& rp) {
    ObjectReference ref;
    ref.kind = read::string_at(r, "kind", rp);
    ref.namespace_ = read::string_at(r, "namespace", rp);
    ref.name = read::string_at(r, "name", rp);
    ref.uid = read::string_at(r, "uid", rp);
    ref.api_version = read::string_at(r, "apiVersion", rp);
    ref.resource_version = read::string_at(r, "resourceVersion", rp);
    ref.field_path = read::string_at(r, "fieldPath", rp);
    out.push_back(std::move(ref));
  });
  return out;
}

std::vector<Condition> conditions_at(const json& object, std::string_view name,
                                     const FieldPath& at) {
  std::vector<Condition> out;
  read::each_at(object, name, at, [&](const json& c, const FieldPath& cp) {
    Condition cond;
    cond.type = read::string_at(c, "type", cp);
    cond.status = read::string_at(c, "status", cp);
    cond.observed_generation = read::int64_at(c, "observedGeneration", cp);
    cond.last_transition_time = read::time_at(c, "lastTransitionTime", cp);
    cond.reason = read::string_at(c, "reason", cp);
    cond.message = read::string_at(c, "message", cp);
    out.push_back(std::move(cond));
  });
  return out;
}

json encode_object_reference(const ObjectReference& ref) {
  json out = json::object();
  write::nonempty(out, "kind", ref.kind);
  write::nonempty(out, "namespace", ref.namespace_);
  write::nonempty(out, "name", ref.name);
  write::nonempty(out, "uid", ref.uid);
  write::nonempty(out, "apiVersion", ref.api_version);
  write::nonempty(out, "resourceVersion", ref.resource_version);
  write::nonempty(out, "fieldPath", ref.field_path);
  return out;
}

json encode_condition(const Condition& c) {
  json out = {{"type", c.type},
              {"status", c.status},
              {"lastTransitionTime", write::time_or_null(c.last_transition_time)},
              {"reason", c.reason},
              {"message", c.message}};
  write::nonzero(out, "observedGeneration", c.observed_generation);
  return out;
}

}  // namespace vc::volcano

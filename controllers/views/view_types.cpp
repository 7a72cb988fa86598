#include "controllers/views/view_types.h"

#include <algorithm>

#include "controllers/views/intern.h"

namespace vc::controllers::views {

namespace {

std::string string_or_empty(const nlohmann::json& obj, const char* key) {
  auto it = obj.find(key);
  return it == obj.end() || it->is_null() ? std::string() : it->get<std::string>();
}

std::optional<bool> bool_or_unset(const nlohmann::json& obj, const char* key) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return std::nullopt;
  return it->get<bool>();
}

}  // namespace

const std::string* find_annotation(const Annotations& annotations, std::string_view key) {
  auto it = std::lower_bound(annotations.begin(), annotations.end(), key,
                             [](const Annotation& a, std::string_view k) { return a.key < k; });
  if (it == annotations.end() || it->key != key) return nullptr;
  return &it->value;
}

Annotations read_annotations(const nlohmann::json& metadata, bool (*keep)(std::string_view key)) {
  Annotations out;
  auto it = metadata.find("annotations");
  if (it == metadata.end() || !it->is_object()) return out;
  for (const auto& [k, v] : it->items()) {
    if (!keep(k)) continue;
    out.push_back({intern(k), v.is_null() ? std::string() : v.get<std::string>()});
  }
  return out;  // nlohmann objects iterate in key order: already sorted
}

api::OwnerRef OwnerRefView::to_owner_ref() const {
  return api::OwnerRef{std::string(api_version), std::string(kind), name, uid, controller,
                       block_owner_deletion};
}

std::vector<OwnerRefView> read_owner_refs(const nlohmann::json& metadata) {
  std::vector<OwnerRefView> out;
  auto it = metadata.find("ownerReferences");
  if (it == metadata.end() || !it->is_array()) return out;
  out.reserve(it->size());
  for (const nlohmann::json& ref : *it) {
    out.push_back({intern(string_or_empty(ref, "apiVersion")), intern(string_or_empty(ref, "kind")),
                   string_or_empty(ref, "name"), string_or_empty(ref, "uid"),
                   bool_or_unset(ref, "controller"), bool_or_unset(ref, "blockOwnerDeletion")});
  }
  return out;
}

const OwnerRefView* controller_of(const std::vector<OwnerRefView>& refs) {
  for (const OwnerRefView& r : refs) {
    if (r.is_controller()) return &r;
  }
  return nullptr;
}

api::Quantity ResourceAmount::to_quantity() const {
  // The text is what Kubernetes printed for the original quantity, so parsing it back gives the
  // same value and the same printed form; only a canonical form whose suffix reads as another
  // format (a BinarySI "1500" parses as DecimalSI) needs its format restored, and such a quantity
  // had no remembered text to lose.
  api::Quantity q = api::Quantity::must_parse(text);
  if (q.format() != format) q = api::Quantity::from_nanos(q.nanos(), format);
  return q;
}

ResourceAmounts to_amounts(const api::ResourceList& list) {
  ResourceAmounts out;
  out.reserve(list.size());
  for (const auto& [name, q] : list) out.push_back({intern(name), q.to_string(), q.format()});
  return out;
}

api::ResourceList to_resource_list(const ResourceAmounts& amounts) {
  api::ResourceList out;
  for (const ResourceAmount& a : amounts) out.emplace(std::string(a.name), a.to_quantity());
  return out;
}

}  // namespace vc::controllers::views

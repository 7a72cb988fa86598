#include "controllers/colocation/config_view.h"

#include <stdexcept>
#include <string>

namespace vc::controllers::colocation {

bool ColocationConfigView::selects(const kube::cache::Labels& labels) const {
  if (!match) return false;
  api::Labels map(labels.begin(), labels.end());
  return match->matches(map);
}

std::shared_ptr<ColocationConfigView> make_colocation_config_view(const nlohmann::json& object) {
  auto out = std::make_shared<ColocationConfigView>();
  kube::cache::read_metadata(object, *out);
  if (const auto meta = object.find("metadata"); meta != object.end() && meta->is_object()) {
    if (const auto ts = meta->find("creationTimestamp"); ts != meta->end() && ts->is_string()) {
      out->creation_timestamp = api::parse_time(ts->get<std::string>());
    }
  }
  const auto spec = object.find("spec");
  if (spec == object.end() || spec->is_null()) {
    out->selector = nullptr;
    out->match = api::LabelSelector::nothing();
    return out;
  }
  if (!spec->is_object()) throw std::invalid_argument("spec: expected an object");
  if (const auto sel = spec->find("selector"); sel != spec->end()) out->selector = *sel;
  auto converted = api::LabelSelector::from_json(out->selector, "spec.selector");
  if (converted) out->match = std::move(*converted);
  out->configuration = configuration_from_spec(*spec);
  return out;
}

kube::cache::Transform colocation_config_view_transform() {
  return {"colocationconfig-view", [](nlohmann::json&& object) -> kube::cache::ObjectPtr {
            return make_colocation_config_view(object);
          }};
}

ColocationConfigViewPtr as_colocation_config(const kube::cache::ObjectPtr& object) {
  return std::dynamic_pointer_cast<const ColocationConfigView>(object);
}

}  // namespace vc::controllers::colocation

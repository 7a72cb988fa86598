#pragma once
// The cached form of a config.volcano.sh/v1alpha1 ColocationConfiguration
// (spec controller-manager.md §5.6): its metadata, creation time, selector and configuration.
//
// Threads: the transform is thread-safe; cached views are immutable.

#include <memory>
#include <optional>

#include <nlohmann/json.hpp>

#include "common/api/label_selector.h"
#include "common/api/time.h"
#include "common/kube/cache/object.h"
#include "controllers/colocation/configuration.h"

namespace vc::controllers::colocation {

struct ColocationConfigView : kube::cache::Object {
  std::optional<api::TimePoint> creation_timestamp;
  nlohmann::json selector;                  // spec.selector as stored; null when absent
  std::optional<api::LabelSelector> match;  // nullopt: the selector does not convert
  Configuration configuration;

  // LabelSelectorAsSelector's answer: a missing selector matches nothing, `{}` everything, one
  // that does not convert nothing (spec controller-manager.md §5.6 "Work").
  bool selects(const kube::cache::Labels& labels) const;
};

using ColocationConfigViewPtr = std::shared_ptr<const ColocationConfigView>;

// Builds the view from the object's JSON. Throws std::invalid_argument naming the field on a
// mistyped spec (the reflector logs and skips the object).
std::shared_ptr<ColocationConfigView> make_colocation_config_view(const nlohmann::json& object);

// Named "colocationconfig-view".
kube::cache::Transform colocation_config_view_transform();

// The view of a cached object, or null for another type.
ColocationConfigViewPtr as_colocation_config(const kube::cache::ObjectPtr& object);

}  // namespace vc::controllers::colocation

#pragma once
// Small value types shared by the cached views (pod_view.h, podgroup_view.h): annotations with
// interned keys, owner references, and resource amounts kept as Kubernetes printed them.
//
// Threads: plain values; const access from any thread.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/api/owner_ref.h"
#include "common/api/quantity.h"
#include "common/api/resource_list.h"

namespace vc::controllers::views {

// One annotation; the key is interned (intern.h).
struct Annotation {
  std::string_view key;
  std::string value;
};
// Sorted by key.
using Annotations = std::vector<Annotation>;

// The value of an annotation, or null.
const std::string* find_annotation(const Annotations& annotations, std::string_view key);
// Builds a sorted list from metadata.annotations with the keys keep(key) accepts, interned.
Annotations read_annotations(const nlohmann::json& metadata, bool (*keep)(std::string_view key));

// metav1.OwnerReference; apiVersion and kind are interned.
struct OwnerRefView {
  std::string_view api_version;
  std::string_view kind;
  std::string name;
  std::string uid;
  std::optional<bool> controller;
  std::optional<bool> block_owner_deletion;

  bool is_controller() const { return controller.value_or(false); }
  api::OwnerRef to_owner_ref() const;
};
std::vector<OwnerRefView> read_owner_refs(const nlohmann::json& metadata);
// The first reference with controller=true, or null.
const OwnerRefView* controller_of(const std::vector<OwnerRefView>& refs);

// One entry of a ResourceList as text plus the Quantity's format, which is all it takes to
// rebuild the Quantity with Kubernetes' exact printing (see to_quantity) in 48 bytes instead of
// a 64-byte Quantity plus a map node. The name is interned.
struct ResourceAmount {
  std::string_view name;
  std::string text;
  api::QuantityFormat format = api::QuantityFormat::DecimalSI;

  // Equal value, format and printed form as the Quantity it was made from.
  api::Quantity to_quantity() const;
};
using ResourceAmounts = std::vector<ResourceAmount>;  // sorted by name

ResourceAmounts to_amounts(const api::ResourceList& list);
api::ResourceList to_resource_list(const ResourceAmounts& amounts);

}  // namespace vc::controllers::views

#include "common/json/release.h"

namespace vc::fastjson {
namespace {

using nlohmann::json;

void release_at(json& node, int depth) {
  // Children are emptied first, so that clear() destroys only scalars and empty containers,
  // which the destructor does without its heap stack. Past kReleaseDepth the destructor's loop
  // takes over.
  if (node.is_object()) {
    auto& members = node.get_ref<json::object_t&>();
    if (depth < kReleaseDepth) {
      for (auto& [key, value] : members) {
        if (value.is_structured()) release_at(value, depth + 1);
      }
    }
    members.clear();
  } else if (node.is_array()) {
    auto& elements = node.get_ref<json::array_t&>();
    if (depth < kReleaseDepth) {
      for (auto& value : elements) {
        if (value.is_structured()) release_at(value, depth + 1);
      }
    }
    elements.clear();
  }
}

}  // namespace

void release(json& doc) {
  release_at(doc, 0);
}

}  // namespace vc::fastjson

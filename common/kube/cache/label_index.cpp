#include "common/kube/cache/label_index.h"

#include <utility>
#include <vector>

namespace vc::kube::cache {

std::string label_index_name(std::string_view label_key) {
  return "label:" + std::string(label_key);
}

IndexFunc label_index(std::string label_key) {
  return [key = std::move(label_key)](const Object& obj) -> std::vector<std::string> {
    const std::string* value = obj.label(key);
    if (value == nullptr) return {};
    return {label_index_value(obj.namespace_, *value)};
  };
}

// The namespace is part of the value: a label naming "ns.flow" on an object of another namespace
// must not be found from ns.
std::string label_index_value(std::string_view ns, std::string_view value) {
  return object_key(ns, value);
}

}  // namespace vc::kube::cache

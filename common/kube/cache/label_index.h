#pragma once
// label_index: a store index that files each object under its namespace and the value of one
// label, so that a controller finds the objects that name another one in a label (a JobFlow's
// Jobs, a JobTemplate's Jobs) without walking the namespace.
//
// Threads: pure functions.

#include <string>
#include <string_view>

#include "common/kube/cache/store.h"

namespace vc::kube::cache {

// The index's name for a label key: one name per key, as shared informers require.
std::string label_index_name(std::string_view label_key);
// Files an object carrying the label under label_index_value(its namespace, the label's value);
// an object without the label is not filed.
IndexFunc label_index(std::string label_key);
// What label_index files an object of namespace ns with label value under.
std::string label_index_value(std::string_view ns, std::string_view value);

}  // namespace vc::kube::cache

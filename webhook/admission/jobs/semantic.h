#pragma once
// apimachinery's Semantic.DeepEqual over JSON, driven by the Go type descriptions: two values are
// equal when Go would decode them into semantically equal structs. Unknown fields of Volcano's
// own (closed) types are dropped, as Go drops them; absent and zero non-pointer fields are the
// same; nil and empty slices and maps are the same; a nil pointer differs from a pointer to a
// zero value; quantities compare by value and times by instant. Fields of Kubernetes' (open)
// types that are not described compare as plain JSON.
//
// Also Go's strings.TrimSpace, used for Volcano's denial messages.
//
// Threads: pure functions.

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/go/json_types/json_types.h"

namespace vc::webhook::jobs {

// The canonical JSON of `value` read as `type`; semantically equal values give equal JSON.
nlohmann::json semantic_normal_form(const nlohmann::json& value, const go::GoType& type);

bool semantic_equal(const nlohmann::json& a, const nlohmann::json& b, const go::GoType& type);

// strings.TrimSpace: strips Unicode white space at both ends.
std::string go_trim_space(std::string_view s);

}  // namespace vc::webhook::jobs

#pragma once
// Shared between the label selector's translation units; not part of the public API.

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/api/expected.h"
#include "common/api/label_selector.h"

namespace vc::api::selector_internal {

// Field paths and messages in Kubernetes' field.Error format.
std::string child(std::string_view path, std::string_view name);
std::string index(std::string_view path, std::size_t i);
std::string invalid(std::string_view path, std::string_view quoted_value, std::string_view detail);
// ErrorList.ToAggregate().Error(): one message as is, several as "[a, b]".
std::string aggregate(const std::vector<std::string>& errors);
void sort_by_key(std::vector<Requirement>& requirements);

// label_selector_parse.cpp: the string syntax.
Expected<std::vector<Requirement>> parse_selector_requirements(std::string_view text);
// label_selector_json.cpp: a metav1.LabelSelector object (not null).
Expected<std::vector<Requirement>> requirements_from_json(const nlohmann::json& j,
                                                          std::string_view path);

}  // namespace vc::api::selector_internal

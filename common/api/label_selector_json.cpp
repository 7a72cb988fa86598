// metav1.LabelSelector JSON -> requirements, validated like the API server's
// ValidateLabelSelector: every problem is collected with its field path, then aggregated.
// JSON of the wrong shape (a number where a string belongs) is reported the same way.

#include "common/api/label_selector_internal.h"
#include "common/api/label_validation.h"
#include "common/go/strconv.h"

namespace vc::api::selector_internal {
namespace {

using nlohmann::json;

std::string wrong_type(std::string_view path, const json& value, std::string_view expected) {
  return invalid(path, value.dump(), "must be " + std::string(expected));
}

// A string field of a match expression: absent and null read as "" (as Go decodes them).
bool read_string(const json& object, const char* name, std::string_view path, std::string& out,
                 std::vector<std::string>& errors) {
  auto it = object.find(name);
  if (it == object.end() || it->is_null()) return true;
  if (!it->is_string()) {
    errors.push_back(wrong_type(child(path, name), *it, "a string"));
    return false;
  }
  out = it->get<std::string>();
  return true;
}

void read_match_labels(const json& labels, std::string_view path,
                       std::vector<Requirement>& requirements, std::vector<std::string>& errors) {
  if (labels.is_null()) return;
  if (!labels.is_object()) {
    errors.push_back(wrong_type(path, labels, "an object of strings"));
    return;
  }
  for (const auto& [key, value] : labels.items()) {
    if (!value.is_string()) {
      errors.push_back(wrong_type(std::string(path) + "[" + key + "]", value, "a string"));
      continue;
    }
    const auto& text = value.get_ref<const std::string&>();
    bool valid = true;
    for (const auto& msg : is_qualified_name(key)) {
      errors.push_back(invalid(path, go::quote(key), msg));
      valid = false;
    }
    for (const auto& msg : is_valid_label_value(text)) {
      errors.push_back(invalid(path, go::quote(text), msg));
      valid = false;
    }
    if (valid) requirements.push_back({key, SelectorOperator::Equals, {text}});
  }
}

void read_match_expression(const json& expr, std::string_view path,
                           std::vector<Requirement>& requirements,
                           std::vector<std::string>& errors) {
  if (!expr.is_object()) {
    errors.push_back(wrong_type(path, expr, "an object"));
    return;
  }
  const std::size_t errors_before = errors.size();
  // A field of the wrong JSON type is reported once and not validated further.
  std::string key, op_name;
  const bool key_read = read_string(expr, "key", path, key, errors);
  const bool op_read = read_string(expr, "operator", path, op_name, errors);
  std::vector<std::string> values;
  bool values_read = true;
  const std::string values_path = child(path, "values");
  if (auto it = expr.find("values"); it != expr.end() && !it->is_null()) {
    if (!it->is_array()) {
      errors.push_back(wrong_type(values_path, *it, "a list of strings"));
      values_read = false;
    } else {
      for (std::size_t i = 0; i < it->size(); ++i) {
        const json& v = (*it)[i];
        if (!v.is_string()) {
          errors.push_back(wrong_type(index(values_path, i), v, "a string"));
          values_read = false;
        } else {
          values.push_back(v.get<std::string>());
        }
      }
    }
  }

  SelectorOperator op = SelectorOperator::Exists;
  if (op_name == "In" || op_name == "NotIn") {
    op = op_name == "In" ? SelectorOperator::In : SelectorOperator::NotIn;
    if (values_read && values.empty()) {
      errors.push_back(values_path +
                       ": Required value: must be specified when `operator` is 'In' or 'NotIn'");
    }
  } else if (op_name == "Exists" || op_name == "DoesNotExist") {
    op = op_name == "Exists" ? SelectorOperator::Exists : SelectorOperator::DoesNotExist;
    if (values_read && !values.empty()) {
      errors.push_back(values_path +
                       ": Forbidden: may not be specified when `operator` is 'Exists' or "
                       "'DoesNotExist'");
    }
  } else if (op_read) {
    errors.push_back(
        invalid(child(path, "operator"), go::quote(op_name), "not a valid selector operator"));
  }
  if (key_read) {
    for (const auto& msg : is_qualified_name(key)) {
      errors.push_back(invalid(child(path, "key"), go::quote(key), msg));
    }
  }
  for (std::size_t i = 0; i < values.size(); ++i) {
    for (const auto& msg : is_valid_label_value(values[i])) {
      errors.push_back(invalid(index(values_path, i), go::quote(values[i]), msg));
    }
  }
  if (errors.size() == errors_before) requirements.push_back({key, op, std::move(values)});
}

}  // namespace

Expected<std::vector<Requirement>> requirements_from_json(const json& j, std::string_view path) {
  if (!j.is_object()) {
    return Unexpected{wrong_type(path, j, "a label selector object")};
  }
  std::vector<Requirement> requirements;
  std::vector<std::string> errors;
  if (auto it = j.find("matchLabels"); it != j.end()) {
    read_match_labels(*it, child(path, "matchLabels"), requirements, errors);
  }
  if (auto it = j.find("matchExpressions"); it != j.end() && !it->is_null()) {
    const std::string expressions_path = child(path, "matchExpressions");
    if (!it->is_array()) {
      errors.push_back(wrong_type(expressions_path, *it, "a list"));
    } else {
      for (std::size_t i = 0; i < it->size(); ++i) {
        read_match_expression((*it)[i], index(expressions_path, i), requirements, errors);
      }
    }
  }
  if (!errors.empty()) return Unexpected{aggregate(errors)};
  return requirements;
}

}  // namespace vc::api::selector_internal

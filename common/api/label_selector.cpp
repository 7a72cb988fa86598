// LabelSelector: requirements, matching, printing and the metav1.LabelSelector JSON form.
// The string parser lives in label_selector_parse.cpp.

#include "common/api/label_selector.h"

#include <algorithm>
#include <optional>

#include "common/api/label_selector_internal.h"
#include "common/api/label_validation.h"
#include "common/go/strconv.h"

namespace vc::api {
namespace selector_internal {

std::string child(std::string_view path, std::string_view name) {
  return path.empty() ? std::string(name) : std::string(path) + "." + std::string(name);
}

std::string index(std::string_view path, std::size_t i) {
  return std::string(path) + "[" + std::to_string(i) + "]";
}

std::string invalid(std::string_view path, std::string_view quoted_value, std::string_view detail) {
  std::string out(path);
  if (!out.empty()) out.append(": ");
  out.append("Invalid value: ").append(quoted_value).append(": ").append(detail);
  return out;
}

std::string aggregate(const std::vector<std::string>& errors) {
  if (errors.size() == 1) return errors.front();
  std::string out = "[";
  for (std::size_t i = 0; i < errors.size(); ++i) {
    if (i > 0) out.append(", ");
    out.append(errors[i]);
  }
  return out + "]";
}

void sort_by_key(std::vector<Requirement>& requirements) {
  std::stable_sort(requirements.begin(), requirements.end(),
                   [](const Requirement& a, const Requirement& b) { return a.key < b.key; });
}

}  // namespace selector_internal

namespace {

using namespace selector_internal;

// strconv.ParseInt(s, 10, 64).
std::optional<long long> parse_int64(const std::string& s) {
  auto v = go::parse_decimal_int(s, 64);
  if (!v) return std::nullopt;
  return *v;
}

// Go's %#v of a []string, as NewRequirement's errors print value lists.
std::string go_string_slice(const std::vector<std::string>& values) {
  std::string out = "[]string{";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out.append(", ");
    out.append(go::quote(values[i]));
  }
  return out + "}";
}

template <class Lookup>
bool requirement_matches(const Requirement& r, const Lookup& lookup) {
  const std::optional<std::string_view> value = lookup(r.key);
  const auto has_value = [&] {
    return std::find(r.values.begin(), r.values.end(), *value) != r.values.end();
  };
  switch (r.op) {
    case SelectorOperator::In:
    case SelectorOperator::Equals:
    case SelectorOperator::DoubleEquals:
      return value && has_value();
    case SelectorOperator::NotIn:
    case SelectorOperator::NotEquals:
      return !value || !has_value();
    case SelectorOperator::Exists:
      return value.has_value();
    case SelectorOperator::DoesNotExist:
      return !value;
    case SelectorOperator::GreaterThan:
    case SelectorOperator::LessThan: {
      if (!value || r.values.size() != 1) return false;
      const auto have = parse_int64(std::string(*value));
      const auto want = parse_int64(r.values.front());
      if (!have || !want) return false;
      return r.op == SelectorOperator::GreaterThan ? *have > *want : *have < *want;
    }
  }
  return false;
}

}  // namespace

bool Requirement::matches(const Labels& labels) const {
  return requirement_matches(*this, [&](const std::string& key) -> std::optional<std::string_view> {
    auto it = labels.find(key);
    if (it == labels.end()) return std::nullopt;
    return std::string_view(it->second);
  });
}

std::string Requirement::to_string() const {
  std::string out;
  if (op == SelectorOperator::DoesNotExist) out.push_back('!');
  out.append(key);
  switch (op) {
    case SelectorOperator::Exists:
    case SelectorOperator::DoesNotExist:
      return out;
    case SelectorOperator::Equals:
      out.append("=");
      break;
    case SelectorOperator::DoubleEquals:
      out.append("==");
      break;
    case SelectorOperator::NotEquals:
      out.append("!=");
      break;
    case SelectorOperator::In:
      out.append(" in (");
      break;
    case SelectorOperator::NotIn:
      out.append(" notin (");
      break;
    case SelectorOperator::GreaterThan:
      out.append(">");
      break;
    case SelectorOperator::LessThan:
      out.append("<");
      break;
  }
  std::vector<std::string> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    if (i > 0) out.push_back(',');
    out.append(sorted[i]);
  }
  if (op == SelectorOperator::In || op == SelectorOperator::NotIn) out.push_back(')');
  return out;
}

Expected<Requirement> make_requirement(std::string key, SelectorOperator op,
                                       std::vector<std::string> values, std::string_view path) {
  std::vector<std::string> errors;
  if (auto valid = validate_label_key(key); !valid) {
    errors.push_back(invalid(child(path, "key"), go::quote(key), valid.error()));
  }
  const std::string values_path = child(path, "values");
  switch (op) {
    case SelectorOperator::In:
    case SelectorOperator::NotIn:
      if (values.empty()) {
        errors.push_back(invalid(values_path, go_string_slice(values),
                                 "for 'in', 'notin' operators, values set can't be empty"));
      }
      break;
    case SelectorOperator::Equals:
    case SelectorOperator::DoubleEquals:
    case SelectorOperator::NotEquals:
      if (values.size() != 1) {
        errors.push_back(invalid(values_path, go_string_slice(values),
                                 "exact-match compatibility requires one single value"));
      }
      break;
    case SelectorOperator::Exists:
    case SelectorOperator::DoesNotExist:
      if (!values.empty()) {
        errors.push_back(invalid(values_path, go_string_slice(values),
                                 "values set must be empty for exists and does not exist"));
      }
      break;
    case SelectorOperator::GreaterThan:
    case SelectorOperator::LessThan:
      if (values.size() != 1) {
        errors.push_back(invalid(values_path, go_string_slice(values),
                                 "for 'Gt', 'Lt' operators, exactly one value is required"));
      }
      for (std::size_t i = 0; i < values.size(); ++i) {
        if (!parse_int64(values[i])) {
          errors.push_back(invalid(index(values_path, i), go::quote(values[i]),
                                   "for 'Gt', 'Lt' operators, the value must be an integer"));
        }
      }
      break;
  }
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (auto valid = validate_label_value(values[i]); !valid) {
      errors.push_back(
          invalid(index(values_path, i) + "[" + key + "]", go::quote(values[i]), valid.error()));
    }
  }
  if (!errors.empty()) return Unexpected{aggregate(errors)};
  return Requirement{std::move(key), op, std::move(values)};
}

LabelSelector::LabelSelector(std::vector<Requirement> requirements)
    : requirements_(std::move(requirements)) {
  sort_by_key(requirements_);
}

LabelSelector LabelSelector::nothing() {
  LabelSelector s;
  s.nothing_ = true;
  return s;
}

LabelSelector LabelSelector::from_labels(const Labels& labels) {
  std::vector<Requirement> requirements;
  for (const auto& [key, value] : labels) {
    requirements.push_back({key, SelectorOperator::Equals, {value}});
  }
  return LabelSelector(std::move(requirements));
}

bool LabelSelector::matches(const Labels& labels) const {
  if (nothing_) return false;
  return std::all_of(requirements_.begin(), requirements_.end(),
                     [&](const Requirement& r) { return r.matches(labels); });
}

bool LabelSelector::matches(const nlohmann::json& labels) const {
  if (nothing_) return false;
  const auto lookup = [&](const std::string& key) -> std::optional<std::string_view> {
    if (!labels.is_object()) return std::nullopt;
    auto it = labels.find(key);
    if (it == labels.end() || !it->is_string()) return std::nullopt;
    return std::string_view(it->get_ref<const std::string&>());
  };
  return std::all_of(requirements_.begin(), requirements_.end(),
                     [&](const Requirement& r) { return requirement_matches(r, lookup); });
}

std::string LabelSelector::to_string() const {
  std::string out;
  for (const auto& r : requirements_) {
    if (!out.empty()) out.push_back(',');
    out.append(r.to_string());
  }
  return out;
}

Expected<LabelSelector> LabelSelector::parse(std::string_view text) {
  auto requirements = parse_selector_requirements(text);
  if (!requirements) return Unexpected{requirements.error()};
  return LabelSelector(std::move(requirements).value());
}

Expected<LabelSelector> LabelSelector::from_json(const nlohmann::json& j, std::string_view path) {
  if (j.is_null()) return nothing();
  auto requirements = requirements_from_json(j, path);
  if (!requirements) return Unexpected{requirements.error()};
  return LabelSelector(std::move(requirements).value());
}

}  // namespace vc::api

#include "webhook/admission/field_error.h"

#include <charconv>
#include <cstring>
#include <set>

#include <fmt/format.h>

#include "common/go/strconv.h"

namespace vc::webhook {

namespace {

// NewPath("") renders as "[]" once it has children (the root is printed as an empty index).
std::string_view shown(std::string_view text) {
  return text.empty() ? std::string_view("[]") : text;
}

}  // namespace

void FieldPath::assign(std::string_view base, std::string_view a, std::string_view b,
                       std::string_view c) {
  size_ = base.size() + a.size() + b.size() + c.size();
  char* out = inline_;
  if (size_ > kInline) {
    heap_.resize(size_);
    out = heap_.data();
  } else {
    heap_.clear();
  }
  for (std::string_view part : {base, a, b, c}) {
    if (!part.empty()) std::memcpy(out, part.data(), part.size());
    out += part.size();
  }
}

FieldPath& FieldPath::operator=(const FieldPath& other) {
  if (this != &other) assign(other.view(), {}, {}, {});  // assign reads nothing of *this
  return *this;
}

FieldPath FieldPath::child(std::string_view name) const {
  FieldPath out;
  out.assign(shown(view()), ".", name, {});
  return out;
}

FieldPath FieldPath::index(std::size_t i) const {
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, i).ptr;
  FieldPath out;
  out.assign(shown(view()), "[", std::string_view(digits, end - digits), "]");
  return out;
}

FieldPath FieldPath::key(std::string_view k) const {
  FieldPath out;
  out.assign(shown(view()), "[", k, "]");
  return out;
}

BadValue BadValue::str(std::string_view s) {
  return {go::quote(s)};
}
BadValue BadValue::number(long long v) {
  return {std::to_string(v)};
}
BadValue BadValue::boolean(bool v) {
  return {v ? "true" : "false"};
}
BadValue BadValue::json_value(const nlohmann::json& v) {
  return {go::marshal_json(v)};
}

namespace {

const char* type_text(FieldErrorType t) {
  switch (t) {
    case FieldErrorType::Invalid:
      return "Invalid value";
    case FieldErrorType::Required:
      return "Required value";
    case FieldErrorType::Forbidden:
      return "Forbidden";
    case FieldErrorType::NotSupported:
      return "Unsupported value";
    case FieldErrorType::NotFound:
      return "Not found";
    case FieldErrorType::Duplicate:
      return "Duplicate value";
    case FieldErrorType::TooLong:
      return "Too long";
    case FieldErrorType::TooMany:
      return "Too many";
    case FieldErrorType::Internal:
      return "Internal error";
  }
  return "Invalid value";
}

bool omits_value(FieldErrorType t) {
  return t == FieldErrorType::Required || t == FieldErrorType::Forbidden ||
         t == FieldErrorType::TooLong || t == FieldErrorType::Internal;
}

}  // namespace

std::string FieldError::message() const {
  std::string out = field.empty() ? std::string(type_text(type)) : field + ": " + type_text(type);
  if (!omits_value(type)) out += ": " + value.rendered;
  if (!detail.empty()) out += ": " + detail;
  return out;
}

FieldError invalid(const FieldPath& p, BadValue v, std::string detail) {
  return {FieldErrorType::Invalid, p.str(), std::move(v), std::move(detail)};
}
FieldError required(const FieldPath& p, std::string detail) {
  return {FieldErrorType::Required, p.str(), {}, std::move(detail)};
}
FieldError forbidden(const FieldPath& p, std::string detail) {
  return {FieldErrorType::Forbidden, p.str(), {}, std::move(detail)};
}
FieldError not_supported(const FieldPath& p, BadValue v, const std::vector<std::string>& valid) {
  std::string detail;
  if (!valid.empty()) {
    detail = "supported values: ";
    for (std::size_t i = 0; i < valid.size(); ++i) {
      if (i) detail += ", ";
      detail += go::quote(valid[i]);
    }
  }
  return {FieldErrorType::NotSupported, p.str(), std::move(v), std::move(detail)};
}
FieldError duplicate(const FieldPath& p, BadValue v) {
  return {FieldErrorType::Duplicate, p.str(), std::move(v), {}};
}

void FieldErrorList::append(const FieldErrorList& other) {
  errors_.insert(errors_.end(), other.errors_.begin(), other.errors_.end());
}

std::string FieldErrorList::aggregate() const {
  std::vector<std::string> messages;
  std::set<std::string> seen;
  for (const auto& e : errors_) {
    std::string m = e.message();
    if (seen.insert(m).second) messages.push_back(std::move(m));
  }
  if (messages.empty()) return {};
  if (messages.size() == 1) return messages.front();
  return "[" + fmt::format("{}", fmt::join(messages, ", ")) + "]";
}

}  // namespace vc::webhook

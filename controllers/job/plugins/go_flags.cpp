#include "controllers/job/plugins/go_flags.h"

#include <stdexcept>

#include "common/api/label_validation.h"
#include "common/go/strconv.h"

namespace vc::controllers::job::plugins {
namespace {

// Go's flag package words strconv's errors this way (its numError).
constexpr const char* kParseError = "parse error";
constexpr const char* kRangeError = "value out of range";

}  // namespace

GoInt go_parse_int(std::string_view s) {
  const go::IntParse parsed = go::parse_int_full(s, 0, 64);
  switch (parsed.error) {
    case go::NumError::None:
      return {parsed.value, ""};
    case go::NumError::Syntax:
      return {parsed.value, kParseError};
    case go::NumError::Range:
      return {parsed.value, kRangeError};
  }
  throw std::logic_error("go_parse_int: unknown NumError");
}

std::optional<bool> go_parse_bool(std::string_view s) {
  const auto parsed = go::parse_bool(s);
  if (!parsed) return std::nullopt;
  return *parsed;
}

std::optional<std::int64_t> go_atoi(std::string_view s) {
  const auto parsed = go::parse_decimal_int(s, 64);
  if (!parsed) return std::nullopt;
  return *parsed;
}

void GoFlagSet::add(std::string name, Kind kind, void* target) {
  if (find(name) != nullptr) throw std::logic_error("flag redefined: " + name);
  flags_.push_back(Flag{std::move(name), kind, target});
}

void GoFlagSet::add_string(std::string name, std::string* target) {
  add(std::move(name), Kind::String, target);
}
void GoFlagSet::add_int(std::string name, std::int64_t* target) {
  add(std::move(name), Kind::Int, target);
}
void GoFlagSet::add_bool(std::string name, bool* target) {
  add(std::move(name), Kind::Bool, target);
}

const GoFlagSet::Flag* GoFlagSet::find(std::string_view name) const {
  for (const Flag& f : flags_) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

bool GoFlagSet::parse_one(const std::vector<std::string>& args, std::size_t& i,
                          std::string& error) {
  const std::string& s = args[i];
  if (s.size() < 2 || s[0] != '-') return false;
  std::size_t minuses = 1;
  if (s[1] == '-') {
    minuses = 2;
    if (s.size() == 2) {  // "--" ends the flags and is consumed
      ++i;
      return false;
    }
  }
  std::string name = s.substr(minuses);
  if (name.empty() || name[0] == '-' || name[0] == '=') {
    error = "bad flag syntax: " + s;
    return false;
  }
  ++i;
  bool has_value = false;
  std::string value;
  if (const auto eq = name.find('=', 1); eq != std::string::npos) {
    value = name.substr(eq + 1);
    has_value = true;
    name.resize(eq);
  }
  const Flag* flag = find(name);
  if (flag == nullptr) {
    error = (name == "help" || name == "h") ? "flag: help requested"
                                            : "flag provided but not defined: -" + name;
    return false;
  }
  if (flag->kind == Kind::Bool) {
    auto* target = static_cast<bool*>(flag->target);
    if (!has_value) {
      *target = true;
      return true;
    }
    const auto parsed = go_parse_bool(value);
    *target = parsed.value_or(false);
    if (!parsed) {
      error = "invalid boolean value " + go::quote(value) + " for -" + name + ": " + kParseError;
      return false;
    }
    return true;
  }
  if (!has_value && i < args.size()) {
    value = args[i++];
    has_value = true;
  }
  if (!has_value) {
    error = "flag needs an argument: -" + name;
    return false;
  }
  if (flag->kind == Kind::String) {
    *static_cast<std::string*>(flag->target) = value;
    return true;
  }
  const GoInt parsed = go_parse_int(value);
  *static_cast<std::int64_t*>(flag->target) = parsed.value;
  if (!parsed.error.empty()) {
    error = "invalid value " + go::quote(value) + " for flag -" + name + ": " + parsed.error;
    return false;
  }
  return true;
}

api::Status GoFlagSet::parse(const std::vector<std::string>& args) {
  std::string error;
  std::size_t i = 0;
  while (i < args.size() && parse_one(args, i, error)) {
  }
  remaining_.assign(args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
  if (!error.empty()) return api::Unexpected{std::move(error)};
  return api::ok_status();
}

}  // namespace vc::controllers::job::plugins

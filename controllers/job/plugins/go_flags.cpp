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

api::Expected<bool> GoFlagSet::parse_one(const std::vector<std::string>& args, std::size_t& i) {
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
    return api::Unexpected{"bad flag syntax: " + s};
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
    return api::Unexpected{(name == "help" || name == "h")
                               ? "flag: help requested"
                               : "flag provided but not defined: -" + name};
  }
  if (flag->kind == Kind::Bool) {
    auto* target = static_cast<bool*>(flag->target);
    if (!has_value) {
      *target = true;
      return true;
    }
    const auto parsed = go::parse_bool(value);
    *target = parsed.ok() && *parsed;
    if (!parsed) {
      return api::Unexpected{"invalid boolean value " + go::quote(value) + " for -" + name + ": " +
                             kParseError};
    }
    return true;
  }
  if (!has_value && i < args.size()) {
    value = args[i++];
    has_value = true;
  }
  if (!has_value) return api::Unexpected{"flag needs an argument: -" + name};
  if (flag->kind == Kind::String) {
    *static_cast<std::string*>(flag->target) = value;
    return true;
  }
  // strconv.ParseInt(s, 0, 64); Go stores its value even on an error.
  const go::IntParse parsed = go::parse_int_full(value, 0, 64);
  *static_cast<std::int64_t*>(flag->target) = parsed.value;
  if (parsed.error != go::NumError::None) {
    return api::Unexpected{"invalid value " + go::quote(value) + " for flag -" + name + ": " +
                           (parsed.error == go::NumError::Syntax ? kParseError : kRangeError)};
  }
  return true;
}

api::Status GoFlagSet::parse(const std::vector<std::string>& args) {
  std::size_t i = 0;
  api::Expected<bool> more = true;
  while (more && *more && i < args.size()) more = parse_one(args, i);
  remaining_.assign(args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
  if (!more) return api::Unexpected{more.error()};
  return api::ok_status();
}

}  // namespace vc::controllers::job::plugins

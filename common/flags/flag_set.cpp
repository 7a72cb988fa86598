#include "common/flags/flag_set.h"

#include <algorithm>
#include <stdexcept>

#include "common/api/label_validation.h"
#include "common/go/strconv.h"

namespace vc::flags {
namespace {

// pflag prints a shorthand rune with Go's %q: 'x'.
std::string quote_char(char c) {
  if (c == '\'' || c == '\\') return std::string("'\\") + c + "'";
  if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) {
    static constexpr char kHex[] = "0123456789abcdef";
    const auto u = static_cast<unsigned char>(c);
    return std::string("'\\x") + kHex[u >> 4] + kHex[u & 0xF] + "'";
  }
  return std::string("'") + c + "'";
}

bool default_is_zero(const Flag& flag) {
  const std::string& d = flag.default_text;
  return d.empty() || d == "0" || d == "0s" || d == "false" || d == "[]" || d == "<nil>";
}

}  // namespace

std::string FlagSet::normalize(std::string_view name) {
  std::string out(name);
  std::replace(out.begin(), out.end(), '_', '-');
  return out;
}

Flag& FlagSet::add(std::string_view name, std::unique_ptr<Value> value, std::string usage) {
  std::string key = normalize(name);
  if (key.empty() || key[0] == '-') {
    throw std::logic_error("flag name must not be empty or start with '-': " + std::string(name));
  }
  if (flags_.contains(key)) throw std::logic_error("flag redefined: " + key);
  Flag flag;
  flag.name = key;
  flag.usage = std::move(usage);
  flag.default_text = value->str();
  flag.value = std::move(value);
  // A one-letter name is also its own shorthand, as pflag does for merged Go flags (-v).
  if (key.size() == 1) {
    flag.shorthand = key[0];
    shorthands_[key[0]] = key;
  }
  return flags_.emplace(key, std::move(flag)).first->second;
}

void FlagSet::string_var(std::string_view name, std::string* target, std::string usage) {
  add(name, std::make_unique<StringValue>(target), std::move(usage));
}
void FlagSet::bool_var(std::string_view name, bool* target, std::string usage) {
  add(name, std::make_unique<BoolValue>(target), std::move(usage));
}
void FlagSet::int_var(std::string_view name, int* target, std::string usage) {
  add(name, std::make_unique<IntValue>(target), std::move(usage));
}
void FlagSet::int64_var(std::string_view name, std::int64_t* target, std::string usage) {
  add(name, std::make_unique<Int64Value>(target), std::move(usage));
}
void FlagSet::uint32_var(std::string_view name, std::uint32_t* target, std::string usage) {
  add(name, std::make_unique<Uint32Value>(target), std::move(usage));
}
void FlagSet::float32_var(std::string_view name, double* target, std::string usage) {
  add(name, std::make_unique<FloatValue>(target, 32), std::move(usage));
}
void FlagSet::float64_var(std::string_view name, double* target, std::string usage) {
  add(name, std::make_unique<FloatValue>(target, 64), std::move(usage));
}
void FlagSet::duration_var(std::string_view name, std::chrono::nanoseconds* target,
                           std::string usage) {
  add(name, std::make_unique<DurationValue>(target), std::move(usage));
}
void FlagSet::string_array_var(std::string_view name, std::vector<std::string>* target,
                               std::string usage) {
  add(name, std::make_unique<StringListValue>(target, false), std::move(usage));
}
void FlagSet::string_slice_var(std::string_view name, std::vector<std::string>* target,
                               std::string usage) {
  add(name, std::make_unique<StringListValue>(target, true), std::move(usage));
}
void FlagSet::var(std::string_view name, std::unique_ptr<Value> value, std::string usage) {
  add(name, std::move(value), std::move(usage));
}

void FlagSet::deprecate(std::string_view name, std::string message) {
  Flag* flag = find(name);
  if (!flag) throw std::logic_error("deprecate: no flag " + std::string(name));
  flag->deprecated = std::move(message);
}

void FlagSet::hide(std::string_view name) {
  Flag* flag = find(name);
  if (!flag) throw std::logic_error("hide: no flag " + std::string(name));
  flag->hidden = true;
}

Flag* FlagSet::find(std::string_view name) {
  auto it = flags_.find(normalize(name));
  return it == flags_.end() ? nullptr : &it->second;
}

const Flag* FlagSet::lookup(std::string_view name) const {
  auto it = flags_.find(normalize(name));
  return it == flags_.end() ? nullptr : &it->second;
}

bool FlagSet::changed(std::string_view name) const {
  const Flag* flag = lookup(name);
  return flag && flag->changed;
}

std::vector<std::pair<std::string, std::string>> FlagSet::values() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [name, flag] : flags_) out.emplace_back(name, flag.value->str());
  return out;
}

api::Status FlagSet::set(Flag& flag, std::string_view value, ParseResult& result) {
  if (auto parsed = flag.value->set(value); !parsed) {
    const std::string shown =
        flag.shorthand ? std::string("-") + flag.shorthand + ", --" + flag.name : "--" + flag.name;
    return api::Unexpected{"invalid argument " + go::quote(value) + " for " + go::quote(shown) +
                           " flag: " + parsed.error()};
  }
  flag.changed = true;
  if (!flag.deprecated.empty()) {
    result.warnings.push_back("Flag --" + flag.name + " has been deprecated, " + flag.deprecated);
  }
  return api::ok_status();
}

api::Expected<ParseResult> FlagSet::parse(const std::vector<std::string>& args) {
  ParseResult result;
  for (size_t i = 0; i < args.size();) {
    const std::string& s = args[i++];
    if (s.size() < 2 || s[0] != '-') {
      result.args.push_back(s);
      continue;
    }
    api::Status step = api::ok_status();
    if (s[1] == '-') {
      if (s.size() == 2) {  // "--": everything after it is positional
        result.args.insert(result.args.end(), args.begin() + static_cast<std::ptrdiff_t>(i),
                           args.end());
        break;
      }
      step = parse_long(s, std::string_view(s).substr(2), args, i, result);
    } else {
      // Go's flag package takes one dash for any name; prefer that reading when the text before
      // '=' names a registered flag of two or more letters.
      const std::string_view rest = std::string_view(s).substr(1);
      const std::string_view name = rest.substr(0, rest.find('='));
      if (name.size() > 1 && lookup(name)) {
        step = parse_long(s, rest, args, i, result);
      } else {
        step = parse_short(s, args, i, result);
      }
    }
    if (!step) return api::Unexpected{step.error()};
    if (result.help) break;
  }
  return result;
}

api::Status FlagSet::parse_long(std::string_view arg, std::string_view name_and_value,
                                const Args& args, size_t& i, ParseResult& result) {
  if (name_and_value.empty() || name_and_value[0] == '-' || name_and_value[0] == '=') {
    return api::Unexpected{"bad flag syntax: " + std::string(arg)};
  }
  const size_t eq = name_and_value.find('=');
  const std::string_view name = name_and_value.substr(0, eq);
  Flag* flag = find(name);
  if (!flag) {
    if (name == "help") {
      result.help = true;
      return api::ok_status();
    }
    return api::Unexpected{"unknown flag: --" + std::string(name)};
  }
  std::string_view value;
  if (eq != std::string_view::npos) {
    value = name_and_value.substr(eq + 1);
  } else if (const std::string d = flag->value->no_opt_default(); !d.empty()) {
    return set(*flag, d, result);
  } else if (i < args.size()) {
    value = args[i++];
  } else {
    return api::Unexpected{"flag needs an argument: " + std::string(arg)};
  }
  return set(*flag, value, result);
}

api::Status FlagSet::parse_short(std::string_view arg, const Args& args, size_t& i,
                                 ParseResult& result) {
  std::string_view shorthands = arg.substr(1);
  // "-abc" may be several one-letter flags in a row (booleans), the last one taking a value.
  while (!shorthands.empty()) {
    const char c = shorthands[0];
    auto it = shorthands_.find(c);
    if (it == shorthands_.end()) {
      if (c == 'h') {
        result.help = true;
        return api::ok_status();
      }
      return api::Unexpected{"unknown shorthand flag: " + quote_char(c) + " in -" +
                             std::string(shorthands)};
    }
    Flag& flag = *find(it->second);
    std::string value;
    std::string_view next = shorthands.substr(1);
    if (shorthands.size() > 2 && shorthands[1] == '=') {
      value = std::string(shorthands.substr(2));
      next = {};
    } else if (const std::string d = flag.value->no_opt_default(); !d.empty()) {
      value = d;
    } else if (shorthands.size() > 1) {
      value = std::string(shorthands.substr(1));
      next = {};
    } else if (i < args.size()) {
      value = args[i++];
    } else {
      return api::Unexpected{"flag needs an argument: " + quote_char(c) + " in -" +
                             std::string(shorthands)};
    }
    if (auto done = set(flag, value, result); !done) return done;
    shorthands = next;
  }
  return api::ok_status();
}

std::string FlagSet::usage() const {
  struct Line {
    std::string head;
    std::string help;
  };
  std::vector<Line> lines;
  size_t width = 0;
  for (const auto& [name, flag] : flags_) {
    if (flag.hidden) continue;
    Line line;
    line.head =
        flag.shorthand ? std::string("  -") + flag.shorthand + ", --" + name : "      --" + name;
    if (const std::string type = flag.value->type(); !type.empty()) line.head += " " + type;
    line.help = flag.usage;
    if (!default_is_zero(flag)) {
      line.help +=
          " (default " +
          (flag.value->type() == "string" ? go::quote(flag.default_text) : flag.default_text) + ")";
    }
    if (!flag.deprecated.empty()) line.help += " (DEPRECATED: " + flag.deprecated + ")";
    width = std::max(width, line.head.size());
    lines.push_back(std::move(line));
  }
  std::string out = "Usage of " + program_ + ":\n";
  for (const Line& line : lines) {
    out += line.head + std::string(width - line.head.size() + 3, ' ') + line.help + "\n";
  }
  return out;
}

}  // namespace vc::flags

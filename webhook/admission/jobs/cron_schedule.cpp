#include "webhook/admission/jobs/cron_schedule.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <vector>

#include "common/go/duration.h"
#include "common/go/time_zone.h"

namespace vc::webhook::jobs {
namespace {

struct Bounds {
  std::uint64_t min;
  std::uint64_t max;
  const std::array<std::string_view, 12>* names;  // nullptr, or names for min, min+1, ...
};

constexpr std::array<std::string_view, 12> kMonths{"jan", "feb", "mar", "apr", "may", "jun",
                                                   "jul", "aug", "sep", "oct", "nov", "dec"};
constexpr std::array<std::string_view, 12> kDays{"sun", "mon", "tue", "wed", "thu", "fri",
                                                 "sat", "",    "",    "",    "",    ""};

const Bounds kMinutes{0, 59, nullptr};
const Bounds kHours{0, 23, nullptr};
const Bounds kDom{1, 31, nullptr};
const Bounds kMonthBounds{1, 12, &kMonths};
const Bounds kDow{0, 6, &kDays};

bool is_space(char c) {
  return c == ' ' || (c >= '\t' && c <= '\r');
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  while (true) {
    auto pos = s.find(sep);
    out.push_back(s.substr(0, pos));
    if (pos == std::string_view::npos) return out;
    s.remove_prefix(pos + 1);
  }
}

// strings.Fields.
std::vector<std::string_view> fields_of(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && is_space(s[i])) ++i;
    const std::size_t start = i;
    while (i < s.size() && !is_space(s[i])) ++i;
    if (i > start) out.push_back(s.substr(start, i - start));
  }
  return out;
}

// strconv.Atoi then "no negatives".
std::optional<std::string> parse_uint(std::string_view expr, std::uint64_t& out) {
  std::string_view digits = expr;
  bool neg = false;
  if (!digits.empty() && (digits[0] == '+' || digits[0] == '-')) {
    neg = digits[0] == '-';
    digits.remove_prefix(1);
  }
  const std::string fail = "failed to parse int from " + std::string(expr);
  if (digits.empty()) return fail;
  std::uint64_t v = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return fail;
    v = v * 10 + static_cast<std::uint64_t>(c - '0');
    if (v > (1ULL << 63)) return fail;
  }
  if (neg && v != 0) return "negative number not allowed: " + std::string(expr);
  if (!neg && v > (1ULL << 63) - 1) return fail;
  out = v;
  return std::nullopt;
}

std::optional<std::string> parse_int_or_name(std::string_view expr, const Bounds& b,
                                             std::uint64_t& out) {
  if (b.names != nullptr) {
    std::string lower(expr);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    for (std::size_t i = 0; i < b.names->size(); ++i) {
      if (!(*b.names)[i].empty() && (*b.names)[i] == lower) {
        out = b.min + i;
        return std::nullopt;
      }
    }
  }
  return parse_uint(expr, out);
}

std::optional<std::string> check_range(std::string_view expr, const Bounds& b) {
  const auto range_and_step = split(expr, '/');
  const auto low_and_high = split(range_and_step[0], '-');
  std::uint64_t start = 0;
  std::uint64_t end = 0;
  if (low_and_high[0] == "*" || low_and_high[0] == "?") {
    start = b.min;
    end = b.max;
  } else {
    if (auto err = parse_int_or_name(low_and_high[0], b, start)) return err;
    if (low_and_high.size() == 1) {
      end = start;
    } else if (low_and_high.size() == 2) {
      if (auto err = parse_int_or_name(low_and_high[1], b, end)) return err;
    } else {
      return "too many hyphens: " + std::string(expr);
    }
  }
  std::uint64_t step = 1;
  if (range_and_step.size() == 2) {
    if (auto err = parse_uint(range_and_step[1], step)) return err;
    if (low_and_high.size() == 1) end = b.max;  // "N/step" means "N-max/step"
  } else if (range_and_step.size() > 2) {
    return "too many slashes: " + std::string(expr);
  }
  if (start < b.min) return "beginning of range below minimum: " + std::string(expr);
  if (end > b.max) return "end of range above maximum: " + std::string(expr);
  if (start > end) return "beginning of range beyond end of range: " + std::string(expr);
  if (step == 0) return "step of range should be a positive number: " + std::string(expr);
  return std::nullopt;
}

std::optional<std::string> check_field(std::string_view field, const Bounds& b) {
  for (auto expr : split(field, ',')) {
    if (expr.empty()) continue;  // strings.FieldsFunc drops empty pieces
    if (auto err = check_range(expr, b)) return err;
  }
  return std::nullopt;
}

std::optional<std::string> check_descriptor(std::string_view d) {
  static constexpr std::array<std::string_view, 7> kNamed{
      "@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly"};
  if (std::find(kNamed.begin(), kNamed.end(), d) != kNamed.end()) return std::nullopt;
  constexpr std::string_view kEvery = "@every ";
  if (d.substr(0, kEvery.size()) == kEvery) {
    if (auto parsed = go::parse_duration(d.substr(kEvery.size())); !parsed) {
      return "failed to parse duration " + std::string(d) + ": " + parsed.error();
    }
    return std::nullopt;
  }
  return "unrecognized descriptor: " + std::string(d);
}

}  // namespace

std::optional<std::string> cron_schedule_error(std::string_view spec) {
  if (spec.empty()) return "empty spec string";
  if (spec.substr(0, 3) == "TZ=" || spec.substr(0, 8) == "CRON_TZ=") {
    const auto space = spec.find(' ');
    if (space == std::string_view::npos) return "missing schedule after time zone";
    const auto eq = spec.find('=');
    const std::string_view zone = spec.substr(eq + 1, space - eq - 1);
    if (!go::Location::load(zone)) return "provided bad location " + std::string(zone);
    spec.remove_prefix(space);
    while (!spec.empty() && is_space(spec.front())) spec.remove_prefix(1);
    while (!spec.empty() && is_space(spec.back())) spec.remove_suffix(1);
  }
  if (!spec.empty() && spec[0] == '@') return check_descriptor(spec);
  const auto fields = fields_of(spec);
  if (fields.size() != 5) {
    return "expected exactly 5 fields, found " + std::to_string(fields.size());
  }
  const std::array<const Bounds*, 5> bounds{&kMinutes, &kHours, &kDom, &kMonthBounds, &kDow};
  for (std::size_t i = 0; i < 5; ++i) {
    if (auto err = check_field(fields[i], *bounds[i])) return err;
  }
  return std::nullopt;
}

}  // namespace vc::webhook::jobs

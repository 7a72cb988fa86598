// /pods/validate (spec webhook.md §2.8): the job disruption budget annotations.

#include <algorithm>
#include <cerrno>
#include <cstdlib>

#include "webhook/admission/field_error.h"
#include "webhook/admission/pods/admit.h"
#include "webhook/admission/pods/pod_schema.h"

namespace vc::webhook::pods {
namespace {

constexpr const char* kMinAvailable = "volcano.sh/jdb-min-available";
constexpr const char* kMaxUnavailable = "volcano.sh/jdb-max-unavailable";

enum class IntError { None, Syntax, Range };

// strconv.ParseInt(s, 10, bits): an optional sign and decimal digits only.
IntError parse_int(const std::string& s, int bits, long long& out) {
  std::size_t i = (!s.empty() && (s[0] == '+' || s[0] == '-')) ? 1 : 0;
  if (i == s.size()) return IntError::Syntax;
  for (std::size_t j = i; j < s.size(); ++j) {
    if (s[j] < '0' || s[j] > '9') return IntError::Syntax;
  }
  errno = 0;
  out = std::strtoll(s.c_str(), nullptr, 10);
  const long long max = bits == 32 ? INT32_MAX : INT64_MAX;
  const long long min = bits == 32 ? INT32_MIN : INT64_MIN;
  if (errno == ERANGE || out > max || out < min) return IntError::Range;
  return IntError::None;
}

// Volcano's validateIntPercentageStr: an int32 must be positive; anything else has every "%"
// removed and must then be a number from 1 to 99.
std::string validate_int_or_percentage(const std::string& key, const std::string& value) {
  long long n = 0;
  if (parse_int(value, 32, n) == IntError::None) {
    if (n > 0) return {};
    return "invalid value <" + go_quote(value) + "> for " + key + ", it must be a positive integer";
  }
  std::string digits = value;
  digits.erase(std::remove(digits.begin(), digits.end(), '%'), digits.end());
  const IntError e = parse_int(digits, 64, n);
  if (e != IntError::None) {
    return "invalid value strconv.Atoi: parsing " + go_quote(digits) + ": " +
           (e == IntError::Syntax ? "invalid syntax" : "value out of range") + " for " + key;
  }
  if (n <= 0 || n >= 100) {
    return "invalid value <" + go_quote(value) + "> for " + key +
           ", it must be a valid percentage which between 1% ~ 99%";
  }
  return {};
}

// strings.TrimSpace for the ASCII white space our messages can contain.
std::string trim(std::string s) {
  const char* ws = " \t\n\v\f\r";
  s.erase(0, s.find_first_not_of(ws));
  s.erase(s.find_last_not_of(ws) + 1);
  return s;
}

}  // namespace

AdmissionResponse admit_pods_validate(const AdmissionRequest& request, const ClusterView& /*view*/,
                                      const AdmissionOptions& options) {
  if (auto e = scheduling::check_and_decode(request, kPodsResource, pod_type()); !e.empty()) {
    return AdmissionResponse::deny(e);
  }
  if (request.operation != "CREATE") {
    return AdmissionResponse::deny("expect operation to be 'CREATE'");
  }
  // Only pods of the Volcano schedulers are checked.
  const std::string scheduler =
      scheduling::go_get_string(request.object, {"spec", "schedulerName"});
  if (std::find(options.scheduler_names.begin(), options.scheduler_names.end(), scheduler) ==
      options.scheduler_names.end()) {
    return {};
  }
  const auto annotations =
      scheduling::go_get_string_map(request.object, {"metadata", "annotations"});
  int present = 0;
  for (const char* key : {kMinAvailable, kMaxUnavailable}) {
    auto it = annotations.find(key);
    if (it == annotations.end()) continue;
    ++present;
    if (auto e = validate_int_or_percentage(key, it->second); !e.empty()) {
      return AdmissionResponse::deny(trim(e));
    }
  }
  if (present == 2) {
    return AdmissionResponse::deny(
        "not allow configure multiple annotations <[volcano.sh/jdb-min-available "
        "volcano.sh/jdb-max-unavailable]> at same time");
  }
  return {};
}

}  // namespace vc::webhook::pods

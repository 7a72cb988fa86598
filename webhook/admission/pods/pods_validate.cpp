// /pods/validate (spec webhook.md §2.8): the job disruption budget annotations.

#include <algorithm>

#include "common/go/strconv.h"
#include "webhook/admission/field_error.h"
#include "webhook/admission/go_readers.h"
#include "webhook/admission/pods/admit.h"
#include "webhook/admission/pods/pod_schema.h"
#include "webhook/admission/request_checks.h"

namespace vc::webhook::pods {
namespace {

constexpr const char* kMinAvailable = "volcano.sh/jdb-min-available";
constexpr const char* kMaxUnavailable = "volcano.sh/jdb-max-unavailable";

// Volcano's validateIntPercentageStr: an int32 must be positive; anything else has every "%"
// removed and must then be a number from 1 to 99.
std::string validate_int_or_percentage(const std::string& key, const std::string& value) {
  if (const go::IntParse n = go::parse_int_full(value, 10, 32); n.error == go::NumError::None) {
    if (n.value > 0) return {};
    return "invalid value <" + go::quote(value) + "> for " + key +
           ", it must be a positive integer";
  }
  std::string digits = value;
  digits.erase(std::remove(digits.begin(), digits.end(), '%'), digits.end());
  // strconv.Atoi is ParseInt(s, 10, 0), whose error text Volcano wraps.
  const go::IntParse n = go::parse_int_full(digits, 10, 64);
  if (n.error != go::NumError::None) {
    return "invalid value strconv.Atoi: parsing " + go::quote(digits) + ": " +
           (n.error == go::NumError::Syntax ? "invalid syntax" : "value out of range") + " for " +
           key;
  }
  if (n.value <= 0 || n.value >= 100) {
    return "invalid value <" + go::quote(value) + "> for " + key +
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
  if (auto e = check_and_decode(request, kPodsResource, pod_type())) {
    return AdmissionResponse::deny(*e);
  }
  if (request.operation != "CREATE") {
    return AdmissionResponse::deny("expect operation to be 'CREATE'");
  }
  // Only pods of the Volcano schedulers are checked.
  const std::string scheduler = go_get_string(request.object, {"spec", "schedulerName"});
  if (std::find(options.scheduler_names.begin(), options.scheduler_names.end(), scheduler) ==
      options.scheduler_names.end()) {
    return {};
  }
  const auto annotations = go_get_string_map(request.object, {"metadata", "annotations"});
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

// /hypernodes/validate (spec webhook.md §2.11).

#include "common/go/regexp.h"
#include "webhook/admission/field_error.h"
#include "webhook/admission/go_readers.h"
#include "webhook/admission/request_checks.h"
#include "webhook/admission/scheduling/admit.h"
#include "webhook/admission/scheduling/schemas.h"

namespace vc::webhook::scheduling {

AdmissionResponse admit_hypernodes_validate(const AdmissionRequest& request,
                                            const ClusterView& /*view*/,
                                            const AdmissionOptions& /*options*/) {
  if (auto e = check_and_decode(request, kHyperNodesResource, hypernode_type())) {
    return AdmissionResponse::deny(*e);
  }
  // Volcano checks only CREATE and UPDATE and lets every other operation through.
  if (request.operation != "CREATE" && request.operation != "UPDATE") return {};

  const FieldPath members_path = FieldPath("").child("spec").child("members");
  FieldErrorList errors;
  const auto* members = go_get_array(request.object, {"spec", "members"});
  if (!members || members->empty()) {
    errors.add(invalid(members_path, BadValue::json_value(members ? json::array() : json()),
                       "member must have at least one member"));
  } else {
    const FieldPath pattern_path =
        members_path.child("selector").child("regexMatch").child("pattern");
    for (const auto& member : *members) {
      const std::string pattern = go_get_string(member, {"selector", "regexMatch", "pattern"});
      if (pattern.empty()) continue;
      if (auto e = go::regexp_error(pattern); !e.empty()) {
        errors.add(invalid(pattern_path, BadValue::str(pattern),
                           "member regexMatch pattern is invalid: " + e));
      }
    }
  }
  if (errors.empty()) return {};
  return AdmissionResponse::deny(errors.aggregate());
}

}  // namespace vc::webhook::scheduling

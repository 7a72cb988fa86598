// /hypernodes/validate (spec webhook.md §2.11), over the shared typed model
// (common/volcano/hyper_node.h).

#include "common/go/regexp.h"
#include "common/volcano/go_types.h"
#include "common/volcano/hyper_node.h"
#include "webhook/admission/field_error.h"
#include "webhook/admission/request_checks.h"
#include "webhook/admission/scheduling/admit.h"

namespace vc::webhook::scheduling {

namespace {

// The HyperNode of a request that passed check_and_decode; a null object is the zero HyperNode,
// as Go decodes it. After the Go type check no error is known to be possible here.
api::Expected<volcano::HyperNode> decode_request(const AdmissionRequest& request) {
  return volcano::decode_or_error<volcano::HyperNode>([&] {
    volcano::HyperNode out;
    if (!request.object.is_null()) volcano::decode_hyper_node(request.object, out);
    return out;
  });
}

}  // namespace

AdmissionResponse admit_hypernodes_validate(const AdmissionRequest& request,
                                            const ClusterView& /*view*/,
                                            const AdmissionOptions& /*options*/) {
  if (auto e = check_and_decode(request, kHyperNodesResource, volcano::go_types::hyper_node())) {
    return AdmissionResponse::deny(*e);
  }
  // Volcano checks only CREATE and UPDATE and lets every other operation through.
  if (request.operation != "CREATE" && request.operation != "UPDATE") return {};
  const auto hyper_node = decode_request(request);
  if (!hyper_node) return AdmissionResponse::deny(hyper_node.error());
  const volcano::HyperNodeSpec& spec = hyper_node->spec;

  const FieldPath members_path = FieldPath("").child("spec").child("members");
  FieldErrorList errors;
  if (spec.members.empty()) {
    errors.add(invalid(members_path,
                       BadValue::json_value(spec.members_null ? json() : json::array()),
                       "member must have at least one member"));
  } else {
    const FieldPath pattern_path =
        members_path.child("selector").child("regexMatch").child("pattern");
    for (const volcano::HyperNodeMember& member : spec.members) {
      const std::string& pattern = member.selector.regex_match.value_or("");
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

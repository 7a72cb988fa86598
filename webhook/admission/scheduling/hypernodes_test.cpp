#include <gtest/gtest.h>

#include "webhook/admission/scheduling/admit.h"
#include "webhook/admission/scheduling/admit_test_util.h"

namespace vc::webhook::scheduling {
namespace {

using namespace testing;  // NOLINT

json hypernode(json members) {
  json h = {{"apiVersion", "topology.volcano.sh/v1alpha1"},
            {"kind", "HyperNode"},
            {"metadata", {{"name", "s0"}}},
            {"spec", {{"tier", 1}}}};
  if (!members.is_null()) h["spec"]["members"] = std::move(members);
  return h;
}

json regex_member(const std::string& pattern) {
  return {{"type", "Node"}, {"selector", {{"regexMatch", {{"pattern", pattern}}}}}};
}

class HyperNodes : public ::testing::Test {
 protected:
  AdmissionResponse admit(json object, std::string op = "CREATE") {
    return admit_hypernodes_validate(make_request(kHyperNodesResource, op, std::move(object)),
                                     view_, options_);
  }
  StaticClusterView view_;
  AdmissionOptions options_;
};

TEST_F(HyperNodes, WrongResourceIsDenied) {
  EXPECT_DENIED(admit_hypernodes_validate(make_request(kQueuesResource, "CREATE", hypernode({})),
                                          view_, options_),
                "expect resource to be {topology.volcano.sh v1alpha1 hypernodes}");
}

TEST_F(HyperNodes, MembersAreRequired) {
  EXPECT_DENIED(admit(hypernode(nullptr)),
                "[].spec.members: Invalid value: null: member must have at least one member");
  EXPECT_DENIED(admit(hypernode(json::array()), "UPDATE"),
                "[].spec.members: Invalid value: []: member must have at least one member");
}

TEST_F(HyperNodes, ValidMembersAreAllowed) {
  EXPECT_ALLOWED(
      admit(hypernode({regex_member("node-[0-9]+"),
                       {{"type", "Node"}, {"selector", {{"exactMatch", {{"name", "n1"}}}}}},
                       regex_member("")})));
}

TEST_F(HyperNodes, InvalidPatternsAreDeniedWithGoRegexpErrorsOnceEach) {
  EXPECT_DENIED(admit(hypernode({regex_member("a(b")})),
                "[].spec.members.selector.regexMatch.pattern: Invalid value: \"a(b\": member "
                "regexMatch pattern is invalid: error parsing regexp: missing closing ): `a(b`");
  EXPECT_DENIED(admit(hypernode({regex_member("[x"), regex_member("ok"), regex_member("[x"),
                                 regex_member("*")})),
                "[[].spec.members.selector.regexMatch.pattern: Invalid value: \"[x\": member "
                "regexMatch pattern is invalid: error parsing regexp: missing closing ]: `[x`, "
                "[].spec.members.selector.regexMatch.pattern: Invalid value: \"*\": member "
                "regexMatch pattern is invalid: error parsing regexp: missing argument to "
                "repetition operator: `*`]");
}

TEST_F(HyperNodes, OtherOperationsAreAllowedUnchecked) {
  EXPECT_ALLOWED(admit(hypernode(nullptr), "DELETE"));
  EXPECT_ALLOWED(admit(nullptr, "CONNECT"));
}

TEST_F(HyperNodes, DecodeErrorsComeBeforeTheOperationCheck) {
  EXPECT_DENIED(admit(hypernode("all"), "DELETE"),
                "json: cannot unmarshal string into Go struct field HyperNodeSpec.spec.members of "
                "type []v1alpha1.MemberSpec");
  EXPECT_DENIED(
      admit(hypernode({{{"selector", {{"regexMatch", {{"pattern", 3}}}}}}})),
      "json: cannot unmarshal number into Go struct field RegexMatch.spec.members.selector."
      "regexMatch.pattern of type string");
}

}  // namespace
}  // namespace vc::webhook::scheduling

#include <gtest/gtest.h>

#include "webhook/admission/pods/admit.h"
#include "webhook/admission/pods/pods_test_util.h"

namespace vc::webhook::pods {
namespace {

using namespace testing;  // NOLINT

constexpr const char* kMin = "volcano.sh/jdb-min-available";
constexpr const char* kMax = "volcano.sh/jdb-max-unavailable";

class PodsValidate : public ::testing::Test {
 protected:
  AdmissionResponse admit(json object, std::string op = "CREATE") {
    return admit_pods_validate(pod_request(std::move(object), std::move(op)), view_, options_);
  }
  AdmissionResponse with(const char* key, const std::string& value) {
    return admit(pod({{key, value}}));
  }
  StaticClusterView view_;
  AdmissionOptions options_;
};

TEST_F(PodsValidate, WrongResourceIsDenied) {
  EXPECT_DENIED(admit_pods_validate(
                    make_request({"scheduling.volcano.sh", "v1beta1", "queues"}, "CREATE", pod()),
                    view_, options_),
                "expect resource to be { v1 pods}");
}

TEST_F(PodsValidate, DecodeErrorNamesTheField) {
  EXPECT_DENIED(admit(pod({}, {{"schedulerName", 1}})),
                "json: cannot unmarshal number into Go struct field PodSpec.spec.schedulerName of "
                "type string");
}

TEST_F(PodsValidate, OnlyCreateIsHandled) {
  EXPECT_DENIED(admit(pod(), "UPDATE"), "expect operation to be 'CREATE'");
}

TEST_F(PodsValidate, PodsOfOtherSchedulersAreNotChecked) {
  EXPECT_ALLOWED(admit(pod({{kMin, "0"}}, {{"schedulerName", "default-scheduler"}})));
  options_.scheduler_names = {"custom", "volcano"};
  EXPECT_DENIED(admit(pod({{kMin, "0"}})),
                "invalid value <\"0\"> for volcano.sh/jdb-min-available, it must be a positive "
                "integer");
}

TEST_F(PodsValidate, PositiveIntegersAndPercentagesAreAllowed) {
  EXPECT_ALLOWED(admit(pod()));
  EXPECT_ALLOWED(with(kMin, "3"));
  EXPECT_ALLOWED(with(kMin, "+7"));
  EXPECT_ALLOWED(with(kMax, "50%"));
  EXPECT_ALLOWED(with(kMax, "%50"));
  EXPECT_ALLOWED(with(kMax, "5%%"));
}

TEST_F(PodsValidate, IntegersMustBePositive) {
  EXPECT_DENIED(with(kMin, "-1"),
                "invalid value <\"-1\"> for volcano.sh/jdb-min-available, it must be a positive "
                "integer");
}

TEST_F(PodsValidate, PercentagesMustBeBetweenOneAndNinetyNine) {
  EXPECT_DENIED(with(kMax, "100%"),
                "invalid value <\"100%\"> for volcano.sh/jdb-max-unavailable, it must be a valid "
                "percentage which between 1% ~ 99%");
  EXPECT_DENIED(with(kMax, "0%"),
                "invalid value <\"0%\"> for volcano.sh/jdb-max-unavailable, it must be a valid "
                "percentage which between 1% ~ 99%");
  // Beyond int32 the value is read as a percentage.
  EXPECT_DENIED(with(kMin, "3000000000"),
                "invalid value <\"3000000000\"> for volcano.sh/jdb-min-available, it must be a "
                "valid percentage which between 1% ~ 99%");
}

TEST_F(PodsValidate, TextThatIsNoNumberShowsTheAtoiError) {
  EXPECT_DENIED(with(kMax, "abc"),
                "invalid value strconv.Atoi: parsing \"abc\": invalid syntax for "
                "volcano.sh/jdb-max-unavailable");
  EXPECT_DENIED(with(kMax, "a%b%"),
                "invalid value strconv.Atoi: parsing \"ab\": invalid syntax for "
                "volcano.sh/jdb-max-unavailable");
  EXPECT_DENIED(with(kMax, ""),
                "invalid value strconv.Atoi: parsing \"\": invalid syntax for "
                "volcano.sh/jdb-max-unavailable");
  EXPECT_DENIED(with(kMax, "99999999999999999999%"),
                "invalid value strconv.Atoi: parsing \"99999999999999999999\": value out of range "
                "for volcano.sh/jdb-max-unavailable");
}

TEST_F(PodsValidate, BothAnnotationsAtOnceAreDenied) {
  EXPECT_DENIED(admit(pod({{kMin, "1"}, {kMax, "10%"}})),
                "not allow configure multiple annotations <[volcano.sh/jdb-min-available "
                "volcano.sh/jdb-max-unavailable]> at same time");
  // An invalid value is reported first.
  EXPECT_DENIED(admit(pod({{kMin, "1"}, {kMax, "x"}})),
                "invalid value strconv.Atoi: parsing \"x\": invalid syntax for "
                "volcano.sh/jdb-max-unavailable");
}

}  // namespace
}  // namespace vc::webhook::pods

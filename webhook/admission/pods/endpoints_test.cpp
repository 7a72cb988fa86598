#include "webhook/admission/pods/endpoints.h"

#include <gtest/gtest.h>

#include "webhook/admission/pods/pods_test_util.h"

namespace vc::webhook::pods {
namespace {

using namespace testing;  // NOLINT

TEST(PodEndpoints, ServesMutateAndValidate) {
  const auto list = endpoints();
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0].path, "/pods/mutate");
  EXPECT_TRUE(list[0].mutating);
  EXPECT_EQ(list[1].path, "/pods/validate");
  EXPECT_FALSE(list[1].mutating);
  StaticClusterView view;
  AdmissionOptions options;
  // Each path runs its own function: they differ in the UPDATE message.
  EXPECT_EQ(list[0].admit(pod_request(pod(), "UPDATE"), view, options).message,
            "expect operation to be 'CREATE' ");
  EXPECT_EQ(list[1].admit(pod_request(pod(), "UPDATE"), view, options).message,
            "expect operation to be 'CREATE'");
}

}  // namespace
}  // namespace vc::webhook::pods

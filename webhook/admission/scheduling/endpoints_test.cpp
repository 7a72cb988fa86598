#include "webhook/admission/scheduling/endpoints.h"

#include <gtest/gtest.h>

#include "webhook/admission/scheduling/admit_test_util.h"

namespace vc::webhook::scheduling {
namespace {

using namespace testing;  // NOLINT

TEST(SchedulingEndpoints, ServesFivePathsWithTheirKinds) {
  const auto list = endpoints();
  std::vector<std::pair<std::string, bool>> got;
  for (const auto& e : list) {
    got.emplace_back(e.path, e.mutating);
    EXPECT_TRUE(static_cast<bool>(e.admit)) << e.path;
  }
  EXPECT_EQ(got, (std::vector<std::pair<std::string, bool>>{{"/podgroups/mutate", true},
                                                            {"/podgroups/validate", false},
                                                            {"/queues/mutate", true},
                                                            {"/queues/validate", false},
                                                            {"/hypernodes/validate", false}}));
}

TEST(SchedulingEndpoints, EachPathRunsItsOwnAdmitFunction) {
  StaticClusterView view;
  AdmissionOptions options;
  for (const auto& e : endpoints()) {
    // A request for a resource no endpoint serves names the one each expects.
    const auto response =
        e.admit(make_request({"x", "v1", "y"}, "CREATE", json::object()), view, options);
    EXPECT_FALSE(response.allowed);
    const std::string resource = e.path.substr(1, e.path.find('/', 1) - 1);
    EXPECT_NE(response.message.find(" " + resource + "}"), std::string::npos)
        << e.path << ": " << response.message;
  }
}

}  // namespace
}  // namespace vc::webhook::scheduling

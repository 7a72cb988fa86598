#include <gtest/gtest.h>

#include "common/volcano/go_types.h"
#include "webhook/admission/jobs/k8s_names.h"
#include "webhook/admission/jobs/semantic.h"

namespace vc::webhook::jobs {
namespace {

using nlohmann::json;
using Errors = std::vector<std::string>;

TEST(K8sNames, EnvVarNamesAndPortsUseKubernetesMessages) {
  EXPECT_EQ(env_var_name_errors("MY_VAR.x-1"), Errors{});
  EXPECT_EQ(env_var_name_errors("."), Errors{"must not be '.'"});
  EXPECT_EQ(env_var_name_errors(".."), Errors{"must not be '..'"});
  EXPECT_EQ(port_name_errors("http"), Errors{});
  EXPECT_EQ(port_name_errors("0123456789abcdef"), Errors{"must be no more than 15 characters"});
  EXPECT_EQ(port_name_errors("80"), Errors{"must contain at least one letter (a-z)"});
  EXPECT_EQ(port_number_errors(65536), Errors{"must be between 1 and 65535, inclusive"});
  EXPECT_EQ(port_number_errors(1), Errors{});
}

TEST(Semantic, ZeroValuesNilSlicesAndQuantities) {
  const go::GoType& spec = volcano::go_types::job_spec();
  EXPECT_TRUE(semantic_equal({{"queue", ""}, {"tasks", json::array()}, {"plugins", json::object()}},
                             json::object(), spec));
  EXPECT_TRUE(semantic_equal(
      {{"tasks", json::array({{{"template", {{"spec", {{"overhead", {{"cpu", "0.5"}}}}}}}}})}},
      {{"tasks", json::array({{{"template", {{"spec", {{"overhead", {{"cpu", "500m"}}}}}}}}})}},
      spec));
  // A pointer to zero is not nil; a map entry with an empty value is not a missing entry.
  EXPECT_FALSE(semantic_equal({{"minSuccess", 0}}, json::object(), spec));
  EXPECT_FALSE(semantic_equal({{"plugins", {{"ssh", json::array()}}}}, json::object(), spec));
  EXPECT_TRUE(semantic_equal({{"plugins", {{"ssh", json::array()}}}},
                             {{"plugins", {{"ssh", nullptr}}}}, spec));
  // Unknown fields of Volcano types are dropped; of Kubernetes types they are kept.
  EXPECT_TRUE(semantic_equal({{"unknown", 1}}, json::object(), spec));
  EXPECT_FALSE(
      semantic_equal({{"tasks", json::array({{{"template", {{"spec", {{"affinity", 1}}}}}}})}},
                     {{"tasks", json::array({{{"template", {{"spec", json::object()}}}}})}}, spec));
}

}  // namespace
}  // namespace vc::webhook::jobs

#include "webhook/admission/pod_admission_config.h"

#include <gtest/gtest.h>

namespace vc::webhook {
namespace {

using nlohmann::json;

PodAdmissionConfig parse_ok(const std::string& yaml) {
  auto config = PodAdmissionConfig::parse(yaml);
  EXPECT_TRUE(config.ok()) << config.error();
  return config.ok() ? *config : PodAdmissionConfig{};
}

std::string parse_error(const std::string& yaml) {
  auto config = PodAdmissionConfig::parse(yaml);
  EXPECT_FALSE(config.ok());
  return config.error();
}

TEST(PodAdmissionConfig, EmptyAndCommentOnlyFilesHaveNoGroups) {
  EXPECT_TRUE(parse_ok("").resource_groups.empty());
  EXPECT_TRUE(
      parse_ok("# resourceGroups:\n#- resourceGroup: management\n").resource_groups.empty());
  EXPECT_TRUE(parse_ok("resourceGroups:\n").resource_groups.empty());
}

TEST(PodAdmissionConfig, ReadsEveryFieldOfAGroup) {
  const auto config = parse_ok(R"(
resourceGroups:
- resourceGroup: management
  object:
    key: namespace
    value:
    - mng-ns-1
    - mng-ns-2
  schedulerName: default-scheduler
  tolerations:
  - key: node-role.kubernetes.io/master
    operator: Exists
    effect: NoSchedule
  labels:
    volcano.sh/nodetype: management
    zone: 1
  affinity: '{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[]}}}'
- resourceGroup: cpu
  object:
    key: annotation
    value:
    - "volcano.sh/resource-group: cpu"
)");
  ASSERT_EQ(config.resource_groups.size(), 2u);
  const auto& g = config.resource_groups[0];
  EXPECT_EQ(g.resource_group, "management");
  EXPECT_EQ(g.object_key, "namespace");
  EXPECT_EQ(g.object_values, (std::vector<std::string>{"mng-ns-1", "mng-ns-2"}));
  EXPECT_EQ(g.scheduler_name, "default-scheduler");
  EXPECT_EQ(g.tolerations, json::parse(R"([{"key":"node-role.kubernetes.io/master",
                                            "operator":"Exists","effect":"NoSchedule"}])"));
  EXPECT_EQ(g.labels, (std::map<std::string, std::string>{{"volcano.sh/nodetype", "management"},
                                                          {"zone", "1"}}));
  EXPECT_EQ(
      g.affinity,
      R"({"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[]}}})");
  EXPECT_EQ(config.resource_groups[1].object_values,
            std::vector<std::string>{"volcano.sh/resource-group: cpu"});
}

TEST(PodAdmissionConfig, TolerationKeysAreTheLowerCasedGoFieldNames) {
  const auto config = parse_ok(R"(
resourceGroups:
- tolerations:
  - key: a
    tolerationseconds: 30
  - key: b
    tolerationSeconds: 30
    Effect: NoSchedule
  - tolerationseconds: 0x10
  - tolerationseconds: 1_000
  - tolerationseconds: 2.9
  - ~
)");
  ASSERT_EQ(config.resource_groups.size(), 1u);
  EXPECT_EQ(config.resource_groups[0].tolerations, json::parse(R"([
      {"key":"a","tolerationSeconds":30}, {"key":"b"}, {"tolerationSeconds":16},
      {"tolerationSeconds":1000}, {"tolerationSeconds":2}, {}])"));
}

TEST(PodAdmissionConfig, ScalarsReadAsTextAndNullsAsEmpty) {
  const auto config = parse_ok(R"(
unknownTopLevel: 1
resourceGroups:
- resourceGroup: 42
  schedulerName: ~
  labels: {a: ~, b: true}
  somethingElse: [1, 2]
- ~
)");
  ASSERT_EQ(config.resource_groups.size(), 2u);
  EXPECT_EQ(config.resource_groups[0].resource_group, "42");
  EXPECT_EQ(config.resource_groups[0].scheduler_name, "");
  EXPECT_EQ(config.resource_groups[0].labels,
            (std::map<std::string, std::string>{{"a", ""}, {"b", "true"}}));
  EXPECT_EQ(config.resource_groups[1].resource_group, "");
}

TEST(PodAdmissionConfig, ErrorsNameTheFieldAndLine) {
  EXPECT_EQ(parse_error("- a\n- b\n"),
            "the admission configuration: expected a mapping, got a sequence (line 1)");
  EXPECT_EQ(parse_error("resourceGroups: nope\n"),
            "resourceGroups: expected a sequence, got a scalar (line 1)");
  EXPECT_EQ(parse_error("resourceGroups:\n- schedulerName: [a]\n"),
            "resourceGroups[0].schedulerName: expected a string, got a sequence (line 2)");
  EXPECT_EQ(parse_error("resourceGroups:\n- object:\n    value: x\n"),
            "resourceGroups[0].object.value: expected a sequence, got a scalar (line 3)");
  EXPECT_EQ(parse_error("resourceGroups:\n- tolerations:\n  - tolerationseconds: soon\n"),
            "resourceGroups[0].tolerations[0].tolerationseconds: cannot read \"soon\" as an int64 "
            "(line 3)");
  EXPECT_EQ(parse_error("resourceGroups:\n- tolerations:\n  - tolerationseconds: \"5\"\n"),
            "resourceGroups[0].tolerations[0].tolerationseconds: cannot read \"5\" as an int64 "
            "(line 3)");
  EXPECT_EQ(parse_error("resourceGroups:\n- tolerations: [x]\n"),
            "resourceGroups[0].tolerations[0]: expected a mapping, got a scalar (line 2)");
}

TEST(PodAdmissionConfig, InvalidYamlIsReported) {
  const std::string e = parse_error("resourceGroups: [\n");
  EXPECT_EQ(e.rfind("the admission configuration is not valid YAML: ", 0), 0u) << e;
}

}  // namespace
}  // namespace vc::webhook

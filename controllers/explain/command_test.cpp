#include "controllers/explain/command.h"

#include <gtest/gtest.h>

#include "controllers/explain/placement.h"

namespace vc::controllers::explain {
namespace {

TEST(CommandLine, NamespaceFromTheTargetOrTheFlag) {
  CommandLine a;
  EXPECT_EQ(parse_command_line({"team/ray", "-o", "json"}, a), "");
  EXPECT_EQ(a.namespace_, "team");
  EXPECT_EQ(a.target, "ray");
  EXPECT_EQ(a.output, "json");
  CommandLine b;
  EXPECT_EQ(parse_command_line({"--namespace=team", "ray", "--podgroup"}, b), "");
  EXPECT_EQ(b.namespace_, "team");
  EXPECT_TRUE(b.podgroup);
}

TEST(CommandLine, UsageErrorsNameTheProblem) {
  CommandLine c;
  EXPECT_EQ(parse_command_line({}, c), "missing the job: [NAMESPACE/]NAME or -f FILE");
  CommandLine d;
  EXPECT_EQ(parse_command_line({"a/b", "-n", "c"}, d), "namespace a in a/b differs from -n c");
  CommandLine e;
  EXPECT_EQ(parse_command_line({"x", "-o", "yaml"}, e), "-o must be text or json, got yaml");
  CommandLine f;
  EXPECT_EQ(parse_command_line({"x", "--frobnicate"}, f), "unknown flag: --frobnicate");
  CommandLine g;
  EXPECT_EQ(parse_command_line({"x", "-n"}, g), "flag needs an argument: 'n' in -n");
  CommandLine help;
  EXPECT_EQ(parse_command_line({"--help"}, help), "");
  EXPECT_TRUE(help.help);
  CommandLine h;
  EXPECT_EQ(parse_command_line({"a//b"}, h), "the job must be NAME or NAMESPACE/NAME, got a//b");
}

TEST(Tolerates, KubernetesMatchingRules) {
  const nlohmann::json taint{{"key", "k"}, {"value", "v"}, {"effect", "NoSchedule"}};
  using nlohmann::json;
  EXPECT_TRUE(tolerates(json::array({{{"operator", "Exists"}}}), taint));
  EXPECT_TRUE(tolerates(json::array({{{"key", "k"}, {"value", "v"}}}), taint));
  EXPECT_TRUE(tolerates(
      json::array({{{"key", "k"}, {"operator", "Exists"}, {"effect", "NoSchedule"}}}), taint));
  EXPECT_FALSE(tolerates(json::array({{{"key", "k"}, {"value", "w"}}}), taint));
  EXPECT_FALSE(tolerates(
      json::array({{{"key", "k"}, {"operator", "Exists"}, {"effect", "NoExecute"}}}), taint));
  EXPECT_FALSE(tolerates(json(), taint));
}

}  // namespace
}  // namespace vc::controllers::explain

#include "controllers/explain/node_affinity.h"

#include <gtest/gtest.h>

namespace vc::controllers::explain {
namespace {

using nlohmann::json;

json node(const std::string& name, json labels) {
  return {{"metadata", {{"name", name}, {"labels", std::move(labels)}}}};
}

json pod_with_terms(json terms) {
  return {{"spec",
           {{"affinity",
             {{"nodeAffinity",
               {{"requiredDuringSchedulingIgnoredDuringExecution",
                 {{"nodeSelectorTerms", std::move(terms)}}}}}}}}}};
}

json expr(const std::string& key, const std::string& op, json values = json::array()) {
  json e = {{"key", key}, {"operator", op}};
  if (!values.empty()) e["values"] = std::move(values);
  return e;
}

json term(json expressions, json fields = json::array()) {
  json t = json::object();
  if (!expressions.empty()) t["matchExpressions"] = std::move(expressions);
  if (!fields.empty()) t["matchFields"] = std::move(fields);
  return t;
}

TEST(NodeAffinity, APodWithoutOneMatchesEveryNode) {
  const json pod = {{"spec", json::object()}};
  EXPECT_FALSE(has_required_node_affinity(pod));
  EXPECT_TRUE(node_affinity_matches(pod, node("n", json::object())));
  EXPECT_EQ(describe_required_node_affinity(pod), "");
}

TEST(NodeAffinity, EachOperator) {
  const json n = node("n1", {{"zone", "a"}, {"cores", "16"}});
  const auto match = [&](json e) {
    return node_affinity_matches(pod_with_terms(json::array({term(json::array({e}))})), n);
  };
  EXPECT_TRUE(match(expr("zone", "In", {"a", "b"})));
  EXPECT_FALSE(match(expr("zone", "In", {"b"})));
  EXPECT_FALSE(match(expr("zone", "NotIn", {"a"})));
  EXPECT_TRUE(match(expr("rack", "NotIn", {"a"})));  // a missing label is not in any set
  EXPECT_TRUE(match(expr("zone", "Exists")));
  EXPECT_FALSE(match(expr("rack", "Exists")));
  EXPECT_TRUE(match(expr("rack", "DoesNotExist")));
  EXPECT_TRUE(match(expr("cores", "Gt", {"8"})));
  EXPECT_FALSE(match(expr("cores", "Lt", {"8"})));
  EXPECT_FALSE(match(expr("zone", "Gt", {"1"})));   // not a number
  EXPECT_FALSE(match(expr("cores", "Gt", {"x"})));  // nor this
  EXPECT_FALSE(match(expr("zone", "Near", {"a"})));
}

TEST(NodeAffinity, TermsAreOredTheirRequirementsAnded) {
  const json pod = pod_with_terms(
      json::array({term(json::array({expr("zone", "In", {"a"}), expr("gpu", "Exists")})),
                   term(json::array(), json::array({expr("metadata.name", "In", {"n3"})}))}));
  EXPECT_TRUE(node_affinity_matches(pod, node("n1", {{"zone", "a"}, {"gpu", "1"}})));
  EXPECT_FALSE(node_affinity_matches(pod, node("n2", {{"zone", "a"}})));
  EXPECT_TRUE(node_affinity_matches(pod, node("n3", json::object())));
  EXPECT_EQ(describe_required_node_affinity(pod), "zone=a, gpu | metadata.name=n3");
}

TEST(NodeAffinity, AnEmptyTermMatchesNoNode) {
  const json pod = pod_with_terms(json::array({json::object()}));
  EXPECT_TRUE(has_required_node_affinity(pod));
  EXPECT_FALSE(node_affinity_matches(pod, node("n", {{"zone", "a"}})));
  EXPECT_EQ(describe_required_node_affinity(pod), "(empty term)");
}

TEST(NodeAffinity, DescriptionUsesLabelSelectorWords) {
  const json pod = pod_with_terms(json::array({term(json::array(
      {expr("zone", "In", {"a", "b"}), expr("pool", "NotIn", {"x"}), expr("spot", "DoesNotExist"),
       expr("cores", "Gt", {"8"}), expr("mem", "Lt", {"64"})}))}));
  EXPECT_EQ(describe_required_node_affinity(pod),
            "zone in (a,b), pool notin (x), !spot, cores>8, mem<64");
}

TEST(NodeAffinity, OddShapesReadAsUnset) {
  json pod = {{"spec", {{"affinity", {{"nodeAffinity", "nonsense"}}}}}};
  EXPECT_FALSE(has_required_node_affinity(pod));
  pod = pod_with_terms(json::array({term(json::array({{{"key", 3}, {"operator", "In"}}}))}));
  EXPECT_FALSE(node_affinity_matches(pod, node("n", {{"zone", "a"}})));
}

}  // namespace
}  // namespace vc::controllers::explain

#include "common/api/label_selector.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace vc::api {
namespace {

using nlohmann::json;

LabelSelector parse_ok(std::string_view text) {
  auto s = LabelSelector::parse(text);
  EXPECT_TRUE(s.ok()) << "'" << text << "': " << s.error();
  return s.ok() ? *s : LabelSelector::nothing();
}

std::string parse_error(std::string_view text) {
  auto s = LabelSelector::parse(text);
  EXPECT_FALSE(s.ok()) << "'" << text << "' parsed as '" << s->to_string() << "'";
  return s.error();
}

LabelSelector from_json_ok(const char* text, std::string_view path = "") {
  auto s = LabelSelector::from_json(json::parse(text), path);
  EXPECT_TRUE(s.ok()) << text << ": " << s.error();
  return s.ok() ? *s : LabelSelector::nothing();
}

std::string from_json_error(const char* text, std::string_view path = "") {
  auto s = LabelSelector::from_json(json::parse(text), path);
  EXPECT_FALSE(s.ok()) << text;
  return s.error();
}

TEST(LabelSelectorParse, PrintsCanonicalFormSortedByKey) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", ""},
      {"x=a", "x=a"},
      {"x==a", "x==a"},
      {"x!=a", "x!=a"},
      {"x in (a,b)", "x in (a,b)"},
      {"x in (b,a,b)", "x in (a,b)"},
      {"x notin (a)", "x notin (a)"},
      {"x", "x"},
      {"!x", "!x"},
      {"x>1", "x>1"},
      {"x<10", "x<10"},
      {"x=a,y!=b", "x=a,y!=b"},
      {"z=c,y=b,x=a", "x=a,y=b,z=c"},
      {"  x  =  a , y in ( b , c ) ", "x=a,y in (b,c)"},
      {"\tx\n=\ra", "x=a"},
      {"x=", "x="},
      {"x=,y=b", "x=,y=b"},
      {"x in ()", "x in ()"},
      {"x in (,a)", "x in (,a)"},
      {"x in (a,,b)", "x in (,a,b)"},
      {"x in (a,)", "x in (,a)"},
      {"in in (in)", "in in (in)"},
      {"notin=in", "notin=in"},
      {"x in (foo,,baz),y,z notin ()", "x in (,baz,foo),y,z notin ()"},
      {"!volcano.sh/canary,example.com/app=web", "example.com/app=web,!volcano.sh/canary"},
  };
  for (const auto& [input, canonical] : cases) {
    EXPECT_EQ(parse_ok(input).to_string(), canonical) << "input '" << input << "'";
    // The canonical form is a fixed point.
    EXPECT_EQ(parse_ok(canonical).to_string(), canonical);
  }
}

TEST(LabelSelectorParse, ErrorsNameWhatWasFoundAndExpected) {
  EXPECT_EQ(parse_error("x=a,"), "found '', expected: identifier after ','");
  EXPECT_EQ(parse_error("x=a b"), "found 'b', expected: ',' or 'end of string'");
  EXPECT_EQ(parse_error("=a"), "found '=', expected: !, identifier, or 'end of string'");
  EXPECT_EQ(parse_error("("), "found '(', expected: !, identifier, or 'end of string'");
  EXPECT_EQ(parse_error("x y"),
            "unable to parse requirement: found 'y', expected: in, notin, =, ==, !=, gt, lt");
  EXPECT_EQ(parse_error("x in a"), "unable to parse requirement: found 'a' expected: '('");
  EXPECT_EQ(parse_error("x in (a"), "unable to parse requirement: found '', expected: ',' or ')'");
  EXPECT_EQ(parse_error("x in (a b)"),
            "unable to parse requirement: found 'b', expected: ',' or ')'");
  EXPECT_EQ(parse_error("x in (=)"),
            "unable to parse requirement: found '=', expected: ',', ')' or identifier");
  EXPECT_EQ(parse_error("x in (a))"), "found ')', expected: ',' or 'end of string'");
  EXPECT_EQ(parse_error("!"), "unable to parse requirement: found '', expected: identifier");
  EXPECT_EQ(parse_error("x=("), "unable to parse requirement: found '(', expected: identifier");
  EXPECT_EQ(parse_error("!x=a"), "found '=', expected: ',' or 'end of string'");
  EXPECT_EQ(parse_error("x==a==b"), "found '==', expected: ',' or 'end of string'");
}

TEST(LabelSelectorParse, InvalidKeysAndValuesAreNamed) {
  EXPECT_EQ(parse_error("a b c=d").substr(0, 40), "unable to parse requirement: found 'b', ");
  const std::string bad_key = parse_error("a/b/c=d");
  // apimachinery v0.35 validates keys with content.IsLabelKey, hence "a valid label key".
  EXPECT_EQ(bad_key.rfind("unable to parse requirement: key: Invalid value: \"a/b/c\": a valid "
                          "label key must consist of",
                          0),
            0u)
      << bad_key;
  const std::string bad_value = parse_error("x=a$");
  EXPECT_EQ(bad_value.rfind("unable to parse requirement: values[0][x]: Invalid value: \"a$\": a "
                            "valid label must be an empty string",
                            0),
            0u)
      << bad_value;
  EXPECT_EQ(parse_error("x<a"),
            "unable to parse requirement: values[0]: Invalid value: \"a\": for 'Gt', 'Lt' "
            "operators, the value must be an integer");
  // Kubernetes checks Gt/Lt values as label values too, so negative numbers are refused.
  EXPECT_EQ(parse_error("x<-1").rfind("unable to parse requirement: values[0][x]", 0), 0u);
  EXPECT_EQ(parse_error("x=a||y=b").rfind("unable to parse requirement: values[0][x]", 0), 0u);
}

struct MatchCase {
  std::string selector;
  Labels labels;
  bool match;
};

TEST(LabelSelectorMatch, FollowsKubernetesOperatorSemantics) {
  const std::vector<MatchCase> cases = {
      {"", {{"x", "y"}}, true},
      {"", {}, true},
      {"x=y", {{"x", "y"}}, true},
      {"x==y", {{"x", "y"}}, true},
      {"x=y,z=w", {{"x", "y"}, {"z", "w"}}, true},
      {"x!=y,z!=w", {{"x", "z"}, {"z", "a"}}, true},
      {"x!=y", {}, true},
      {"notin=in", {{"notin", "in"}}, true},
      {"x", {{"x", "z"}}, true},
      {"!x", {{"y", "z"}}, true},
      {"x>1", {{"x", "2"}}, true},
      {"x<1", {{"x", "0"}}, true},
      {"x<1", {{"x", "-5"}}, true},
      {"x in (a,b)", {{"x", "b"}}, true},
      {"x notin (a)", {}, true},
      {"x notin (a)", {{"x", "b"}}, true},
      {"x=", {{"x", ""}}, true},
      {"x=z", {}, false},
      {"x=y", {{"x", "z"}}, false},
      {"x=y,z=w", {{"x", "w"}, {"z", "w"}}, false},
      {"x!=y,z!=w", {{"x", "z"}, {"z", "w"}}, false},
      {"x", {{"y", "z"}}, false},
      {"!x", {{"x", "z"}}, false},
      {"x>1", {{"x", "0"}}, false},
      {"x>1", {{"x", "1"}}, false},
      {"x<1", {{"x", "2"}}, false},
      {"x>1", {{"x", "a"}}, false},
      {"x>1", {}, false},
      {"x in (a)", {}, false},
      {"x notin (a)", {{"x", "a"}}, false},
      {"x=", {}, false},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(parse_ok(c.selector).matches(c.labels), c.match) << "selector '" << c.selector << "'";
  }
}

TEST(LabelSelectorMatch, EverythingNothingAndFromLabels) {
  EXPECT_TRUE(LabelSelector().matches(Labels{}));
  EXPECT_TRUE(LabelSelector::everything().empty());
  EXPECT_FALSE(LabelSelector::nothing().matches(Labels{}));
  EXPECT_FALSE(LabelSelector::nothing().empty());
  EXPECT_TRUE(LabelSelector::nothing().matches_nothing());
  const LabelSelector s = LabelSelector::from_labels({{"b", "2"}, {"a", "1"}});
  EXPECT_EQ(s.to_string(), "a=1,b=2");
  EXPECT_TRUE(s.matches(Labels{{"a", "1"}, {"b", "2"}, {"c", "3"}}));
  EXPECT_FALSE(s.matches(Labels{{"a", "1"}}));
  EXPECT_TRUE(LabelSelector::from_labels({}).empty());
}

TEST(LabelSelectorMatch, MatchesAJsonLabelsObject) {
  const LabelSelector s = parse_ok("app=web,!canary");
  EXPECT_TRUE(s.matches(json::parse(R"({"app":"web","tier":"front"})")));
  EXPECT_FALSE(s.matches(json::parse(R"({"app":"web","canary":"true"})")));
  EXPECT_FALSE(s.matches(json::parse(R"({"app":1})"))) << "non-string labels are absent";
  EXPECT_FALSE(s.matches(json(nullptr)));
  EXPECT_TRUE(parse_ok("!x").matches(json(nullptr)));
}

TEST(LabelSelectorJson, BuildsFromMatchLabelsAndExpressions) {
  const LabelSelector s = from_json_ok(R"({
      "matchLabels": {"app": "web"},
      "matchExpressions": [
        {"key": "tier", "operator": "In", "values": ["front", "back"]},
        {"key": "zone", "operator": "NotIn", "values": ["z1"]},
        {"key": "gpu", "operator": "Exists"},
        {"key": "canary", "operator": "DoesNotExist", "values": []}
      ]})");
  EXPECT_EQ(s.to_string(), "app=web,!canary,gpu,tier in (back,front),zone notin (z1)");
  EXPECT_TRUE(s.matches(Labels{{"app", "web"}, {"tier", "front"}, {"gpu", "a100"}}));
  EXPECT_FALSE(s.matches(Labels{{"app", "web"}, {"tier", "front"}}));
  EXPECT_FALSE(s.matches(Labels{{"app", "web"}, {"tier", "front"}, {"gpu", ""}, {"zone", "z1"}}));
}

TEST(LabelSelectorJson, NullMatchesNothingAndEmptyMatchesEverything) {
  auto null_selector = LabelSelector::from_json(json(nullptr));
  ASSERT_TRUE(null_selector.ok());
  EXPECT_TRUE(null_selector->matches_nothing());
  EXPECT_TRUE(from_json_ok("{}").empty());
  EXPECT_TRUE(from_json_ok(R"({"matchLabels":{},"matchExpressions":[]})").empty());
  EXPECT_TRUE(from_json_ok(R"({"matchLabels":null,"matchExpressions":null})").matches(Labels{}));
}

TEST(LabelSelectorJson, ValidationErrorsNameTheFieldPath) {
  EXPECT_EQ(from_json_error(R"({"matchExpressions":[{"key":"a","operator":"In"}]})"),
            "matchExpressions[0].values: Required value: must be specified when `operator` is "
            "'In' or 'NotIn'");
  EXPECT_EQ(from_json_error(R"({"matchExpressions":[{"key":"a","operator":"NotIn","values":[]}]})",
                            "spec.selector"),
            "spec.selector.matchExpressions[0].values: Required value: must be specified when "
            "`operator` is 'In' or 'NotIn'");
  EXPECT_EQ(from_json_error(R"({"matchExpressions":[{"key":"a","operator":"Exists",
                                "values":["x"]}]})"),
            "matchExpressions[0].values: Forbidden: may not be specified when `operator` is "
            "'Exists' or 'DoesNotExist'");
  EXPECT_EQ(from_json_error(R"({"matchExpressions":[{"key":"a","operator":"in","values":["x"]}]})"),
            "matchExpressions[0].operator: Invalid value: \"in\": not a valid selector operator");
  const std::string bad_value = from_json_error(
      R"({"matchExpressions":[{"key":"a","operator":"In","values":["ok","not ok"]}]})");
  EXPECT_EQ(bad_value.rfind("matchExpressions[0].values[1]: Invalid value: \"not ok\": a valid "
                            "label must be",
                            0),
            0u)
      << bad_value;
  const std::string bad_label = from_json_error(R"({"matchLabels":{"a b":"c"}})");
  EXPECT_EQ(bad_label.rfind("matchLabels: Invalid value: \"a b\": name part must consist", 0), 0u)
      << bad_label;
}

TEST(LabelSelectorJson, SeveralProblemsAreAggregated) {
  const std::string errors = from_json_error(R"({
      "matchLabels": {"app": "we b"},
      "matchExpressions": [{"key": "", "operator": "Foo"}]})");
  EXPECT_EQ(errors.front(), '[');
  EXPECT_EQ(errors.back(), ']');
  EXPECT_NE(errors.find("matchLabels: Invalid value: \"we b\""), std::string::npos) << errors;
  EXPECT_NE(errors.find("matchExpressions[0].operator: Invalid value: \"Foo\""), std::string::npos);
  EXPECT_NE(
      errors.find("matchExpressions[0].key: Invalid value: \"\": name part must be non-empty"),
      std::string::npos);
}

TEST(LabelSelectorJson, WrongJsonShapesAreReportedNotThrown) {
  EXPECT_EQ(from_json_error("[]"), "Invalid value: []: must be a label selector object");
  EXPECT_EQ(from_json_error(R"({"matchLabels":{"a":1}})"),
            "matchLabels[a]: Invalid value: 1: must be a string");
  EXPECT_EQ(from_json_error(R"({"matchExpressions":{}})"),
            "matchExpressions: Invalid value: {}: must be a list");
  EXPECT_EQ(from_json_error(R"({"matchExpressions":[{"key":"a","operator":"In","values":[1]}]})"),
            "matchExpressions[0].values[0]: Invalid value: 1: must be a string");
  EXPECT_EQ(from_json_error(R"({"matchExpressions":[{"key":5,"operator":"Exists"}]})"),
            "matchExpressions[0].key: Invalid value: 5: must be a string");
}

TEST(Requirement, MakeRequirementChecksValueCounts) {
  EXPECT_TRUE(make_requirement("a", SelectorOperator::In, {"x"}).ok());
  EXPECT_EQ(make_requirement("a", SelectorOperator::Equals, {"x", "y"}).error(),
            "values: Invalid value: []string{\"x\", \"y\"}: exact-match compatibility requires "
            "one single value");
  EXPECT_EQ(make_requirement("a", SelectorOperator::In, {}).error(),
            "values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be "
            "empty");
  EXPECT_EQ(make_requirement("a", SelectorOperator::Exists, {"x"}, "spec").error(),
            "spec.values: Invalid value: []string{\"x\"}: values set must be empty for exists and "
            "does not exist");
  EXPECT_EQ(make_requirement("a", SelectorOperator::GreaterThan, {"1", "2"}).error(),
            "values: Invalid value: []string{\"1\", \"2\"}: for 'Gt', 'Lt' operators, exactly one "
            "value is required");
  EXPECT_EQ(make_requirement("a", SelectorOperator::NotIn, {"y", "x"})->to_string(),
            "a notin (x,y)");
}

}  // namespace
}  // namespace vc::api

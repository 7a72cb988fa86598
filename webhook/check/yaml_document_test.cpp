#include "webhook/check/yaml_document.h"

#include <string>

#include <gtest/gtest.h>

namespace vc::webhook::check {
namespace {

std::string convert(std::string_view yaml) {
  YamlDocument doc = yaml_to_json(yaml);
  if (doc.error) {
    return "ERR " + std::to_string(doc.error->line) + ":" + std::to_string(doc.error->column) +
           " " + doc.error->message;
  }
  return doc.value.dump();
}

TEST(YamlDocument, ConvertsAManifestWithKubectlScalarRules) {
  EXPECT_EQ(convert("apiVersion: v1\nkind: ConfigMap\ndata:\n  a: \"1\"\n  b: yes\n  c: 1.0\n"
                    "  d: |\n    line\n  e: ~\n"),
            R"({"apiVersion":"v1","data":{"a":"1","b":true,"c":1,"d":"line\n","e":null},)"
            R"("kind":"ConfigMap"})");
}

TEST(YamlDocument, EmptyTextHasNoDocumentAndCommentsOnlyNeither) {
  EXPECT_FALSE(yaml_to_json("").present);
  EXPECT_FALSE(yaml_to_json("# only a comment\n\n").present);
}

TEST(YamlDocument, NonStringKeysBecomeStringsAndLaterDuplicatesWin) {
  EXPECT_EQ(convert("1: a\ntrue: b\n1.5: c\n0x10: d\n"),
            R"({"1":"a","1.5":"c","16":"d","true":"b"})");
  EXPECT_EQ(convert("a: 1\na: 2\n"), R"({"a":2})");
}

TEST(YamlDocument, NullAndCollectionKeysAreErrorsWithTheirPosition) {
  EXPECT_EQ(convert("a: 1\n~: x\n"), "ERR 2:1 unsupported map key: null");
  EXPECT_EQ(convert("? [1]\n: x\n"),
            "ERR 1:3 invalid map key: a sequence or mapping cannot be a key");
}

TEST(YamlDocument, AnchorsExpandAndMergeKeysFollowGoYamlPrecedence) {
  // A later explicit key beats the merged one; a merge after a key overrides it; in a merge
  // sequence the earlier map wins.
  EXPECT_EQ(convert("b: &x {p: 1, q: 2}\nc:\n  p: 9\n  <<: *x\nd:\n  <<: [*x, {r: 3, p: 7}]\n"
                    "  q: 0\n"),
            R"({"b":{"p":1,"q":2},"c":{"p":1,"q":2},"d":{"p":1,"q":0,"r":3}})");
  EXPECT_EQ(convert("a: {\"<<\": 1}\n"), R"({"a":{"<<":1}})");  // a quoted "<<" is a plain key
  EXPECT_EQ(convert("<<: 5\n"), "ERR 1:5 map merge requires map or sequence of maps as the value");
}

TEST(YamlDocument, SelfReferencingAliasIsAnErrorNotARecursion) {
  EXPECT_EQ(convert("a: &a [*a]\n"), "ERR 1:8 anchor value contains itself");
}

TEST(YamlDocument, AliasBombsStopAtTheValueBudget) {
  std::string yaml = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i < 9; ++i) {
    std::string prev = "*a" + std::to_string(i - 1);
    yaml += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [" + prev;
    for (int k = 0; k < 9; ++k) yaml += ", " + prev;
    yaml += "]\n";
  }
  YamlDocument doc = yaml_to_json(yaml);
  ASSERT_TRUE(doc.error);
  EXPECT_NE(doc.error->message.find("excessive aliasing"), std::string::npos) << doc.error->message;
}

TEST(YamlDocument, DeepNestingIsAnErrorNotACrash) {
  std::string yaml = "a: " + std::string(5000, '[') + std::string(5000, ']') + "\n";
  YamlDocument doc = yaml_to_json(yaml);
  ASSERT_TRUE(doc.error);
  EXPECT_EQ(doc.error->line, 1);
}

TEST(YamlDocument, SyntaxErrorsCarryLineAndColumn) {
  EXPECT_EQ(convert("a: 1\nb: [1, 2\n"), convert("a: 1\nb: [1, 2\n"));  // deterministic
  YamlDocument doc = yaml_to_json("a: 1\n  b: 2\n");
  ASSERT_TRUE(doc.error);
  EXPECT_EQ(doc.error->line, 2);
  EXPECT_GT(doc.error->column, 0);
  EXPECT_FALSE(doc.error->message.empty());
}

TEST(YamlDocument, InvalidUtf8IsRejectedWithItsPosition) {
  YamlDocument doc = yaml_to_json("a: ok\nb: \xff\n");
  ASSERT_TRUE(doc.error);
  EXPECT_EQ(doc.error->line, 2);
  EXPECT_EQ(doc.error->column, 4);
  EXPECT_EQ(doc.error->message, "invalid UTF-8");
  EXPECT_FALSE(find_invalid_utf8("caf\xc3\xa9 \xe4\xb8\xad\n"));
  EXPECT_TRUE(find_invalid_utf8("\xc0\xaf"));      // overlong
  EXPECT_TRUE(find_invalid_utf8("\xed\xa0\x80"));  // a surrogate
}

TEST(YamlDocument, ReportsTextAfterTheFirstDocument) {
  YamlDocument doc = yaml_to_json("a: 1\n--- # not a kubectl separator\nb: 2\n");
  EXPECT_FALSE(doc.error);
  EXPECT_EQ(doc.value.dump(), R"({"a":1})");
  EXPECT_TRUE(doc.more_after);
  EXPECT_FALSE(yaml_to_json("a: 1\n").more_after);
}

}  // namespace
}  // namespace vc::webhook::check

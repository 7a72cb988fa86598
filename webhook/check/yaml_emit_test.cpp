#include "webhook/check/yaml_emit.h"

#include <gtest/gtest.h>

#include "webhook/check/yaml_document.h"

namespace vc::webhook::check {
namespace {

using nlohmann::json;

TEST(YamlEmit, WritesKubectlStyleBlocks) {
  const json job = json::parse(R"({
    "apiVersion": "batch.volcano.sh/v1alpha1", "kind": "Job",
    "metadata": {"name": "train", "labels": {}},
    "spec": {"minAvailable": 2, "tasks": [
      {"name": "worker", "replicas": 2, "template": {"spec": {"containers": [
        {"name": "c", "image": "busybox:1.36", "command": ["sh", "-c", "echo hi"]}]}}}],
      "plugins": {"svc": []}, "weight": 0.5, "flag": true, "none": null}})");
  EXPECT_EQ(to_yaml(job),
            "apiVersion: batch.volcano.sh/v1alpha1\n"
            "kind: Job\n"
            "metadata:\n"
            "  labels: {}\n"
            "  name: train\n"
            "spec:\n"
            "  flag: true\n"
            "  minAvailable: 2\n"
            "  none: null\n"
            "  plugins:\n"
            "    svc: []\n"
            "  tasks:\n"
            "  - name: worker\n"
            "    replicas: 2\n"
            "    template:\n"
            "      spec:\n"
            "        containers:\n"
            "        - command:\n"
            "          - sh\n"
            "          - \"-c\"\n"
            "          - echo hi\n"
            "          image: busybox:1.36\n"
            "          name: c\n"
            "  weight: 0.5\n");
}

TEST(YamlEmit, QuotesStringsThatWouldReadBackAsSomethingElse) {
  for (const char* s : {"",      "yes",    "No", "on",  "1",    "010",    "1.5",
                        "1e3",   "null",   "~",  "-x",  "a: b", "a #b",   "key:",
                        " lead", "trail ", "<<", "...", "*x",   "tab\tx", "\xc3\xa9t\xc3\xa9",
                        "[x]",   "{x}",    "!x", "%x",  "@x",   "`x",     "'x",
                        "\"x"}) {
    EXPECT_FALSE(plain_safe(s)) << s;
  }
  for (const char* s : {"hello", "busybox:1.36", "a-b_c.d/e", "volcano.sh/queue-name", "a#b",
                        "2024-01-02", "x:y", "a,b", "1.2.3", "0x"}) {
    EXPECT_TRUE(plain_safe(s)) << s;
  }
}

TEST(YamlEmit, DoubleQuotingEscapesControlsAndLineSeparators) {
  EXPECT_EQ(double_quoted("a\"b\\c"), R"("a\"b\\c")");
  EXPECT_EQ(double_quoted("\x01\x7f\r\t"), R"("\u0001\u007F\r\t")");
  EXPECT_EQ(double_quoted("\xe2\x80\xa8"), R"("\u2028")");
  EXPECT_EQ(double_quoted("\xc3\xa9"), "\"\xc3\xa9\"");
  EXPECT_EQ(double_quoted("\xff"), R"("\uFFFD")");
}

TEST(YamlEmit, MultiLineStringsAreLiteralBlocksWithTheRightChomping) {
  EXPECT_EQ(to_yaml(json{{"k", "a\nb\n"}}), "k: |\n  a\n  b\n");
  EXPECT_EQ(to_yaml(json{{"k", "a\n\nb"}}), "k: |-\n  a\n\n  b\n");
  EXPECT_EQ(to_yaml(json{{"k", "a\n\n"}}), "k: |+\n  a\n\n");
  EXPECT_EQ(to_yaml(json{{"k", json::array({"x\ny\n"})}}), "k:\n- |\n  x\n  y\n");
  EXPECT_EQ(to_yaml(json{{"k", " indented\nline"}}), "k: \" indented\\nline\"\n");
}

TEST(YamlEmit, NestedSequencesStartOnTheDashLine) {
  EXPECT_EQ(to_yaml(json{{"k", json::array({json::array({1, 2}), json::object({{"a", 1}})})}}),
            "k:\n- - 1\n  - 2\n- a: 1\n");
}

TEST(YamlEmit, EverythingReadsBackAsTheSameJson) {
  const std::vector<std::string> strings = {"",
                                            "yes",
                                            "1",
                                            "0x10",
                                            "1e3",
                                            "null",
                                            "-",
                                            "- x",
                                            "a: b",
                                            "#c",
                                            "a #c",
                                            "x:",
                                            "\t",
                                            "tab\there",
                                            "quote\"s",
                                            "back\\slash",
                                            "multi\nline\n",
                                            "multi\nline",
                                            "\n\nlead",
                                            "trail\n\n\n",
                                            " sp\nx",
                                            "caf\xc3\xa9",
                                            "\xe2\x80\xa8",
                                            "\x1b[0m",
                                            "---",
                                            "...",
                                            "<<",
                                            "? q",
                                            "|",
                                            ">",
                                            "&a",
                                            "*a",
                                            "!t",
                                            "%",
                                            "@",
                                            "`",
                                            "{}",
                                            "[]",
                                            "'",
                                            "a'b",
                                            "0o17",
                                            ".inf",
                                            "2024-01-02",
                                            "18446744073709551616",
                                            "~"};
  json doc = json::object();
  json list = json::array();
  json keyed = json::object();
  for (const auto& s : strings) {
    list.push_back(s);
    keyed[s.empty() ? std::string("empty") : s] = s;
  }
  doc["list"] = list;
  doc["keyed"] = keyed;
  doc["numbers"] = json::array({0, -1, 1.5, 1e-7, 18446744073709551615ull, 9007199254740993ll});
  doc["nested"] = json::array(
      {json::array({json::object({{"x", json::array({"y"})}})}), json::object(), json::array()});
  const std::string yaml = to_yaml(doc);
  YamlDocument back = yaml_to_json(yaml);
  ASSERT_FALSE(back.error) << back.error->line << ": " << back.error->message << "\n" << yaml;
  EXPECT_EQ(back.value, doc) << yaml;
}

}  // namespace
}  // namespace vc::webhook::check

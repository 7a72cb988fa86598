#include "webhook/check/manifest_reader.h"

#include <cstdint>

#include <gtest/gtest.h>

#include "webhook/check/yaml_document.h"

namespace vc::webhook::check {
namespace {

std::string docs(const std::vector<ManifestEntry>& entries) {
  std::string out;
  for (const auto& e : entries) {
    if (!out.empty()) out += " ";
    out += e.doc + "@" + std::to_string(e.line);
    if (!e.error.empty()) out += "!";
  }
  return out;
}

TEST(ManifestReader, SplitsYamlOnSeparatorLinesAndSkipsEmptyDocuments) {
  const char* text =
      "---\n"
      "apiVersion: v1\nkind: A\n"
      "---   \n"
      "# only a comment\n"
      "--- \n"
      "apiVersion: v1\nkind: B\n"
      "---\n";
  auto entries = read_manifests(text);
  EXPECT_EQ(docs(entries), "1@2 2@7");
  EXPECT_EQ(entries[1].object["kind"], "B");
}

TEST(ManifestReader, SeparatorNeedsOnlyBlanksAfterTheDashes) {
  auto chunks = split_yaml_stream("a: 1\n---x\nb: 2\n--- \t\r\nc: 3");
  ASSERT_EQ(chunks.size(), 2u);
  EXPECT_EQ(chunks[0].text, "a: 1\n---x\nb: 2\n");
  EXPECT_EQ(chunks[1].text, "c: 3");
  EXPECT_EQ(chunks[1].first_line, 5);
}

TEST(ManifestReader, ABadDocumentIsLocatedAndTheOthersStillRead) {
  const char* text =
      "apiVersion: v1\nkind: A\n"
      "---\n"
      "apiVersion: v1\n"
      "kind: [B\n"
      "---\n"
      "apiVersion: v1\nkind: C\n";
  auto entries = read_manifests(text);
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[0].object["kind"], "A");
  EXPECT_EQ(entries[1].doc, "2");
  EXPECT_FALSE(entries[1].error.empty());
  EXPECT_GE(entries[1].line, 5);
  EXPECT_EQ(entries[2].object["kind"], "C");
}

TEST(ManifestReader, ObjectsNeedApiVersionAndKind) {
  auto entries = read_manifests("kind: A\n---\napiVersion: v1\n---\n- a\n---\nhello\n");
  ASSERT_EQ(entries.size(), 4u);
  EXPECT_EQ(entries[0].error, "object has no apiVersion");
  EXPECT_EQ(entries[1].error, "object has no kind");
  EXPECT_EQ(entries[2].error, "expected a Kubernetes object (a mapping), got a list");
  EXPECT_EQ(entries[3].error, "expected a Kubernetes object (a mapping), got a string");
}

TEST(ManifestReader, ListItemsAreExpandedAndNumberedUnderTheirDocument) {
  const char* text =
      "apiVersion: v1\nkind: A\n"
      "---\n"
      "apiVersion: v1\nkind: List\nitems:\n"
      "- {apiVersion: v1, kind: B}\n"
      "- {kind: C}\n";
  auto entries = read_manifests(text);
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[1].doc, "2.items[0]");
  EXPECT_EQ(entries[1].object["kind"], "B");
  EXPECT_EQ(entries[2].doc, "2.items[1]");
  EXPECT_EQ(entries[2].error, "object has no apiVersion");
  EXPECT_TRUE(read_manifests("apiVersion: v1\nkind: List\nitems: []\n").empty());
}

TEST(ManifestReader, JsonFilesAreStreamsOfObjects) {
  const char* text =
      "{\"apiVersion\": \"v1\", \"kind\": \"A\", \"data\": {\"x\": \"}{\\\"\"}}\n"
      "{\"apiVersion\": \"v1\",\n \"kind\": \"B\"}";
  auto entries = read_manifests(text);
  EXPECT_EQ(docs(entries), "1@1 2@2");
  EXPECT_EQ(entries[0].object["data"]["x"], "}{\"");
}

TEST(ManifestReader, JsonSyntaxErrorsNameTheLine) {
  auto entries = read_manifests("{\"apiVersion\": \"v1\", \"kind\": \"A\"}\n{\"a\":\n  tru}\n");
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[1].doc, "2");
  EXPECT_EQ(entries[1].line, 3);
  EXPECT_NE(entries[1].error.find("syntax error"), std::string::npos) << entries[1].error;
}

TEST(ManifestReader, JsonNumbersKeepTheirJsonTypes) {
  auto entries = read_manifests("{\"apiVersion\": \"v1\", \"kind\": \"A\", \"n\": 1.0, \"m\": 2}");
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_TRUE(entries[0].object["n"].is_number_float());
  EXPECT_TRUE(entries[0].object["m"].is_number_integer());
}

TEST(ManifestReader, AByteOrderMarkIsIgnored) {
  EXPECT_EQ(docs(read_manifests("\xEF\xBB\xBF{\"apiVersion\": \"v1\", \"kind\": \"A\"}")), "1@1");
  EXPECT_EQ(docs(read_manifests("\xEF\xBB\xBF"
                                "apiVersion: v1\nkind: A\n")),
            "1@1");
}

TEST(ManifestReader, TextAfterAFakeSeparatorIsReportedAsAWarning) {
  auto entries = read_manifests("apiVersion: v1\nkind: A\n--- # x\napiVersion: v1\nkind: B\n");
  ASSERT_EQ(entries.size(), 1u);
  ASSERT_EQ(entries[0].warnings.size(), 1u);
  EXPECT_NE(entries[0].warnings[0].find("ignored"), std::string::npos);
}

// Damaged manifests (bytes replaced, dropped or duplicated at pseudo-random places) give
// entries with an object or an error, never an exception or a crash.
TEST(ManifestReader, DamagedInputNeverThrows) {
  const std::string yaml =
      "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: a, labels: &l {x: y}}\n"
      "spec:\n  tasks:\n  - name: w\n    replicas: 0x2\n    template: {spec: {containers: "
      "[{name: c, image: 'busybox', args: [yes, \"no\", ~, 1e3]}]}}\n  plugins: {<<: *l}\n"
      "---\napiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Pod}\n";
  const std::string json =
      R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"}})"
      "\n{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"spec\":[1,2,{\"a\":\"\\u00e9\"}]}";
  const std::string alphabet = "{}[]:,-&*!|>'\"#%@`\n \t\\x0\xc3\xff?<.";
  std::uint32_t seed = 12345;
  auto next = [&seed] {
    seed = seed * 1664525u + 1013904223u;
    return seed >> 8;
  };
  for (int round = 0; round < 1500; ++round) {
    std::string text = round % 2 == 0 ? yaml : json;
    const int edits = 1 + static_cast<int>(next() % 4);
    for (int e = 0; e < edits && !text.empty(); ++e) {
      const std::size_t at = next() % text.size();
      switch (next() % 3) {
        case 0:
          text[at] = alphabet[next() % alphabet.size()];
          break;
        case 1:
          text.erase(at, 1 + next() % 3);
          break;
        default:
          text.insert(at, text.substr(at, 1 + next() % 8));
      }
    }
    std::vector<ManifestEntry> entries;
    ASSERT_NO_THROW(entries = read_manifests(text)) << text;
    for (const auto& entry : entries) {
      EXPECT_TRUE(entry.error.empty() == entry.object.is_object()) << text;
      if (!entry.error.empty()) {
        EXPECT_GT(entry.line, 0) << entry.error;
      }
    }
  }
}

TEST(ManifestReader, JsonNestedDeeperThanTheLimitIsAnError) {
  auto nested = [](int arrays) {
    return R"({"apiVersion":"v1","kind":"A","x":)" + std::string(arrays, '[') +
           std::string(arrays, ']') + "}";
  };
  auto entries = read_manifests(nested(kMaxDepth - 1));
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].error, "");
  entries = read_manifests(nested(kMaxDepth));
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].error, "nesting deeper than 2000");
}

// Found by the webhook fuzzer in decode_review: nlohmann reports a number beyond double range
// with out_of_range, not parse_error. It must be a located error, never an abort.
TEST(ManifestReader, JsonNumberBeyondDoubleRangeIsAnErrorNotACrash) {
  auto entries = read_manifests(
      R"({"apiVersion":"batch.volcano.sh/v1alpha1","kind":"Job","spec":{"minAvailable":1e309}})");
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_NE(entries[0].error.find("out of range"), std::string::npos) << entries[0].error;
}

}  // namespace
}  // namespace vc::webhook::check

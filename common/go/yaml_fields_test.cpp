// The yaml.v2 field readers on small documents: typed reads, the first error with its field
// path and line, and key matching (exact, then ASCII case folding when asked).
#include "common/go/yaml_fields.h"

#include <gtest/gtest.h>

#include "common/go/unicode.h"

namespace vc::go {
namespace {

TEST(YamlFields, TypedReads) {
  const YAML::Node doc =
      YAML::Load("n: 0x10\nf: 2.9\nq: \"7\"\nb: yes\nd: 1m30s\ndn: 1500\nt: 12\nm: {a: 1}\n");
  YamlFieldReader r;
  EXPECT_EQ(r.int64_value(doc["n"], "n"), 16);
  EXPECT_EQ(r.int64_value(doc["f"], "f"), 2) << "a float is truncated";
  EXPECT_TRUE(r.boolean(doc["b"], "b"));
  EXPECT_EQ(r.duration(doc["d"], "d"), std::chrono::seconds(90));
  EXPECT_EQ(r.duration(doc["dn"], "dn"), std::chrono::nanoseconds(1500));
  EXPECT_EQ(r.text(doc["t"], "t"), "12") << "any scalar reads as text";
  EXPECT_EQ(r.int64_value(yaml_child(doc, "missing"), "missing"), std::nullopt);
  EXPECT_TRUE(r.map_or_null(doc["m"], "m"));
  EXPECT_EQ(r.error(), "");

  EXPECT_EQ(r.int64_value(doc["q"], "q"), std::nullopt) << "quoted text is not an int";
  EXPECT_EQ(r.error(), "q: cannot read \"7\" as an int64 (line 3)");
  EXPECT_FALSE(r.sequence_or_null(doc["m"], "m"));
  EXPECT_EQ(r.error(), "q: cannot read \"7\" as an int64 (line 3)") << "the first error stays";
}

TEST(YamlFields, ErrorsNameTheFieldAndLine) {
  const YAML::Node doc = YAML::Load("a: 1\nlist: {x: 1}\n");
  YamlFieldReader r;
  EXPECT_FALSE(r.sequence_or_null(doc["list"], "spec.list"));
  EXPECT_EQ(r.error(), "spec.list: expected a sequence, got a mapping (line 2)");
  YamlFieldReader d;
  EXPECT_EQ(d.duration(doc["list"], "interval"), std::chrono::nanoseconds(0));
  EXPECT_EQ(d.error(), "interval: cannot read a mapping as a time.Duration (line 2)");
}

TEST(YamlFields, ChildMatchesExactlyThenFoldsCaseWhenAsked) {
  const YAML::Node doc = YAML::Load("NodeLabel: upper\nnodelabel: lower\nOther: x\n");
  EXPECT_EQ(yaml_child(doc, "nodelabel").Scalar(), "lower");
  EXPECT_FALSE(yaml_child(doc, "other").IsDefined());
  EXPECT_EQ(yaml_child(doc, "other", true).Scalar(), "x");
  EXPECT_FALSE(yaml_child(YAML::Load("[1]"), "a").IsDefined()) << "not a mapping";
}

TEST(AsciiEqualFold, FoldsAsciiLettersOnly) {
  EXPECT_TRUE(ascii_equal_fold("Local", "local"));
  EXPECT_TRUE(ascii_equal_fold("SYSTEM_NAME", "system_name"));
  EXPECT_FALSE(ascii_equal_fold("Local", "Locale"));
  EXPECT_FALSE(ascii_equal_fold("a[", "A{")) << "'[' and '{' differ by 32 but are not letters";
}

}  // namespace
}  // namespace vc::go

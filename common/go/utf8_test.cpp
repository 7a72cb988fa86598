#include "common/go/utf8.h"

#include <gtest/gtest.h>

namespace vc::go {
namespace {

TEST(Utf8, SequenceLengths) {
  EXPECT_EQ(utf8_sequence_length("a", 0), 1u);
  EXPECT_EQ(utf8_sequence_length("\xc3\xa9", 0), 2u);
  EXPECT_EQ(utf8_sequence_length("\xe2\x82\xac", 0), 3u);
  EXPECT_EQ(utf8_sequence_length("\xf0\x9f\x98\x80", 0), 4u);
  EXPECT_EQ(utf8_sequence_length("x\xf4\x8f\xbf\xbf", 1), 4u);  // U+10FFFF, the last one
}

TEST(Utf8, RejectsWhatGoRejects) {
  for (std::string_view bad :
       {"\x80", "\xbf", "\xc0\xaf", "\xc1\xbf", "\xe0\x80\xaf", "\xed\xa0\x80", "\xed\xbf\xbf",
        "\xf0\x80\x80\xaf", "\xf4\x90\x80\x80", "\xf8\x88\x80\x80\x80", "\xff", "\xc3", "\xe2\x82",
        "\xf0\x9f\x98", "\xc3\x28"}) {
    EXPECT_EQ(utf8_sequence_length(bad, 0), 0u) << testing::PrintToString(bad);
    EXPECT_FALSE(valid_utf8(bad)) << testing::PrintToString(bad);
  }
}

TEST(Utf8, WholeStrings) {
  EXPECT_TRUE(valid_utf8(""));
  EXPECT_TRUE(valid_utf8("plain caf\xc3\xa9 \xe2\x80\xa8 \xf0\x9f\x98\x80"));
  EXPECT_FALSE(valid_utf8("ok\xffok"));
  EXPECT_FALSE(valid_utf8("ends in \xe2\x80"));
}

TEST(Utf8, ReplacesEachInvalidByteAsGoJsonDoes) {
  EXPECT_EQ(replace_invalid_utf8("caf\xc3\xa9"), "caf\xc3\xa9");
  EXPECT_EQ(replace_invalid_utf8("a\xff\xfe"
                                 "b"),
            "a\xef\xbf\xbd\xef\xbf\xbd"
            "b");
  EXPECT_EQ(replace_invalid_utf8("\xe2\x82"), "\xef\xbf\xbd\xef\xbf\xbd");  // cut short
  EXPECT_EQ(replace_invalid_utf8("\xed\xa0\x80"),  // a surrogate: three bad bytes
            "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
}

}  // namespace
}  // namespace vc::go

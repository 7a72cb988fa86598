#include "common/json/plain_run.h"

#include <string>

#include <gtest/gtest.h>

namespace vc::fastjson {
namespace {

// The byte-at-a-time answer the 16-byte scan must agree with.
template <bool kHtml>
std::size_t reference(const std::string& s) {
  std::size_t i = 0;
  while (i < s.size() && kPlainStringBytes<kHtml>[static_cast<unsigned char>(s[i])]) ++i;
  return i;
}

template <bool kHtml>
void check_every_byte_at_every_position() {
  for (int b = 0; b < 256; ++b) {
    for (std::size_t len : {1u, 15u, 16u, 17u, 31u, 32u, 33u, 47u}) {
      for (std::size_t at = 0; at < len; ++at) {
        std::string s(len, 'a');
        s[at] = static_cast<char>(b);
        const char* end = plain_run_end<kHtml>(s.data(), s.data() + s.size());
        ASSERT_EQ(static_cast<std::size_t>(end - s.data()), reference<kHtml>(s))
            << "byte " << b << " at " << at << " of " << len << (kHtml ? " (html)" : "");
      }
    }
  }
}

TEST(PlainRun, AgreesWithTheTableForEveryByteAtEveryPosition) {
  check_every_byte_at_every_position<false>();
  check_every_byte_at_every_position<true>();
}

TEST(PlainRun, StopsWhereJsonStringsNeedWork) {
  const std::string s = "plain text with spaces~\x7f and then a \"quote";
  EXPECT_EQ(plain_run_end<false>(s.data(), s.data() + s.size()) - s.data(),
            static_cast<long>(s.find('"')));
  const std::string html = "0123456789abcdef0123<b>";
  EXPECT_EQ(plain_run_end<true>(html.data(), html.data() + html.size()) - html.data(), 20);
  EXPECT_EQ(plain_run_end<false>(html.data(), html.data() + html.size()) - html.data(),
            static_cast<long>(html.size()));
  const std::string empty;
  EXPECT_EQ(plain_run_end<true>(empty.data(), empty.data()), empty.data());
}

}  // namespace
}  // namespace vc::fastjson

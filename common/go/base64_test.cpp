#include "common/go/base64.h"

#include <string>

#include <gtest/gtest.h>
#include <openssl/evp.h>

namespace vc::go {
namespace {

TEST(Base64, MatchesRfc4648Vectors) {
  EXPECT_EQ(base64_encode(""), "");
  EXPECT_EQ(base64_encode("f"), "Zg==");
  EXPECT_EQ(base64_encode("fo"), "Zm8=");
  EXPECT_EQ(base64_encode("foo"), "Zm9v");
  EXPECT_EQ(base64_encode("foob"), "Zm9vYg==");
  EXPECT_EQ(base64_encode("fooba"), "Zm9vYmE=");
  EXPECT_EQ(base64_encode("foobar"), "Zm9vYmFy");
  EXPECT_EQ(base64_encode(std::string("\xff\xfe", 2)), "//4=");
  EXPECT_EQ(base64_encode(std::string("\xff\xfe\x00", 3)), "//4A");
  EXPECT_EQ(base64_encode(std::string("\xff\xfe\x00\xfb", 4)), "//4A+w==");
  EXPECT_EQ(base64_encode(std::string(3000, 'a')).size(), 4000u);
  EXPECT_EQ(base64_encode(std::string(3000, 'a')).substr(3996), "YWFh");
}

// Every byte value in every position of the 3-byte group, and every tail length, against
// OpenSSL's encoder.
TEST(Base64, MatchesOpenSslOnEveryByteAndLength) {
  std::string bytes;
  for (int i = 0; i < 3 * 256 + 2; ++i) bytes += static_cast<char>((i * 7 + i / 256) & 0xFF);
  for (std::size_t n = 0; n <= bytes.size(); n += (n < 16 ? 1 : 61)) {
    const std::string_view in(bytes.data(), n);
    std::string want((n + 2) / 3 * 4 + 1, '\0');
    const int len =
        EVP_EncodeBlock(reinterpret_cast<unsigned char*>(want.data()),
                        reinterpret_cast<const unsigned char*>(in.data()), static_cast<int>(n));
    want.resize(static_cast<std::size_t>(len));
    ASSERT_EQ(base64_encode(in), want) << "length " << n;
  }
}

}  // namespace
}  // namespace vc::go

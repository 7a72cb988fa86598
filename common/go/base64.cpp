#include "common/go/base64.h"

#include <cstring>

namespace vc::go {

namespace {

constexpr char kBase64Alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// The two characters of every 12-bit group: 3 input bytes become 2 lookups and one 4-byte store.
constexpr auto kBase64Pairs = [] {
  struct Table {
    char v[4096][2];
  } t{};
  for (int i = 0; i < 4096; ++i) {
    t.v[i][0] = kBase64Alphabet[i >> 6];
    t.v[i][1] = kBase64Alphabet[i & 63];
  }
  return t;
}();

int base64_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

}  // namespace

std::string base64_encode(std::string_view bytes) {
  // Written through a pointer into the final size: an admission patch is kilobytes, and
  // appending one character at a time showed in the webhook's profile. Loads and stores go through
  // locals and memcpy, so the compiler need not assume a store into `out` changes `bytes`.
  std::string out((bytes.size() + 2) / 3 * 4, '=');
  char* p = out.data();
  const auto* in = reinterpret_cast<const unsigned char*>(bytes.data());
  const std::size_t whole = bytes.size() / 3 * 3;
  for (std::size_t i = 0; i < whole; i += 3, p += 4) {
    const unsigned v = unsigned{in[i]} << 16 | unsigned{in[i + 1]} << 8 | unsigned{in[i + 2]};
    char quad[4];
    std::memcpy(quad, kBase64Pairs.v[v >> 12], 2);
    std::memcpy(quad + 2, kBase64Pairs.v[v & 0xFFF], 2);
    std::memcpy(p, quad, 4);
  }
  const std::size_t rest = bytes.size() - whole;
  if (rest > 0) {  // the padding '=' is already in place
    unsigned v = unsigned{in[whole]} << 16;
    if (rest == 2) v |= unsigned{in[whole + 1]} << 8;
    *p++ = kBase64Alphabet[v >> 18 & 63];
    *p++ = kBase64Alphabet[v >> 12 & 63];
    if (rest == 2) *p = kBase64Alphabet[v >> 6 & 63];
  }
  return out;
}

std::optional<std::string> base64_decode(std::string_view text) {
  std::string clean;
  for (char c : text) {
    if (c != '\r' && c != '\n') clean.push_back(c);
  }
  if (clean.size() % 4 != 0) return std::nullopt;
  std::string out;
  for (std::size_t i = 0; i < clean.size(); i += 4) {
    const bool last = i + 4 == clean.size();
    int v[4];
    int padding = 0;
    for (int j = 0; j < 4; ++j) {
      const char c = clean[i + static_cast<std::size_t>(j)];
      if (c == '=' && last && j >= 2) {
        v[j] = 0;
        ++padding;
        continue;
      }
      if (padding > 0) return std::nullopt;
      v[j] = base64_value(c);
      if (v[j] < 0) return std::nullopt;
    }
    const unsigned bits = (static_cast<unsigned>(v[0]) << 18) |
                          (static_cast<unsigned>(v[1]) << 12) | (static_cast<unsigned>(v[2]) << 6) |
                          static_cast<unsigned>(v[3]);
    out.push_back(static_cast<char>((bits >> 16) & 0xff));
    if (padding < 2) out.push_back(static_cast<char>((bits >> 8) & 0xff));
    if (padding < 1) out.push_back(static_cast<char>(bits & 0xff));
  }
  return out;
}

}  // namespace vc::go

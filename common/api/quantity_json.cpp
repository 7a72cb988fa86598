// JSON decoding of quantities, following Kubernetes' Quantity.UnmarshalJSON: strings have
// surrounding white space removed (Go's strings.TrimSpace, which is Unicode-aware), numbers
// are parsed from their text, null is zero.

#include <cstdint>
#include <string>

#include "common/api/quantity.h"

namespace vc::api {
namespace {

// unicode.IsSpace.
bool is_go_space(char32_t c) {
  switch (c) {
    case '\t':
    case '\n':
    case '\v':
    case '\f':
    case '\r':
    case ' ':
    case 0x85:
    case 0xA0:
    case 0x1680:
    case 0x2028:
    case 0x2029:
    case 0x202F:
    case 0x205F:
    case 0x3000:
      return true;
    default:
      return c >= 0x2000 && c <= 0x200A;
  }
}

// Decodes the UTF-8 sequence at s[pos], setting len; invalid bytes decode as U+FFFD (not space).
char32_t decode_at(std::string_view s, std::size_t pos, std::size_t& len) {
  const auto b0 = static_cast<unsigned char>(s[pos]);
  len = 1;
  if (b0 < 0x80) return b0;
  const std::size_t extra = (b0 >> 5) == 6 ? 1 : (b0 >> 4) == 14 ? 2 : (b0 >> 3) == 30 ? 3 : 0;
  if (extra == 0 || pos + extra >= s.size()) return 0xFFFD;
  char32_t c = b0 & (0x3F >> extra);
  for (std::size_t i = 1; i <= extra; ++i) {
    const auto b = static_cast<unsigned char>(s[pos + i]);
    if ((b & 0xC0) != 0x80) return 0xFFFD;
    c = (c << 6) | (b & 0x3F);
  }
  len = extra + 1;
  return c;
}

std::string_view trim_go_space(std::string_view s) {
  std::size_t len = 0;
  while (!s.empty() && is_go_space(decode_at(s, 0, len))) s.remove_prefix(len);
  while (!s.empty()) {
    // Find the start of the last code point: back over at most three continuation bytes.
    std::size_t start = s.size() - 1;
    for (int i = 0; i < 3 && start > 0 && (static_cast<unsigned char>(s[start]) & 0xC0) == 0x80;
         ++i) {
      --start;
    }
    const char32_t c = decode_at(s, start, len);
    if (start + len != s.size() || !is_go_space(c)) break;
    s.remove_suffix(len);
  }
  return s;
}

}  // namespace

Expected<Quantity> quantity_from_json(const nlohmann::json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::null:
      return Quantity();
    case nlohmann::json::value_t::string:
      return Quantity::parse(trim_go_space(j.get_ref<const std::string&>()));
    case nlohmann::json::value_t::number_integer:
      return Quantity::parse(std::to_string(j.get<std::int64_t>()));
    case nlohmann::json::value_t::number_unsigned:
      return Quantity::parse(std::to_string(j.get<std::uint64_t>()));
    case nlohmann::json::value_t::number_float: {
      // The original text is gone; use the shortest round-trip text of the double, written
      // as a Kubernetes client would ("1e21" rather than nlohmann's "1e+21").
      std::string text = j.dump();
      if (auto plus = text.find("e+"); plus != std::string::npos) text.erase(plus + 1, 1);
      return Quantity::parse(text);
    }
    default:
      return Unexpected{std::string("quantities must be JSON strings or numbers, got ") +
                        j.type_name()};
  }
}

}  // namespace vc::api

void nlohmann::adl_serializer<vc::api::Quantity>::from_json(const json& j, vc::api::Quantity& q) {
  auto parsed = vc::api::quantity_from_json(j);
  if (!parsed) throw json::other_error::create(599, "quantity: " + parsed.error(), &j);
  q = std::move(parsed).value();
}

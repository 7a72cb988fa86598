#include "common/go/unicode.h"

#include <algorithm>
#include <array>
#include <iterator>
#include <utility>

namespace vc::go {
namespace {

// Inclusive ranges of assigned code points outside unicode.IsPrint above U+00FF: spaces other
// than U+0020 (Zs), the line and paragraph separators (Zl, Zp), format characters (Cf) and
// private use (Co), sorted.
constexpr std::array<std::pair<std::uint32_t, std::uint32_t>, 26> kNotPrint{{
    {0x0600, 0x0605},   {0x061C, 0x061C},     {0x06DD, 0x06DD},   {0x070F, 0x070F},
    {0x0890, 0x0891},   {0x08E2, 0x08E2},     {0x1680, 0x1680},   {0x180E, 0x180E},
    {0x2000, 0x200F},   {0x2028, 0x202F},     {0x205F, 0x2064},   {0x2066, 0x206F},
    {0x3000, 0x3000},   {0xE000, 0xF8FF},     {0xFDD0, 0xFDEF},   {0xFEFF, 0xFEFF},
    {0xFFF9, 0xFFFB},   {0x110BD, 0x110BD},   {0x110CD, 0x110CD}, {0x13430, 0x1343F},
    {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A},   {0xE0001, 0xE0001}, {0xE0020, 0xE007F},
    {0xF0000, 0xFFFFD}, {0x100000, 0x10FFFD},
}};

}  // namespace

bool is_print(std::uint32_t r) {
  if (r < 0x20 || (r >= 0x7F && r <= 0x9F)) return false;  // C0 and C1 controls, DEL
  if (r == 0xA0 || r == 0xAD) return false;                // no-break space, soft hyphen
  if (r < 0x100) return true;
  if ((r & 0xFFFE) == 0xFFFE) return false;  // U+xFFFE and U+xFFFF of every plane
  if (r >= 0xD800 && r <= 0xDFFF) return false;
  const auto it =
      std::upper_bound(kNotPrint.begin(), kNotPrint.end(), r,
                       [](std::uint32_t v, const auto& range) { return v < range.first; });
  return it == kNotPrint.begin() || r > std::prev(it)->second;
}

bool ascii_equal_fold(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  auto lower = [](char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c; };
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

}  // namespace vc::go

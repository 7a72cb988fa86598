#pragma once
// unicode.IsPrint, as strconv.Quote decides which runes to escape: letters, marks, numbers,
// punctuation, symbols and the ASCII space are printable; controls, format characters, private
// use, other spaces and separators, and noncharacters are not. Code points Unicode has not
// assigned are printable here, where Go escapes them: that needs Go's full category tables, and
// a Kubernetes object carrying one in a bad value is the only place it would show.
//
// Thread-safety: pure function.

#include <cstdint>

namespace vc::go {

bool is_print(std::uint32_t rune);

}  // namespace vc::go

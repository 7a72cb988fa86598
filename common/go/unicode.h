#pragma once
// unicode.IsPrint, as strconv.Quote decides which runes to escape: letters, marks, numbers,
// punctuation, symbols and the ASCII space are printable; controls, format characters, private
// use, other spaces and separators, and noncharacters are not. Code points Unicode has not
// assigned are printable here, where Go escapes them: that needs Go's full category tables, and
// a Kubernetes object carrying one in a bad value is the only place it would show.
//
// Thread-safety: pure functions.

#include <cstdint>
#include <string_view>

namespace vc::go {

bool is_print(std::uint32_t rune);

// a and b equal when ASCII letters are compared ignoring case (other bytes exactly). Go's
// strings.EqualFold also folds non-ASCII letters (the Kelvin sign and k, for one); every caller
// here compares against an ASCII name, where the two agree except for those few runes.
bool ascii_equal_fold(std::string_view a, std::string_view b);

}  // namespace vc::go

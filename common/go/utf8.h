#pragma once
// Strict UTF-8: what Go's utf8.Valid and nlohmann's dump() accept (no overlong forms, no UTF-16
// surrogates, nothing above U+10FFFF).
//
// Thread-safety: pure functions.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace vc::go {

// The length (1-4) of the valid UTF-8 sequence starting at s[i], or 0 when none does (a bad
// lead byte, a missing or bad continuation byte, an overlong form, a surrogate, > U+10FFFF).
// i must be < s.size().
std::size_t utf8_sequence_length(std::string_view s, std::size_t i);

// The code point of a valid sequence (as utf8_sequence_length measured it).
std::uint32_t decode_rune(std::string_view sequence);

// True when the whole of s is valid UTF-8.
bool valid_utf8(std::string_view s);

// s with each byte that starts no valid sequence replaced by U+FFFD, as Go's encoding/json
// writes a string (strings.ToValidUTF8 would replace a run of them once instead).
std::string replace_invalid_utf8(std::string_view s);

}  // namespace vc::go

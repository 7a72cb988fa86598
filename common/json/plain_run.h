#pragma once
// plain_run_end(): where a run of JSON string bytes that need no attention ends, 16 bytes at a
// time.
//
// Why: the fast parser and the webhook's Go-JSON writer both copy strings in runs of "plain"
// bytes and stop at the first byte that needs work (the closing quote, an escape, a control
// character, a non-ASCII byte, and for the writer Go's HTML escapes). Testing one byte at a time
// made the parser's string scan the costliest function in a review's profile. SSE2 is part of
// every x86-64 CPU; elsewhere, and for the last bytes, a table decides.
//
// Thread-safety: pure functions.

#include <array>
#include <cstddef>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace vc::fastjson {

// Printable ASCII except '"' and '\\'; with kHtml also except '<', '>' and '&'.
template <bool kHtml>
inline constexpr std::array<bool, 256> kPlainStringBytes = [] {
  std::array<bool, 256> t{};
  for (int c = 0x20; c < 0x80; ++c) t[static_cast<std::size_t>(c)] = true;
  t['"'] = false;
  t['\\'] = false;
  if (kHtml) {
    t['<'] = false;
    t['>'] = false;
    t['&'] = false;
  }
  return t;
}();

// The first byte in [p, end) that is not plain (see kPlainStringBytes), or end. Reads only
// within [p, end).
template <bool kHtml>
inline const char* plain_run_end(const char* p, const char* end) {
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i space = _mm_set1_epi8(0x20);
  while (end - p >= 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    __m128i stop = _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash));
    // A signed comparison: bytes 0x80-0xFF are negative, so this catches them with the
    // control characters. DEL (0x7F) is printable for JSON's purposes, as in the table.
    stop = _mm_or_si128(stop, _mm_cmplt_epi8(v, space));
    if constexpr (kHtml) {
      stop = _mm_or_si128(stop, _mm_cmpeq_epi8(v, _mm_set1_epi8('<')));
      stop = _mm_or_si128(stop, _mm_cmpeq_epi8(v, _mm_set1_epi8('>')));
      stop = _mm_or_si128(stop, _mm_cmpeq_epi8(v, _mm_set1_epi8('&')));
    }
    const int mask = _mm_movemask_epi8(stop);
    if (mask != 0) return p + __builtin_ctz(static_cast<unsigned>(mask));
    p += 16;
  }
#endif
  while (p != end && kPlainStringBytes<kHtml>[static_cast<unsigned char>(*p)]) ++p;
  return p;
}

}  // namespace vc::fastjson

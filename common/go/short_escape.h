#pragma once
// The two-character escapes Go writes for a byte, shared by strconv.Quote (strconv.h) and
// encoding/json (json_marshal.h): \" \\ \b \f \n \r \t, and for Quote also \a and \v.
//
// Thread-safety: pure function.

namespace vc::go {

// The escape of c, or null when c has no short escape.
inline const char* short_escape(unsigned char c, bool with_bell_and_vertical_tab) {
  switch (c) {
    case '"':
      return "\\\"";
    case '\\':
      return "\\\\";
    case '\b':
      return "\\b";
    case '\f':
      return "\\f";
    case '\n':
      return "\\n";
    case '\r':
      return "\\r";
    case '\t':
      return "\\t";
    case '\a':
      return with_bell_and_vertical_tab ? "\\a" : nullptr;
    case '\v':
      return with_bell_and_vertical_tab ? "\\v" : nullptr;
    default:
      return nullptr;
  }
}

}  // namespace vc::go

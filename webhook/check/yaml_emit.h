#pragma once
// JSON to YAML for `check -o yaml`, laid out the way `kubectl get -o yaml` prints objects: block
// style, keys in sorted order, sequences not indented under their key, multi-line strings as
// literal blocks. A string is written plain only when it would read back as the same string
// under kubectl's YAML rules (common/go/yaml_scalar.h), so "yes", "1" and "" come out quoted.
//
// Threads: pure functions.

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace vc::webhook::check {

// The document text, ending in a newline (no "---").
std::string to_yaml(const nlohmann::json& value);

// True when s can be written as a plain scalar and reads back as the string s.
bool plain_safe(std::string_view s);

// s as a YAML double-quoted scalar: quotes, backslashes, control characters and the Unicode
// line separators escaped; other UTF-8 as is; invalid UTF-8 bytes become U+FFFD.
std::string double_quoted(std::string_view s);

}  // namespace vc::webhook::check

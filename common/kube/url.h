#pragma once
// Percent-encoding for request paths and query strings (RFC 3986).
//
// Thread-safety: pure functions.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace vc::kube {

// Escapes everything but unreserved characters, so a name can never add a path segment.
std::string escape_path_segment(std::string_view s);
// Escapes a query key or value ("app=x,tier in (a,b)" -> "app%3Dx%2Ctier%20in%20%28a%2Cb%29").
std::string escape_query(std::string_view s);
// Decodes %XX escapes; with plus_is_space (query strings), '+' decodes to ' '. Malformed escapes
// are kept as written.
std::string unescape(std::string_view s, bool plus_is_space = false);

// Builds "?k=v&k2=v2" from the pairs with a non-empty value; "" when there are none.
std::string query_string(const std::vector<std::pair<std::string_view, std::string>>& params);

}  // namespace vc::kube

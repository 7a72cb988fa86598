#pragma once
// Validation of label keys, label values and DNS names with Kubernetes' rules and the messages
// of apimachinery v0.35 (the version Volcano v1.15 links). Each is_* function returns the list
// of problems, empty when the input is valid; the messages are Kubernetes' own, so they can be
// returned in admission responses as they are. The validate_* helpers join them with "; ".
//
// Two wordings coexist in v0.35 and both matter: validation.IsQualifiedName and
// IsValidLabelValue delegate to the newer validate/content package, whose length messages say
// "bytes" and whose >2-parts key message says "a valid label key"; the remaining
// pkg/util/validation checks (IsDNS1123Subdomain, IsDNS1123Label) still say "characters".
//
// Threads: pure functions, callable from any thread.

#include <string>
#include <string_view>
#include <vector>

#include "common/api/expected.h"

namespace vc::api {

// validation.IsQualifiedName (= content.IsLabelKey): an optional DNS subdomain prefix and '/',
// then a name of at most 63 bytes of [-A-Za-z0-9_.] that starts and ends alphanumeric. Label
// keys, resource names and Job/pod names checked by the webhook are these. The prefix is checked
// with is_dns1123_subdomain_content ("bytes" wording).
std::vector<std::string> is_qualified_name(std::string_view value);
// validation.IsValidLabelValue (= content.IsLabelValue): empty, or a name part as above (at
// most 63 bytes).
std::vector<std::string> is_valid_label_value(std::string_view value);
// pkg/util/validation.IsDNS1123Subdomain: lowercase RFC 1123 subdomain, at most 253 characters
// (e.g. "example.com"). The length message says "characters"; PVC names
// (ValidatePersistentVolumeName) and other NameIsDNSSubdomain checks use this one.
std::vector<std::string> is_dns1123_subdomain(std::string_view value);
// content.IsDNS1123Subdomain: the same check, but the length message says "must be no more
// than 253 bytes". Used for the prefix of qualified names.
std::vector<std::string> is_dns1123_subdomain_content(std::string_view value);
// pkg/util/validation.IsDNS1123Label: lowercase RFC 1123 label, at most 63 characters
// (e.g. "my-name").
std::vector<std::string> is_dns1123_label(std::string_view value);

// Valid, or the problems joined with "; ".
Status validate_label_key(std::string_view key);
Status validate_label_value(std::string_view value);

}  // namespace vc::api

#include "common/api/label_validation.h"

#include <initializer_list>

namespace vc::api {
namespace {

constexpr std::size_t kQualifiedNameMaxLength = 63;
constexpr std::size_t kLabelValueMaxLength = 63;
constexpr std::size_t kDns1123LabelMaxLength = 63;
constexpr std::size_t kDns1123SubdomainMaxLength = 253;

constexpr std::string_view kQualifiedNameFmt = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
constexpr std::string_view kQualifiedNameErrMsg =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character";
constexpr std::string_view kLabelValueFmt = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
constexpr std::string_view kLabelValueErrMsg =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
    "'.', and must start and end with an alphanumeric character";
constexpr std::string_view kDns1123LabelFmt = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
constexpr std::string_view kDns1123LabelErrMsg =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and "
    "must start and end with an alphanumeric character";
constexpr std::string_view kDns1123SubdomainFmt =
    "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
constexpr std::string_view kDns1123SubdomainErrMsg =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
    "'.', and must start and end with an alphanumeric character";

// Kubernetes' RegexError: the message, examples and the pattern used.
std::string regex_error(std::string_view msg, std::string_view fmt,
                        std::initializer_list<std::string_view> examples) {
  std::string out(msg);
  out.append(" (e.g. ");
  bool first = true;
  for (auto example : examples) {
    if (!first) out.append(" or ");
    first = false;
    out.append("'").append(example).append("', ");
  }
  out.append("regex used for validation is '").append(fmt).append("')");
  return out;
}

// pkg/util/validation.MaxLenError.
std::string max_len_error(std::size_t n) {
  return "must be no more than " + std::to_string(n) + " characters";
}

// content.MaxLenError: the newer package counts what Go's len() counts, and says so.
std::string max_bytes_error(std::size_t n) {
  return "must be no more than " + std::to_string(n) + " bytes";
}

bool is_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
bool is_lower_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

// ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]
bool matches_qualified_name_part(std::string_view s) {
  if (s.empty() || !is_alnum(s.front()) || !is_alnum(s.back())) return false;
  for (char c : s) {
    if (!is_alnum(c) && c != '-' && c != '_' && c != '.') return false;
  }
  return true;
}

// [a-z0-9]([-a-z0-9]*[a-z0-9])?
bool matches_dns1123_label(std::string_view s) {
  if (s.empty() || !is_lower_alnum(s.front()) || !is_lower_alnum(s.back())) return false;
  for (char c : s) {
    if (!is_lower_alnum(c) && c != '-') return false;
  }
  return true;
}

bool matches_dns1123_subdomain(std::string_view s) {
  while (true) {
    const auto dot = s.find('.');
    if (!matches_dns1123_label(s.substr(0, dot))) return false;
    if (dot == std::string_view::npos) return true;
    s.remove_prefix(dot + 1);
  }
}

// Both packages' IsDNS1123Subdomain; only the wording of the length message differs.
std::vector<std::string> dns1123_subdomain_errors(std::string_view value,
                                                  std::string (*too_long)(std::size_t)) {
  std::vector<std::string> errs;
  if (value.size() > kDns1123SubdomainMaxLength) {
    errs.push_back(too_long(kDns1123SubdomainMaxLength));
  }
  if (!matches_dns1123_subdomain(value)) {
    errs.push_back(regex_error(kDns1123SubdomainErrMsg, kDns1123SubdomainFmt, {"example.com"}));
  }
  return errs;
}

// Valid when there are no problems; else they are the error, joined with "; ".
Status as_status(const std::vector<std::string>& problems) {
  if (problems.empty()) return ok_status();
  std::string out;
  for (const auto& p : problems) {
    if (!out.empty()) out.append("; ");
    out.append(p);
  }
  return Unexpected{std::move(out)};
}

}  // namespace

std::vector<std::string> is_qualified_name(std::string_view value) {
  std::vector<std::string> errs;
  std::string_view name = value;
  const auto slash = value.find('/');
  if (slash != std::string_view::npos) {
    if (value.find('/', slash + 1) != std::string_view::npos) {
      errs.push_back(
          "a valid label key " +
          regex_error(kQualifiedNameErrMsg, kQualifiedNameFmt, {"MyName", "my.name", "123-abc"}) +
          " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
      return errs;
    }
    const std::string_view prefix = value.substr(0, slash);
    name = value.substr(slash + 1);
    if (prefix.empty()) {
      errs.push_back("prefix part must be non-empty");
    } else {
      for (const auto& msg : is_dns1123_subdomain_content(prefix)) {
        errs.push_back("prefix part " + msg);
      }
    }
  }
  if (name.empty()) {
    errs.push_back("name part must be non-empty");
  } else if (name.size() > kQualifiedNameMaxLength) {
    errs.push_back("name part " + max_bytes_error(kQualifiedNameMaxLength));
  }
  if (!matches_qualified_name_part(name)) {
    errs.push_back("name part " + regex_error(kQualifiedNameErrMsg, kQualifiedNameFmt,
                                              {"MyName", "my.name", "123-abc"}));
  }
  return errs;
}

std::vector<std::string> is_valid_label_value(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > kLabelValueMaxLength) errs.push_back(max_bytes_error(kLabelValueMaxLength));
  if (!value.empty() && !matches_qualified_name_part(value)) {
    errs.push_back(
        regex_error(kLabelValueErrMsg, kLabelValueFmt, {"MyValue", "my_value", "12345"}));
  }
  return errs;
}

std::vector<std::string> is_dns1123_subdomain(std::string_view value) {
  return dns1123_subdomain_errors(value, max_len_error);
}

std::vector<std::string> is_dns1123_subdomain_content(std::string_view value) {
  return dns1123_subdomain_errors(value, max_bytes_error);
}

std::vector<std::string> is_dns1123_label(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > kDns1123LabelMaxLength) errs.push_back(max_len_error(kDns1123LabelMaxLength));
  if (!matches_dns1123_label(value)) {
    if (matches_dns1123_subdomain(value)) {
      errs.push_back("must not contain dots");  // a valid subdomain: only the dots are wrong
    } else {
      errs.push_back(regex_error(kDns1123LabelErrMsg, kDns1123LabelFmt, {"my-name", "123-abc"}));
    }
  }
  return errs;
}

Status validate_label_key(std::string_view key) {
  return as_status(is_qualified_name(key));
}

Status validate_label_value(std::string_view value) {
  return as_status(is_valid_label_value(value));
}

}  // namespace vc::api

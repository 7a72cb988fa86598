#include "webhook/admission/jobs/k8s_names.h"

#include <initializer_list>

namespace vc::webhook::jobs {
namespace {

constexpr std::string_view kEnvVarNameFmt = "[-._a-zA-Z][-._a-zA-Z0-9]*";
constexpr std::string_view kEnvVarNameErrMsg =
    "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', "
    "or '.', and must not start with a digit";

std::string regex_error(std::string_view msg, std::string_view fmt,
                        std::initializer_list<std::string_view> examples) {
  std::string out(msg);
  out += " (e.g. ";
  bool first = true;
  for (auto e : examples) {
    if (!first) out += " or ";
    first = false;
    out.append("'").append(e).append("', ");
  }
  out.append("regex used for validation is '").append(fmt).append("')");
  return out;
}

}  // namespace

std::vector<std::string> env_var_name_errors(std::string_view value) {
  std::vector<std::string> errs;
  bool ok = !value.empty() && !(value[0] >= '0' && value[0] <= '9');
  for (char c : value) {
    const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (!letter && !(c >= '0' && c <= '9') && c != '-' && c != '.' && c != '_') ok = false;
  }
  if (!ok) {
    errs.push_back(regex_error(kEnvVarNameErrMsg, kEnvVarNameFmt,
                               {"my.env-name", "MY_ENV.NAME", "MyEnvName1"}));
  }
  if (value == ".") {
    errs.push_back("must not be '.'");
  } else if (value == "..") {
    errs.push_back("must not be '..'");
  } else if (value.substr(0, 2) == "..") {
    errs.push_back("must not start with '..'");
  }
  return errs;
}

std::vector<std::string> port_name_errors(std::string_view port) {
  std::vector<std::string> errs;
  if (port.size() > 15) errs.push_back("must be no more than 15 characters");
  bool charset = !port.empty();
  bool letter = false;
  for (char c : port) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) charset = false;
    if (c >= 'a' && c <= 'z') letter = true;
  }
  if (!charset) {
    errs.push_back("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
  }
  if (!letter) errs.push_back("must contain at least one letter (a-z)");
  if (port.find("--") != std::string_view::npos) {
    errs.push_back("must not contain consecutive hyphens");
  }
  if (!port.empty() && (port.front() == '-' || port.back() == '-')) {
    errs.push_back("must not begin or end with a hyphen");
  }
  return errs;
}

std::string inclusive_range_error(long long lo, long long hi) {
  return "must be between " + std::to_string(lo) + " and " + std::to_string(hi) + ", inclusive";
}

std::vector<std::string> port_number_errors(long long port) {
  if (port >= 1 && port <= 65535) return {};
  return {inclusive_range_error(1, 65535)};
}

}  // namespace vc::webhook::jobs

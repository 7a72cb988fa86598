#include "webhook/check/report.h"

#include "webhook/check/admit_object.h"

namespace vc::webhook::check {

int exit_code(const Tally& tally) {
  if (tally.unreadable > 0) return kExitUsage;
  if (tally.denied > 0) return kExitDenied;
  return kExitOk;
}

std::string object_ref(const nlohmann::json& object, std::string_view ns) {
  std::string ref = object.is_object() && object.contains("kind") && object["kind"].is_string()
                        ? object["kind"].get<std::string>()
                        : std::string("object");
  std::string name = metadata_string(object, "name");
  if (name.empty()) {
    const std::string generate = metadata_string(object, "generateName");
    name = generate.empty() ? "<no name>" : generate + "*";
  }
  ref += ' ';
  if (!ns.empty()) {
    ref += ns;
    ref += '/';
  }
  ref += name;
  return ref;
}

std::string result_line(std::string_view where, std::string_view ref, std::string_view label,
                        std::string_view text) {
  std::string line;
  line.append(where).append(": ").append(ref).append(": ").append(label);
  if (!text.empty()) line.append(": ").append(text);
  return line;
}

std::string error_line(std::string_view where, int line, int column, std::string_view message) {
  std::string out;
  out.append(where).append(": error: ");
  if (line > 0) {
    out += "line " + std::to_string(line);
    if (column > 0) out += ", column " + std::to_string(column);
    out += ": ";
  }
  out.append(message);
  return out;
}

std::string summary_line(const Tally& tally, bool offline) {
  const auto plural = [](int n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
  };
  std::string line = "summary: " + plural(tally.objects(), "object", "objects") + ": " +
                     std::to_string(tally.allowed) + " allowed, " + std::to_string(tally.denied) +
                     " denied, " + std::to_string(tally.not_admitted) + " not admitted; " +
                     std::to_string(tally.unreadable) + " unreadable";
  if (offline && tally.lookups_skipped > 0) {
    line += "; " + plural(tally.lookups_skipped, "cluster lookup", "cluster lookups") +
            " skipped (no --kubeconfig)";
  }
  return line;
}

}  // namespace vc::webhook::check

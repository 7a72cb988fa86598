#include "controllers/explain/node_affinity.h"

#include <charconv>
#include <optional>
#include <string_view>

#include "controllers/explain/json_read.h"

namespace vc::controllers::explain {
namespace {

using nlohmann::json;

const json& terms_of(const json& pod) {
  return array_at(pod, {"spec", "affinity", "nodeAffinity",
                        "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms"});
}

std::optional<long long> as_integer(std::string_view text) {
  long long v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

// One requirement against a value that is present (has) or not.
bool requirement_holds(const json& req, bool has, const std::string& value) {
  const std::string op = str(req, {"operator"});
  const json& values = array_at(req, {"values"});
  const auto listed = [&] {
    for (const json& v : values) {
      if (v.is_string() && v.get<std::string>() == value) return true;
    }
    return false;
  };
  if (op == "In") return has && listed();
  if (op == "NotIn") return !has || !listed();
  if (op == "Exists") return has;
  if (op == "DoesNotExist") return !has;
  if (op == "Gt" || op == "Lt") {
    if (!has || values.size() != 1 || !values[0].is_string()) return false;
    const auto mine = as_integer(value);
    const auto theirs = as_integer(values[0].get<std::string>());
    if (!mine || !theirs) return false;
    return op == "Gt" ? *mine > *theirs : *mine < *theirs;
  }
  return false;  // an operator the API server would have refused
}

bool term_matches(const json& term, const json& node) {
  const json& expressions = array_at(term, {"matchExpressions"});
  const json& fields = array_at(term, {"matchFields"});
  if (expressions.empty() && fields.empty()) return false;
  const json& labels = at(node, {"metadata", "labels"});
  for (const json& req : expressions) {
    const std::string key = str(req, {"key"});
    const bool has = labels.is_object() && labels.contains(key) && labels[key].is_string();
    if (!requirement_holds(req, has, has ? labels[key].get<std::string>() : "")) return false;
  }
  for (const json& req : fields) {
    // metadata.name is the one field the API server accepts here.
    const bool name = str(req, {"key"}) == "metadata.name";
    if (!requirement_holds(req, name, name ? str(node, {"metadata", "name"}) : "")) return false;
  }
  return true;
}

std::string describe_requirement(const json& req) {
  const std::string key = str(req, {"key"});
  const std::string op = str(req, {"operator"});
  std::string values;
  for (const json& v : array_at(req, {"values"})) {
    if (!values.empty()) values += ",";
    values += v.is_string() ? v.get<std::string>() : v.dump();
  }
  if (op == "In")
    return key + (values.find(',') == std::string::npos ? "=" + values : " in (" + values + ")");
  if (op == "NotIn") return key + " notin (" + values + ")";
  if (op == "Exists") return key;
  if (op == "DoesNotExist") return "!" + key;
  if (op == "Gt") return key + ">" + values;
  if (op == "Lt") return key + "<" + values;
  return key + " " + op + " (" + values + ")";
}

}  // namespace

bool has_required_node_affinity(const json& pod) {
  return !terms_of(pod).empty();
}

bool node_affinity_matches(const json& pod, const json& node) {
  const json& terms = terms_of(pod);
  if (terms.empty()) return true;
  for (const json& term : terms) {
    if (term_matches(term, node)) return true;
  }
  return false;
}

std::string describe_required_node_affinity(const json& pod) {
  std::string out;
  for (const json& term : terms_of(pod)) {
    std::string t;
    for (const char* part : {"matchExpressions", "matchFields"}) {
      for (const json& req : array_at(term, {part})) {
        if (!t.empty()) t += ", ";
        t += describe_requirement(req);
      }
    }
    if (!out.empty()) out += " | ";
    out += t.empty() ? "(empty term)" : t;
  }
  return out;
}

}  // namespace vc::controllers::explain

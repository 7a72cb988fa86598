#include "common/volcano/hyper_node.h"

#include "common/volcano/json_write.h"

namespace vc::volcano {

using nlohmann::json;

namespace {

// The string member `field` of the object member `name` (exactMatch.name, regexMatch.pattern);
// nullopt when the object is absent or null.
std::optional<std::string> match_at(const json& selector, std::string_view name,
                                    std::string_view field, const FieldPath& at) {
  const json* match = read::object_at(selector, name, at);
  if (match == nullptr) return std::nullopt;
  return read::string_at(*match, field, at.key(name));
}

HyperNodeMember member_from_json(const json& m, const FieldPath& at) {
  HyperNodeMember out;
  out.type = read::string_at(m, "type", at);
  if (const json* s = read::object_at(m, "selector", at); s != nullptr) {
    const FieldPath sp = at.key("selector");
    out.selector.exact_match = match_at(*s, "exactMatch", "name", sp);
    out.selector.regex_match = match_at(*s, "regexMatch", "pattern", sp);
    out.selector.label_match = label_selector_at(*s, "labelMatch", sp);
  }
  return out;
}

}  // namespace

void decode_hyper_node(const json& hyper_node, HyperNode& out, const FieldPath& root) {
  read::object(hyper_node, root);
  decode_object_meta(hyper_node, root, out);
  if (const json* spec = read::object_at(hyper_node, "spec", root); spec != nullptr) {
    const FieldPath sp = root.key("spec");
    out.spec.tier = read::int64_at(*spec, "tier", sp);
    out.spec.tier_name = read::string_at(*spec, "tierName", sp);
    out.spec.members_null = read::array_at(*spec, "members", sp) == nullptr;
    read::each_at(*spec, "members", sp, [&](const json& m, const FieldPath& mp) {
      out.spec.members.push_back(member_from_json(m, mp));
    });
  }
  if (const json* status = read::object_at(hyper_node, "status", root); status != nullptr) {
    const FieldPath sp = root.key("status");
    out.status.conditions = conditions_at(*status, "conditions", sp);
    out.status.node_count = read::int64_at(*status, "nodeCount", sp);
  }
}

json encode_hyper_node_status(const HyperNodeStatus& s) {
  json out = json::object();
  write::list(out, "conditions", s.conditions, encode_condition);
  write::nonzero(out, "nodeCount", s.node_count);
  return out;
}

}  // namespace vc::volcano

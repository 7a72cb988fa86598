#include "controllers/hypernode/ufm_topology.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <deque>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "common/go/json_types/json_types.h"
#include "common/go/unicode.h"

namespace vc::controllers::hypernode {
namespace {

using nlohmann::json;

// The JSON keys of Volcano's port type, in field order.
constexpr std::array<const char*, 5> kFields = {"description", "tier", "system_name",
                                                "node_description", "peer_node_name"};

// []ufm.UFMInterface, for Go's type check and its messages.
const go::GoType& ports_type() {
  static const go::GoType* type = [] {
    static go::GoTypes types;
    const go::GoType* str = types.scalar(go::GoKind::String, "string");
    const go::GoType* integer = types.scalar(go::GoKind::Int, "int");
    const go::GoType* port =
        types.structure("ufm.UFMInterface", {{.json_name = "description", .type = str},
                                             {.json_name = "tier", .type = integer},
                                             {.json_name = "system_name", .type = str},
                                             {.json_name = "node_description", .type = str},
                                             {.json_name = "peer_node_name", .type = str}});
    return types.slice(port);
  }();
  return *type;
}

// Go's encoding/json matches a key to a field exactly first, then ignoring case; other keys are
// dropped. The result has only the fields' own keys, so the type check can be case-sensitive.
json canonical_port(const json& element) {
  if (!element.is_object()) return element;  // the type check names the mismatch
  json out = json::object();
  for (const char* field : kFields) {
    if (auto it = element.find(field); it != element.end()) {
      out[field] = *it;
      continue;
    }
    for (const auto& [key, value] : element.items()) {
      if (go::ascii_equal_fold(key, field)) out[field] = value;
    }
  }
  return out;
}

std::string string_at(const json& port, const char* field) {
  auto it = port.find(field);
  return it == port.end() || it->is_null() ? std::string() : it->get<std::string>();
}

}  // namespace

std::string ufm_ports_url(std::string_view endpoint) {
  while (!endpoint.empty() && endpoint.back() == '/') endpoint.remove_suffix(1);
  std::string url;
  if (!endpoint.starts_with("http://") && !endpoint.starts_with("https://")) url = "https://";
  url += endpoint;
  url += kUfmPortsPath;
  return url;
}

api::Expected<std::vector<UfmPort>> parse_ufm_ports(std::string_view body) {
  const std::string prefix = "failed to decode response: ";
  if (std::all_of(body.begin(), body.end(),
                  [](char c) { return std::isspace(static_cast<unsigned char>(c)); })) {
    return api::Unexpected{prefix + "EOF"};
  }
  json doc;
  try {
    // operator>> reads one value and leaves the rest, as json.Decoder.Decode does.
    std::istringstream in{std::string(body)};
    in >> doc;
  } catch (const json::exception& e) {
    return api::Unexpected{prefix + e.what()};
  }
  if (doc.is_array()) {
    for (json& element : doc) element = canonical_port(element);
  }
  if (auto mismatch = go::check_go_types(doc, ports_type()))
    return api::Unexpected{prefix + *mismatch};
  std::vector<UfmPort> ports;
  if (doc.is_null()) return ports;
  ports.reserve(doc.size());
  for (const json& element : doc) {
    if (element.is_null()) {
      ports.emplace_back();
      continue;
    }
    auto tier = element.find("tier");
    ports.push_back(
        {.description = string_at(element, "description"),
         .tier = tier == element.end() || tier->is_null() ? 0 : tier->get<std::int64_t>(),
         .system_name = string_at(element, "system_name"),
         .node_description = string_at(element, "node_description"),
         .peer_node_name = string_at(element, "peer_node_name")});
  }
  return ports;
}

std::vector<DesiredHyperNode> ufm_hyper_nodes(const std::vector<UfmPort>& ports) {
  // A computer's port names both ends of its cable: the node and its leaf switch.
  std::map<std::string, std::set<std::string>> nodes_of_leaf;  // sorted by leaf name
  std::map<std::string, std::set<std::string>> leaves_of_node;
  for (const UfmPort& p : ports) {
    if (p.description.find("Computer") == std::string::npos) continue;
    nodes_of_leaf[p.peer_node_name].insert(p.system_name);
    leaves_of_node[p.system_name].insert(p.peer_node_name);
  }
  // Leaves that share a node, transitively, form one group; groups are numbered in the order of
  // their first leaf by name.
  std::vector<DesiredHyperNode> out;
  std::vector<std::string> leaf_names;
  std::set<std::string> grouped;
  for (const auto& [first, unused] : nodes_of_leaf) {
    if (grouped.contains(first)) continue;
    std::set<std::string> nodes;
    std::deque<std::string> pending{first};
    grouped.insert(first);
    while (!pending.empty()) {
      const std::string leaf = std::move(pending.front());
      pending.pop_front();
      for (const std::string& node : nodes_of_leaf.at(leaf)) {
        nodes.insert(node);
        for (const std::string& other : leaves_of_node.at(node)) {
          if (grouped.insert(other).second) pending.push_back(other);
        }
      }
    }
    std::string name = kLeafPrefix + std::to_string(leaf_names.size());
    out.push_back(
        {.name = name,
         .labels = {{kSourceLabel, source::kUfm}},
         .tier = 1,
         .members = exact_members({nodes.begin(), nodes.end()}, volcano::member_type::kNode)});
    leaf_names.push_back(std::move(name));
  }
  if (!leaf_names.empty()) {
    out.push_back(
        {.name = kSpineName,
         .labels = {{kSourceLabel, source::kUfm}},
         .tier = 2,
         .members = exact_members(std::move(leaf_names), volcano::member_type::kHyperNode)});
  }
  return out;
}

}  // namespace vc::controllers::hypernode

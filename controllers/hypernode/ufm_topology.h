#pragma once
// The UFM source's data and topology as pure functions (spec controller-manager.md §5.5.4): the
// request URL, the ports response decoded as Go's encoding/json decodes it into Volcano's port
// type, and the leaf and spine HyperNodes built from it.
//
// Threads: pure functions.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/api/expected.h"
#include "controllers/hypernode/desired.h"

namespace vc::controllers::hypernode {

inline constexpr std::string_view kUfmPortsPath = "/ufmRest/resources/ports";
// The response body is read up to this size.
inline constexpr std::size_t kUfmMaxBody = std::size_t{100} << 20;
inline constexpr const char* kSpineName = "spine-hn";
inline constexpr const char* kLeafPrefix = "leaf-hn-";

// One element of the ports list: the fields Volcano reads.
struct UfmPort {
  std::string description{};
  std::int64_t tier = 0;
  std::string system_name{};  // the node (a computer)
  std::string node_description{};
  std::string peer_node_name{};  // the leaf switch it is cabled to
  friend bool operator==(const UfmPort&, const UfmPort&) = default;
};

// "<endpoint without trailing '/'>/ufmRest/resources/ports", with "https://" in front when the
// endpoint names no scheme.
std::string ufm_ports_url(std::string_view endpoint);

// The body as Go decodes its first JSON value into []UFMInterface: keys match ignoring case,
// unknown keys are ignored, null is the zero value, any type mismatch fails the whole body and
// trailing bytes after the first value are not read. The error is Go's text where we know it
// (`failed to decode response: json: cannot unmarshal string into Go struct field
// UFMInterface.tier of type int`).
api::Expected<std::vector<UfmPort>> parse_ufm_ports(std::string_view body);

// leaf-hn-<i> (tier 1, nodes) for each group of leaf switches that share nodes, and spine-hn
// (tier 2, every leaf HyperNode) when there is at least one; labelled as the ufm source's.
std::vector<DesiredHyperNode> ufm_hyper_nodes(const std::vector<UfmPort>& ports);

}  // namespace vc::controllers::hypernode

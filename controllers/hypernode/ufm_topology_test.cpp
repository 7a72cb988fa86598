// The UFM source's pure parts: the URL, the ports body as Go decodes it, leaf groups and spine.
#include "controllers/hypernode/ufm_topology.h"

#include <gtest/gtest.h>

namespace vc::controllers::hypernode {
namespace {

UfmPort computer(std::string node, std::string leaf) {
  return {.description = "Computer IB Port",
          .system_name = std::move(node),
          .peer_node_name = std::move(leaf)};
}

const std::map<std::string, std::string> kUfmLabels = {
    {"volcano.sh/network-topology-source", "ufm"}};

TEST(UfmPortsUrl, AddsThePathAndADefaultScheme) {
  EXPECT_EQ(ufm_ports_url("https://ufm:8080"), "https://ufm:8080/ufmRest/resources/ports");
  EXPECT_EQ(ufm_ports_url("http://ufm//"), "http://ufm/ufmRest/resources/ports");
  EXPECT_EQ(ufm_ports_url("ufm.example:443/"), "https://ufm.example:443/ufmRest/resources/ports");
}

TEST(ParseUfmPorts, ReadsTheFieldsVolcanoReads) {
  auto ports = parse_ufm_ports(R"([
    {"description": "Computer IB Port", "tier": 3, "system_name": "node0",
     "node_description": "node0 HCA-1", "peer_node_name": "leaf0", "guid": "0x1"},
    {"Description": "Switch IB Port", "TIER": 2, "System_Name": "leaf0"},
    null
  ])");
  ASSERT_TRUE(ports.ok()) << ports.error();
  EXPECT_EQ(*ports, (std::vector<UfmPort>{
                        {.description = "Computer IB Port",
                         .tier = 3,
                         .system_name = "node0",
                         .node_description = "node0 HCA-1",
                         .peer_node_name = "leaf0"},
                        {.description = "Switch IB Port", .tier = 2, .system_name = "leaf0"},
                        {}}));
}

TEST(ParseUfmPorts, NullIsNoPortsAndTrailingBytesAreNotRead) {
  EXPECT_TRUE(parse_ufm_ports("null")->empty());
  EXPECT_TRUE(parse_ufm_ports("[] trailing").ok());
  EXPECT_TRUE(parse_ufm_ports(R"([{"tier": null, "system_name": null}])").ok());
}

TEST(ParseUfmPorts, AnyTypeMismatchFailsTheBody) {
  EXPECT_EQ(parse_ufm_ports(R"([{"tier": "1"}])").error(),
            "failed to decode response: json: cannot unmarshal string into Go struct field "
            "UFMInterface.tier of type int");
  EXPECT_EQ(parse_ufm_ports(R"([{"system_name": 5}])").error(),
            "failed to decode response: json: cannot unmarshal number into Go struct field "
            "UFMInterface.system_name of type string");
  EXPECT_EQ(parse_ufm_ports(R"({"ports": []})").error(),
            "failed to decode response: json: cannot unmarshal object into Go value of type "
            "[]ufm.UFMInterface");
  EXPECT_FALSE(parse_ufm_ports(R"([{"tier": 1.5}])").ok());
}

TEST(ParseUfmPorts, EmptyOrInvalidBodiesFail) {
  EXPECT_EQ(parse_ufm_ports("  \n").error(), "failed to decode response: EOF");
  const auto broken = parse_ufm_ports("[{");
  ASSERT_FALSE(broken.ok());
  EXPECT_TRUE(broken.error().starts_with("failed to decode response: ")) << broken.error();
}

TEST(UfmHyperNodes, LeavesSharingNodesFormOneLeafHyperNode) {
  // Every node is cabled to every leaf: one group.
  std::vector<UfmPort> ports;
  for (const char* n : {"node0", "node1", "node2"}) {
    for (const char* l : {"leaf0", "leaf1", "leaf2", "leaf3"}) ports.push_back(computer(n, l));
  }
  EXPECT_EQ(ufm_hyper_nodes(ports),
            (std::vector<DesiredHyperNode>{
                {.name = "leaf-hn-0",
                 .labels = kUfmLabels,
                 .tier = 1,
                 .members = exact_members({"node0", "node1", "node2"}, "Node")},
                {.name = "spine-hn",
                 .labels = kUfmLabels,
                 .tier = 2,
                 .members = exact_members({"leaf-hn-0"}, "HyperNode")}}));
}

TEST(UfmHyperNodes, GroupsAreConnectedTransitivelyAndNumberedByTheirFirstLeaf) {
  // leafB-leafD share node2, leafD-leafA share node3: one group; leafC alone.
  const std::vector<UfmPort> ports = {computer("node1", "leafB"), computer("node2", "leafB"),
                                      computer("node2", "leafD"), computer("node3", "leafD"),
                                      computer("node3", "leafA"), computer("node9", "leafC")};
  const auto out = ufm_hyper_nodes(ports);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].name, "leaf-hn-0");  // the group of leafA
  EXPECT_EQ(out[0].members, exact_members({"node1", "node2", "node3"}, "Node"));
  EXPECT_EQ(out[1].name, "leaf-hn-1");  // leafC
  EXPECT_EQ(out[1].members, exact_members({"node9"}, "Node"));
  EXPECT_EQ(out[2].members, exact_members({"leaf-hn-0", "leaf-hn-1"}, "HyperNode"));
}

TEST(UfmHyperNodes, OnlyComputerPortsCount) {
  const std::vector<UfmPort> ports = {
      {.description = "Switch IB Port", .system_name = "leaf0", .peer_node_name = "spine0"},
      {.description = "computer ib port", .system_name = "node0", .peer_node_name = "leaf0"}};
  EXPECT_TRUE(ufm_hyper_nodes(ports).empty());
  EXPECT_TRUE(ufm_hyper_nodes({}).empty());
}

TEST(UfmHyperNodes, TheSpineListsLeavesInStringOrder) {
  std::vector<UfmPort> ports;
  for (int i = 0; i < 11; ++i) {
    ports.push_back(computer("node" + std::to_string(i), "leaf" + std::to_string(100 + i)));
  }
  const auto out = ufm_hyper_nodes(ports);
  ASSERT_EQ(out.size(), 12u);
  const auto& spine = out.back().members;
  EXPECT_EQ(spine[1].selector.exact_match, "leaf-hn-1");
  EXPECT_EQ(spine[2].selector.exact_match, "leaf-hn-10");
  EXPECT_EQ(spine[3].selector.exact_match, "leaf-hn-2");
}

}  // namespace
}  // namespace vc::controllers::hypernode

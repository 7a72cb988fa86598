// The hyperNode-controller's cached forms: typed HyperNodes and name-and-labels nodes.
#include "controllers/hypernode/cache_views.h"

#include <gtest/gtest.h>

#include "common/json/fast_parse.h"

namespace vc::controllers::hypernode {
namespace {

using nlohmann::json;

const json kNode = {{"apiVersion", "v1"},
                    {"kind", "Node"},
                    {"metadata",
                     {{"name", "n1"},
                      {"uid", "u1"},
                      {"resourceVersion", "5"},
                      {"labels", {{"tor", "t1"}, {"kubernetes.io/hostname", "n1"}}},
                      {"annotations", {{"a", "b"}}}}},
                    {"status", {{"images", json::array({{{"names", {"x"}}, {"sizeBytes", 1}}})}}}};

TEST(NodeMetaTransform, KeepsNameUidVersionAndSortedLabels) {
  const auto t = node_meta_transform();
  EXPECT_EQ(t.name, "node-meta");
  const auto obj = t.fn(json(kNode));
  EXPECT_EQ(obj->name, "n1");
  EXPECT_EQ(obj->uid, "u1");
  EXPECT_EQ(obj->resource_version, "5");
  EXPECT_EQ(obj->labels, (kube::cache::Labels{{"kubernetes.io/hostname", "n1"}, {"tor", "t1"}}));
}

TEST(NodeMetaTransform, TheMembersItReadsGiveTheSameObject) {
  const auto t = node_meta_transform();
  ASSERT_TRUE(t.reads);
  const auto whole = t.fn(json(kNode));
  const auto filtered = t.fn(fastjson::parse(kNode.dump(), *t.reads));
  EXPECT_EQ(filtered->name, whole->name);
  EXPECT_EQ(filtered->uid, whole->uid);
  EXPECT_EQ(filtered->resource_version, whole->resource_version);
  EXPECT_EQ(filtered->labels, whole->labels);
}

TEST(HyperNodeViewTransform, DecodesTheTypedHyperNode) {
  const auto t = hyper_node_view_transform();
  EXPECT_EQ(t.name, "hypernode-view");
  const auto obj = t.fn(
      {{"metadata", {{"name", "hn"}, {"labels", {{"volcano.sh/network-topology-source", "ufm"}}}}},
       {"spec",
        {{"tier", 2},
         {"members", json::array({{{"type", "HyperNode"},
                                   {"selector", {{"exactMatch", {{"name", "x"}}}}}}})}}},
       {"status", {{"nodeCount", 4}}}});
  const auto h = as_hyper_node(obj);
  ASSERT_TRUE(h);
  EXPECT_EQ(h->spec.tier, 2);
  EXPECT_EQ(h->status.node_count, 4);
  ASSERT_EQ(h->spec.members.size(), 1u);
  EXPECT_EQ(h->spec.members[0].selector.exact_match, "x");
  EXPECT_EQ(as_hyper_node(std::make_shared<kube::cache::Object>()), nullptr);
}

TEST(HyperNodeViewTransform, AMalformedHyperNodeThrowsNamingTheField) {
  const auto t = hyper_node_view_transform();
  try {
    t.fn({{"metadata", {{"name", "hn"}}}, {"spec", {{"tier", "high"}}}});
    FAIL() << "no error";
  } catch (const volcano::DecodeError& e) {
    EXPECT_NE(std::string(e.what()).find("spec.tier"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace vc::controllers::hypernode

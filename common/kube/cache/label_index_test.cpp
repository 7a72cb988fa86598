#include "common/kube/cache/label_index.h"

#include <memory>
#include <set>
#include <string>
#include <utility>

#include <gtest/gtest.h>

namespace vc::kube::cache {
namespace {

ObjectPtr object(const std::string& ns, const std::string& name, Labels labels) {
  auto o = std::make_shared<JsonObject>();
  o->namespace_ = ns;
  o->name = name;
  o->labels = std::move(labels);
  return o;
}

TEST(LabelIndex, FilesObjectsUnderTheirNamespaceAndLabelValue) {
  Store store;
  ASSERT_TRUE(store.add_indexer(label_index_name("owner"), label_index("owner")));
  store.upsert(object("a", "one", {{"owner", "x"}}));
  store.upsert(object("a", "two", {{"other", "x"}, {"owner", "x"}}));
  store.upsert(object("b", "three", {{"owner", "x"}}));  // same value, other namespace
  store.upsert(object("a", "four", {{"owner", "y"}}));
  store.upsert(object("a", "five", {}));

  const auto in_a = store.by_index(label_index_name("owner"), label_index_value("a", "x"));
  std::set<std::string> names;
  for (const auto& o : in_a) names.insert(o->name);
  EXPECT_EQ(names, (std::set<std::string>{"one", "two"}));
  EXPECT_EQ(store.by_index(label_index_name("owner"), label_index_value("b", "x")).size(), 1U);
  EXPECT_TRUE(store.by_index(label_index_name("owner"), label_index_value("a", "z")).empty());
}

TEST(LabelIndex, FollowsALabelThatChanges) {
  Store store;
  store.add_indexer(label_index_name("owner"), label_index("owner"));
  store.upsert(object("a", "one", {{"owner", "x"}}));
  store.upsert(object("a", "one", {{"owner", "y"}}));
  EXPECT_TRUE(store.by_index(label_index_name("owner"), label_index_value("a", "x")).empty());
  EXPECT_EQ(store.by_index(label_index_name("owner"), label_index_value("a", "y")).size(), 1U);
}

TEST(LabelIndex, NamesDifferPerLabelKey) {
  EXPECT_NE(label_index_name("a"), label_index_name("b"));
}

}  // namespace
}  // namespace vc::kube::cache

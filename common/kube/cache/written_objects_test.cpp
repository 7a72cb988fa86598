// WrittenObjects: exact-version matching, one offer per key, and the bound.

#include "common/kube/cache/written_objects.h"

#include <memory>
#include <string>

#include <gtest/gtest.h>

namespace vc::kube::cache {
namespace {

ObjectPtr object(const std::string& ns, const std::string& name, const std::string& rv) {
  auto o = std::make_shared<Object>();
  o->namespace_ = ns;
  o->name = name;
  o->resource_version = rv;
  return o;
}

TEST(WrittenObjects, TakesOnlyTheExactVersionAndOnlyOnce) {
  WrittenObjects written;
  auto a = object("ns", "a", "7");
  written.offer(a);
  EXPECT_EQ(written.take("ns/a", "6"), nullptr) << "an older event is decoded";
  EXPECT_EQ(written.take("ns/b", "7"), nullptr) << "another object";
  EXPECT_EQ(written.take("ns/a", "7"), a);
  EXPECT_EQ(written.take("ns/a", "7"), nullptr) << "taken once";
  EXPECT_EQ(written.size(), 0u);
}

TEST(WrittenObjects, ALaterOfferReplacesTheEarlierOne) {
  WrittenObjects written;
  written.offer(object("ns", "a", "7"));
  auto newer = object("ns", "a", "9");
  written.offer(newer);
  EXPECT_EQ(written.size(), 1u);
  EXPECT_EQ(written.take("ns/a", "7"), nullptr);
  EXPECT_EQ(written.take("ns/a", "9"), newer);
}

TEST(WrittenObjects, IgnoresObjectsWithoutAVersionAndNull) {
  WrittenObjects written;
  written.offer(object("ns", "a", ""));
  written.offer(nullptr);
  EXPECT_EQ(written.size(), 0u);
  EXPECT_EQ(written.take("ns/a", ""), nullptr);
}

TEST(WrittenObjects, ForgetClearAndTheBound) {
  WrittenObjects written(3);
  written.offer(object("", "cluster-scoped", "1"));
  written.offer(object("ns", "a", "1"));
  written.forget("ns/a");
  EXPECT_EQ(written.size(), 1u);
  EXPECT_NE(written.take("cluster-scoped", "1"), nullptr) << "keyed by name alone";
  written.offer(object("ns", "a", "1"));
  written.offer(object("ns", "b", "1"));
  written.offer(object("ns", "c", "1"));
  EXPECT_EQ(written.size(), 3u);
  written.offer(object("ns", "c", "2"));  // a known key never overflows
  EXPECT_EQ(written.size(), 3u);
  written.offer(object("ns", "d", "1"));  // past the bound: start over
  EXPECT_EQ(written.size(), 1u);
  EXPECT_NE(written.take("ns/d", "1"), nullptr);
  written.offer(object("ns", "e", "1"));
  written.clear();
  EXPECT_EQ(written.size(), 0u);
}

TEST(WrittenObjects, EmptyFollowsEveryChange) {
  WrittenObjects written(2);
  EXPECT_TRUE(written.empty());
  written.offer(object("ns", "a", "1"));
  EXPECT_FALSE(written.empty());
  EXPECT_NE(written.take("ns/a", "1"), nullptr);
  EXPECT_TRUE(written.empty()) << "taken";
  written.offer(object("ns", "a", "1"));
  written.forget("ns/a");
  EXPECT_TRUE(written.empty()) << "forgotten";
  written.offer(object("ns", "a", "1"));
  written.offer(object("ns", "b", "1"));
  written.offer(object("ns", "c", "1"));  // past the bound: starts over with this one
  EXPECT_FALSE(written.empty());
  written.clear();
  EXPECT_TRUE(written.empty()) << "cleared";
}

}  // namespace
}  // namespace vc::kube::cache

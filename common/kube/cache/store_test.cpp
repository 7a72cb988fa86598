#include "common/kube/cache/store.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <thread>

namespace vc::kube::cache {
namespace {

ObjectPtr make(std::string ns, std::string name, std::string rv, Labels labels = {}) {
  auto o = std::make_shared<Object>();
  o->namespace_ = std::move(ns);
  o->name = std::move(name);
  o->resource_version = std::move(rv);
  o->labels = std::move(labels);
  return o;
}

std::vector<std::string> names(std::vector<ObjectPtr> objs) {
  std::vector<std::string> out;
  for (const auto& o : objs) out.push_back(o->key());
  std::sort(out.begin(), out.end());
  return out;
}

IndexFunc by_label(std::string key) {
  return [key](const Object& o) {
    const std::string* v = o.label(key);
    return v ? std::vector<std::string>{*v} : std::vector<std::string>{};
  };
}

using Keys = std::vector<std::string>;

TEST(Store, UpsertReturnsTheReplacedObject) {
  Store s;
  auto v1 = make("ns", "a", "1");
  auto v2 = make("ns", "a", "2");
  EXPECT_EQ(s.upsert(v1), nullptr);
  EXPECT_EQ(s.upsert(v2), v1);
  EXPECT_EQ(s.get("ns/a"), v2);
  EXPECT_EQ(s.size(), 1u);
}

TEST(Store, RemoveReturnsTheRemovedObject) {
  Store s;
  auto a = make("ns", "a", "1");
  s.upsert(a);
  EXPECT_EQ(s.remove("ns/missing"), nullptr);
  EXPECT_EQ(s.remove("ns/a"), a);
  EXPECT_EQ(s.get("ns/a"), nullptr);
  EXPECT_EQ(s.size(), 0u);
}

TEST(Store, ClusterScopedObjectsAreKeyedByName) {
  Store s;
  s.upsert(make("", "q1", "1"));
  EXPECT_EQ(s.keys(), Keys{"q1"});
  EXPECT_EQ(names(s.by_index(kNamespaceIndex, "")), Keys{"q1"});
}

TEST(Store, NamespaceAndCustomIndexesFollowUpdatesAndDeletes) {
  Store s;
  ASSERT_TRUE(s.add_indexer("job", by_label("job")));
  s.upsert(make("a", "p1", "1", {{"job", "j1"}}));
  s.upsert(make("a", "p2", "1", {{"job", "j1"}}));
  s.upsert(make("b", "p3", "1", {{"job", "j2"}}));
  s.upsert(make("b", "p4", "1"));
  EXPECT_EQ(names(s.by_index(kNamespaceIndex, "a")), (Keys{"a/p1", "a/p2"}));
  EXPECT_EQ(names(s.by_index(kNamespaceIndex, "b")), (Keys{"b/p3", "b/p4"}));
  EXPECT_EQ(names(s.by_index("job", "j1")), (Keys{"a/p1", "a/p2"}));

  s.upsert(make("a", "p2", "2", {{"job", "j2"}}));  // relabelled
  EXPECT_EQ(names(s.by_index("job", "j1")), Keys{"a/p1"});
  EXPECT_EQ(names(s.by_index("job", "j2")), (Keys{"a/p2", "b/p3"}));
  EXPECT_EQ(s.by_index("job", "j2").size(), 2u) << "the old version must not stay filed";

  s.remove("a/p1");
  EXPECT_TRUE(s.by_index("job", "j1").empty());
  EXPECT_EQ(names(s.by_index(kNamespaceIndex, "a")), Keys{"a/p2"});
  auto values = s.index_values("job");
  std::sort(values.begin(), values.end());
  EXPECT_EQ(values, Keys{"j2"}) << "empty buckets are dropped";
}

TEST(Store, ForEachInIndexVisitsWhatByIndexReturns) {
  Store s;
  ASSERT_TRUE(s.add_indexer("job", by_label("job")));
  s.upsert(make("a", "p1", "1", {{"job", "j1"}}));
  s.upsert(make("a", "p2", "1", {{"job", "j1"}}));
  s.upsert(make("b", "p3", "1", {{"job", "j2"}}));
  s.upsert(make("a", "p2", "2", {{"job", "j2"}}));  // relabelled: visited under j2 only
  const auto visited = [&s](const std::string& value) {
    Keys out;
    s.for_each_in_index("job", value, [&out](const Object& o) { out.push_back(o.key()); });
    std::sort(out.begin(), out.end());
    return out;
  };
  EXPECT_EQ(visited("j1"), Keys{"a/p1"});
  EXPECT_EQ(visited("j2"), (Keys{"a/p2", "b/p3"}));
  EXPECT_EQ(visited("j2"), names(s.by_index("job", "j2")));
  EXPECT_TRUE(visited("none").empty());
  EXPECT_THROW(s.for_each_in_index("missing", "x", [](const Object&) {}), std::invalid_argument);
}

TEST(Store, ReplaceReportsAddsUpdatesAndDeletes) {
  Store s;
  ASSERT_TRUE(s.add_indexer("job", by_label("job")));
  auto kept = make("ns", "kept", "1", {{"job", "x"}});
  auto changed_old = make("ns", "changed", "1", {{"job", "x"}});
  auto gone = make("ns", "gone", "1", {{"job", "x"}});
  s.upsert(kept);
  s.upsert(changed_old);
  s.upsert(gone);

  auto kept_again = make("ns", "kept", "1", {{"job", "x"}});
  auto changed_new = make("ns", "changed", "2", {{"job", "y"}});
  auto added = make("ns", "added", "5", {{"job", "y"}});
  auto changes = s.replace({kept_again, changed_new, added});

  ASSERT_EQ(changes.size(), 3u);
  EXPECT_EQ(changes[0].old_obj, changed_old);
  EXPECT_EQ(changes[0].new_obj, changed_new);
  EXPECT_EQ(changes[1].old_obj, nullptr);
  EXPECT_EQ(changes[1].new_obj, added);
  EXPECT_EQ(changes[2].old_obj, gone);
  EXPECT_EQ(changes[2].new_obj, nullptr);

  EXPECT_EQ(s.get("ns/kept"), kept) << "an unchanged object keeps its cached instance";
  EXPECT_EQ(names(s.list()), (Keys{"ns/added", "ns/changed", "ns/kept"}));
  EXPECT_EQ(names(s.by_index("job", "x")), Keys{"ns/kept"});
  EXPECT_EQ(names(s.by_index("job", "y")), (Keys{"ns/added", "ns/changed"}));
}

TEST(Store, ReplaceWithDuplicateKeysKeepsTheLast) {
  Store s;
  auto first = make("ns", "a", "1");
  auto last = make("ns", "a", "2");
  auto changes = s.replace({first, last});
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].new_obj, last);
  EXPECT_EQ(s.get("ns/a"), last);
}

TEST(Store, IndexerAfterObjectsWereStoredThrows) {
  Store s;
  s.upsert(make("ns", "a", "1"));
  EXPECT_THROW(s.add_indexer("late", by_label("x")), std::logic_error);
}

TEST(Store, SecondIndexerWithTheSameNameKeepsTheFirst) {
  Store s;
  EXPECT_TRUE(s.add_indexer("job", by_label("job")));
  EXPECT_FALSE(s.add_indexer("job", by_label("other")));
  s.upsert(make("ns", "a", "1", {{"job", "j"}, {"other", "o"}}));
  EXPECT_EQ(s.by_index("job", "j").size(), 1u);
  EXPECT_TRUE(s.by_index("job", "o").empty());
}

TEST(Store, UnknownIndexThrows) {
  Store s;
  EXPECT_THROW(s.by_index("nope", "x"), std::invalid_argument);
}

TEST(Store, ReadersAlwaysSeeObjectsFiledUnderTheirOwnValue) {
  Store s;
  ASSERT_TRUE(s.add_indexer("color", by_label("color")));
  std::atomic<bool> stop{false};
  std::atomic<int> wrong{0};
  std::thread writer([&] {
    for (int i = 0; i < 5000; ++i) {
      const std::string color = i % 2 ? "red" : "blue";
      s.upsert(make("ns", "p" + std::to_string(i % 10), std::to_string(i), {{"color", color}}));
      if (i % 7 == 0) s.remove("ns/p" + std::to_string(i % 10));
    }
    stop = true;
  });
  std::vector<std::thread> readers;
  for (int r = 0; r < 3; ++r) {
    readers.emplace_back([&] {
      while (!stop) {
        for (const char* color : {"red", "blue"}) {
          for (const auto& o : s.by_index("color", color)) {
            if (*o->label("color") != color) wrong++;
          }
        }
      }
    });
  }
  writer.join();
  for (auto& t : readers) t.join();
  EXPECT_EQ(wrong.load(), 0);
  size_t filed = s.by_index("color", "red").size() + s.by_index("color", "blue").size();
  EXPECT_EQ(filed, s.size());
}

}  // namespace
}  // namespace vc::kube::cache

// What the informer caches: transforms, indexes and deletions whose final state is unusable.

#include <gtest/gtest.h>

#include "common/kube/cache/fake_collection_test_util.h"
#include "common/kube/cache/informer.h"

namespace vc::kube::cache {
namespace {

using namespace testing_util;

// A compact view such as a controller would keep: metadata plus two fields.
struct PodView : Object {
  std::string node;
  std::string phase;
};

ObjectPtr pod_view(json&& j) {
  if (j.at("metadata").at("name") == "poison") throw std::invalid_argument("cannot read pod");
  auto v = std::make_shared<PodView>();
  read_metadata(j, *v);
  v->node = j.at("spec").value("nodeName", "");
  v->phase = j.at("status").value("phase", "");
  return v;
}

json on_node(json p, const std::string& node) {
  p["spec"]["nodeName"] = node;
  return p;
}

std::vector<std::string> keys_of(std::vector<ObjectPtr> objs) {
  std::vector<std::string> out;
  for (const auto& o : objs) out.push_back(o->key());
  std::sort(out.begin(), out.end());
  return out;
}

class InformerCacheTest : public ::testing::Test {
 protected:
  InformerCacheTest()
      : pods_(server_, "/api/v1/pods"), client_(server_.config(), test_client_options()) {}

  std::unique_ptr<Informer> make_view_informer() {
    auto o = fast_options();
    o.transform = {"pod-view", pod_view};
    return std::make_unique<Informer>(client_, resources::pods, o);
  }

  FakeApiServer server_;
  FakeCollection pods_;
  Client client_;
  Recorder recorder_;
};

TEST_F(InformerCacheTest, TransformShapesListedAndWatchedObjects) {
  pods_.add_list_version({pod("ns", "a", 1)}, 10);
  std::vector<std::string> phases;
  std::mutex mu;
  auto informer = make_view_informer();
  EventHandler h;
  h.on_update = [&](const ObjectPtr&, const ObjectPtr& cur) {
    auto v = std::dynamic_pointer_cast<const PodView>(cur);
    std::lock_guard lock(mu);
    phases.push_back(v ? v->phase : "not a PodView");
  };
  informer->add_event_handler(h);
  informer->add_event_handler(recorder_.handler());
  informer->start();
  ASSERT_TRUE(informer->wait_for_sync({}, in(10s)));
  auto listed = std::dynamic_pointer_cast<const PodView>(informer->store().get("ns/a"));
  ASSERT_TRUE(listed);
  EXPECT_EQ(listed->node, "node-1");
  EXPECT_EQ(listed->phase, "Running");

  auto watch = pods_.next_watch();
  ASSERT_TRUE(watch);
  json done = pod("ns", "a", 11);
  done["status"]["phase"] = "Succeeded";
  watch->write_event("MODIFIED", done);
  recorder_.wait_for(2);
  std::lock_guard lock(mu);
  EXPECT_EQ(phases, std::vector<std::string>{"Succeeded"});
}

TEST_F(InformerCacheTest, ObjectsTheTransformRejectsAreSkipped) {
  pods_.add_list_version({pod("ns", "a", 1), pod("ns", "poison", 2), pod("ns", "b", 3)}, 10);
  auto informer = make_view_informer();
  informer->add_event_handler(recorder_.handler());
  informer->start();
  ASSERT_TRUE(informer->wait_for_sync({}, in(10s)));
  EXPECT_EQ(keys_of(informer->store().list()), (std::vector<std::string>{"ns/a", "ns/b"}));
  auto watch = pods_.next_watch();
  ASSERT_TRUE(watch);
  watch->write_event("ADDED", pod("ns", "poison", 11));
  watch->write_event("ADDED", pod("ns", "c", 12));
  EXPECT_EQ(recorder_.wait_for(3), (Events{"add ns/a@1", "add ns/b@3", "add ns/c@12"}));
  EXPECT_TRUE(eventually([&] { return informer->last_resource_version() == "12"; }))
      << "a rejected object still advances the resourceVersion; saw "
      << informer->last_resource_version();
}

TEST_F(InformerCacheTest, DeleteWhoseFinalStateCannotBeTransformedStillRemoves) {
  pods_.add_list_version({pod("ns", "a", 1)}, 10);
  auto informer = make_view_informer();
  informer->add_event_handler(recorder_.handler());
  informer->start();
  ASSERT_TRUE(informer->wait_for_sync({}, in(10s)));
  auto watch = pods_.next_watch();
  ASSERT_TRUE(watch);
  json broken = pod("ns", "a", 11);
  broken.erase("spec");  // pod_view cannot read it
  watch->write_event("DELETED", broken);
  EXPECT_EQ(recorder_.wait_for(2), (Events{"add ns/a@1", "delete ns/a@1"}))
      << "the delete carries the last cached state";
  EXPECT_EQ(informer->store().size(), 0u);
}

TEST_F(InformerCacheTest, DefaultTransformKeepsJsonWithoutManagedFields) {
  json p = pod("ns", "a", 1);
  p["metadata"]["managedFields"] = json::array({{{"manager", "kubectl"}}});
  pods_.add_list_version({p}, 10);
  Informer informer(client_, resources::pods, fast_options());
  informer.start();
  ASSERT_TRUE(informer.wait_for_sync({}, in(10s)));
  auto obj = std::dynamic_pointer_cast<const JsonObject>(informer.store().get("ns/a"));
  ASSERT_TRUE(obj);
  EXPECT_FALSE(obj->json["metadata"].contains("managedFields"));
  EXPECT_EQ(obj->json["kind"], "Pod") << "list items get their kind back";
  EXPECT_EQ(obj->json["apiVersion"], "v1");
}

TEST_F(InformerCacheTest, NamespaceAndCustomIndexesStayConsistentThroughEvents) {
  pods_.add_list_version({on_node(pod("a", "p1", 1), "n1"), on_node(pod("a", "p2", 1), "n1"),
                          on_node(pod("b", "p3", 1), "n2")},
                         10);
  auto informer = make_view_informer();
  ASSERT_TRUE(informer->add_indexer("node", [](const Object& o) {
    return std::vector<std::string>{static_cast<const PodView&>(o).node};
  }));
  informer->add_event_handler(recorder_.handler());
  informer->start();
  ASSERT_TRUE(informer->wait_for_sync({}, in(10s)));
  const auto& store = informer->store();
  using Keys = std::vector<std::string>;
  EXPECT_EQ(keys_of(store.by_index("node", "n1")), (Keys{"a/p1", "a/p2"}));
  EXPECT_EQ(keys_of(store.by_index(kNamespaceIndex, "b")), Keys{"b/p3"});

  auto watch = pods_.next_watch();
  ASSERT_TRUE(watch);
  watch->write_event("MODIFIED", on_node(pod("a", "p2", 11), "n2"));  // rescheduled
  watch->write_event("DELETED", on_node(pod("b", "p3", 12), "n2"));
  watch->write_event("ADDED", on_node(pod("c", "p4", 13), "n3"));
  recorder_.wait_for(6);
  EXPECT_EQ(keys_of(store.by_index("node", "n1")), Keys{"a/p1"});
  EXPECT_EQ(keys_of(store.by_index("node", "n2")), Keys{"a/p2"});
  EXPECT_EQ(keys_of(store.by_index("node", "n3")), Keys{"c/p4"});
  EXPECT_TRUE(store.by_index(kNamespaceIndex, "b").empty());
  EXPECT_EQ(keys_of(store.by_index(kNamespaceIndex, "a")), (Keys{"a/p1", "a/p2"}));
}

}  // namespace
}  // namespace vc::kube::cache

#include "webhook/app/informer_cluster_view.h"

#include <gtest/gtest.h>

#include "webhook/app/app_test_util.h"

namespace vc::webhook::app {
namespace {

using namespace std::chrono_literals;
using test::json;
using test::queue;
using test::Request;
using test::Response;

std::vector<std::string> names(const std::vector<QueuePtr>& queues) {
  std::vector<std::string> out;
  for (const auto& q : queues) out.push_back((*q)["metadata"]["name"]);
  std::sort(out.begin(), out.end());
  return out;
}

class InformerClusterViewTest : public ::testing::Test {
 protected:
  void start() {
    informer = std::make_shared<kube::cache::Informer>(client, kube::resources::queues);
    add_queue_parent_index(*informer);
    informer->start();
    ASSERT_TRUE(informer->wait_for_sync({}, std::chrono::steady_clock::now() + 10s));
    view = std::make_unique<InformerClusterView>(client, informer);
  }

  vc::testing::FakeApiServer server;
  test::FakeQueues queues{server};
  kube::Client client{server.config()};
  std::shared_ptr<kube::cache::Informer> informer;
  std::unique_ptr<InformerClusterView> view;
};

TEST_F(InformerClusterViewTest, CachedQueuesAreServedWithoutApiCalls) {
  queues.add(queue("default"));
  queues.add(queue("root"));
  start();
  // The informer's own watch may open at any moment after the sync; only other requests (a
  // live GET or LIST from the view) would mean the cache was bypassed.
  auto non_watch_requests = [&] {
    size_t n = 0;
    for (const auto& r : server.requests()) n += r.query.count("watch") == 0 ? 1 : 0;
    return n;
  };
  const size_t before = non_watch_requests();
  auto q = view->get_queue("default");
  ASSERT_TRUE(q.ok()) << q.error();
  EXPECT_EQ((**q)["status"]["state"], "Open");
  EXPECT_FALSE((**q)["metadata"].contains("managedFields"));
  EXPECT_EQ(names(view->list_queues()), (std::vector<std::string>{"default", "root"}));
  EXPECT_EQ(non_watch_requests(), before) << server.describe_requests();
}

TEST_F(InformerClusterViewTest, ChildQueuesComeFromTheParentIndex) {
  queues.add(queue("root"));
  queues.add(queue("a", "root"));
  queues.add(queue("b", "root"));
  queues.add(queue("a1", "a"));
  start();
  EXPECT_EQ(names(view->child_queues("root")), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(names(view->child_queues("a")), std::vector<std::string>{"a1"});
  EXPECT_TRUE(view->child_queues("a1").empty());
  EXPECT_TRUE(view->child_queues("").empty());  // an empty parent is not indexed
}

TEST_F(InformerClusterViewTest, WatchedChangesReachTheIndex) {
  queues.add(queue("root"));
  start();
  auto watch = queues.next_watch();
  ASSERT_TRUE(watch);
  watch->write_event("ADDED", queue("c", "root", "11"));
  ASSERT_TRUE(test::wait_until([&] { return view->child_queues("root").size() == 1; }));
  watch->write_event("MODIFIED", queue("c", "other", "12"));
  ASSERT_TRUE(test::wait_until([&] { return view->child_queues("root").empty(); }));
  EXPECT_EQ(names(view->child_queues("other")), std::vector<std::string>{"c"});
}

TEST_F(InformerClusterViewTest, CacheMissFallsBackToALiveGet) {
  start();
  server.handle("GET", std::string(test::kQueuesPath) + "/fresh",
                [](const Request&) { return Response::json(200, queue("fresh")); });
  auto q = view->get_queue("fresh");
  ASSERT_TRUE(q.ok()) << q.error();
  EXPECT_EQ((**q)["metadata"]["name"], "fresh");
  EXPECT_FALSE((**q)["metadata"].contains("managedFields"));
}

TEST_F(InformerClusterViewTest, QueueMissingEverywhereGivesTheListerMessage) {
  start();
  auto q = view->get_queue("q1");
  ASSERT_FALSE(q.ok());
  EXPECT_EQ(q.error(), "queue.scheduling.volcano.sh \"q1\" not found");
  auto empty = view->get_queue("");
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error(), "queue.scheduling.volcano.sh \"\" not found");
}

TEST_F(InformerClusterViewTest, FailedLiveReadSaysWhy) {
  start();
  server.handle("GET", std::string(test::kQueuesPath) + "/q2", [](const Request&) {
    return Response::error(403, "Forbidden", "queues.scheduling.volcano.sh \"q2\" is forbidden");
  });
  auto q = view->get_queue("q2");
  ASSERT_FALSE(q.ok());
  EXPECT_TRUE(
      q.error().starts_with("queue.scheduling.volcano.sh \"q2\" not found in the cache, "
                            "and reading it from the API server failed: "))
      << q.error();
  EXPECT_NE(q.error().find("is forbidden"), std::string::npos) << q.error();
}

TEST_F(InformerClusterViewTest, NamespacesAreLiveReads) {
  start();
  server.handle("GET", "/api/v1/namespaces/team-a", [](const Request&) {
    return Response::json(
        200,
        {{"metadata",
          {{"name", "team-a"}, {"annotations", {{"scheduling.volcano.sh/queue-name", "qa"}}}}}});
  });
  server.handle("GET", "/api/v1/namespaces/gone", [](const Request&) {
    return Response::error(404, "NotFound", "namespaces \"gone\" not found");
  });
  auto ns = view->get_namespace("team-a");
  ASSERT_TRUE(ns.ok()) << ns.error();
  EXPECT_EQ((*ns)["metadata"]["annotations"]["scheduling.volcano.sh/queue-name"], "qa");
  auto gone = view->get_namespace("gone");
  ASSERT_FALSE(gone.ok());
  EXPECT_EQ(gone.error(), "namespaces \"gone\" not found");
  EXPECT_EQ(view->get_namespace("").error(), "resource name may not be empty");
}

}  // namespace
}  // namespace vc::webhook::app

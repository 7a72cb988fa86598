#include "webhook/app/informer_cluster_view.h"

#include <gtest/gtest.h>

#include <future>

#include "common/testing/metrics.h"
#include "webhook/admission/scheduling/admit_test_util.h"
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

using Clock = std::chrono::steady_clock;
constexpr const char* kNamespacesPath = "/api/v1/namespaces";

json namespace_object(const std::string& name, json annotations = nullptr) {
  json ns = {{"apiVersion", "v1"},
             {"kind", "Namespace"},
             {"metadata", {{"name", name}, {"resourceVersion", "3"}, {"uid", "uid-" + name}}},
             {"spec", {{"finalizers", json::array({"kubernetes"})}}}};
  if (!annotations.is_null()) ns["metadata"]["annotations"] = std::move(annotations);
  return ns;
}

double lookups(const std::string& resource, const std::string& result) {
  return vc::testing::metric_value("vc_webhook_live_lookups_total{resource=\"" + resource +
                                   "\",result=\"" + result + "\"}");
}

class InformerClusterViewTest : public ::testing::Test {
 protected:
  // with_namespaces: also a synced Namespace informer, as the process runs one for
  // /podgroups/mutate.
  void start(bool with_namespaces = false, LiveLookupOptions live = {}) {
    informer = std::make_shared<kube::cache::Informer>(client, kube::resources::queues);
    add_queue_parent_index(*informer);
    informer->start();
    ASSERT_TRUE(informer->wait_for_sync({}, Clock::now() + 10s));
    if (with_namespaces) {
      namespace_informer = std::make_shared<kube::cache::Informer>(
          client, kube::resources::namespaces, namespace_informer_options());
      namespace_informer->start();
      ASSERT_TRUE(namespace_informer->wait_for_sync({}, Clock::now() + 10s));
    }
    view = std::make_unique<InformerClusterView>(informer, namespace_informer,
                                                 std::make_shared<LiveLookups>(client, live));
  }

  // Requests other than watches: the informers' own watches may open at any moment after the
  // sync; only other requests (a live GET or a LIST from the view) mean the cache was bypassed.
  size_t non_watch_requests() {
    size_t n = 0;
    for (const auto& r : server.requests()) n += r.query.count("watch") == 0 ? 1 : 0;
    return n;
  }
  size_t requests_to(const std::string& path) {
    size_t n = 0;
    for (const auto& r : server.requests()) n += r.path == path ? 1 : 0;
    return n;
  }

  vc::testing::FakeApiServer server;
  test::FakeQueues queues{server};
  test::FakeCollection namespaces{server, kNamespacesPath, "NamespaceList", "v1"};
  kube::Client client{server.config()};
  std::shared_ptr<kube::cache::Informer> informer;
  std::shared_ptr<kube::cache::Informer> namespace_informer;
  std::unique_ptr<InformerClusterView> view;
};

TEST_F(InformerClusterViewTest, CachedQueuesAreServedWithoutApiCalls) {
  queues.add(queue("default"));
  queues.add(queue("root"));
  start();
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

TEST_F(InformerClusterViewTest, WithoutANamespaceInformerNamespacesAreLiveReads) {
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

TEST_F(InformerClusterViewTest, MissingQueueIsReadOnceThenRememberedAsMissing) {
  start();
  const double cached_before = lookups("queues", "negative_cached");
  const std::string path = std::string(test::kQueuesPath) + "/q1";
  for (int i = 0; i < 5; ++i) {
    auto q = view->get_queue("q1");
    ASSERT_FALSE(q.ok());
    EXPECT_EQ(q.error(), "queue.scheduling.volcano.sh \"q1\" not found");  // Volcano's text
  }
  EXPECT_EQ(requests_to(path), 1u) << server.describe_requests();
  EXPECT_EQ(lookups("queues", "negative_cached") - cached_before, 4);
  // A queue that appears in the informer meanwhile is found there at once.
  auto watch = queues.next_watch();
  ASSERT_TRUE(watch);
  watch->write_event("ADDED", queue("q1", "", "11"));
  ASSERT_TRUE(test::wait_until([&] { return view->get_queue("q1").ok(); }));
  EXPECT_EQ(requests_to(path), 1u) << server.describe_requests();
}

TEST_F(InformerClusterViewTest, NegativeEntriesExpireAndAreBounded) {
  Clock::time_point now = Clock::now();
  auto live = std::make_shared<LiveLookups>(
      client, LiveLookupOptions{.negative_ttl = 10s, .negative_capacity = 2}, [&] { return now; });
  const auto reads = [&](const std::string& name) {
    return requests_to(std::string(test::kQueuesPath) + "/" + name);
  };
  for (const char* name : {"a", "b", "a", "b"}) {
    EXPECT_EQ(live->get(kube::resources::queues, name).outcome, LiveLookups::Outcome::NotFound);
  }
  EXPECT_EQ(reads("a"), 1u);
  EXPECT_EQ(reads("b"), 1u);
  live->get(kube::resources::queues, "c");  // full: "a", the oldest, is forgotten
  live->get(kube::resources::queues, "a");
  EXPECT_EQ(reads("a"), 2u);
  now += 11s;  // every entry has expired
  live->get(kube::resources::queues, "c");
  EXPECT_EQ(reads("c"), 2u) << server.describe_requests();
}

TEST_F(InformerClusterViewTest, SlowApiServerIsAnsweredWithinTheLiveLookupTimeout) {
  start();
  server.handle("GET", std::string(test::kQueuesPath) + "/slow", [](const Request&) {
    auto r = Response::json(200, queue("slow"));
    r.delay = 5s;
    return r;
  });
  const double timeouts_before = lookups("queues", "timeout");
  const auto t0 = Clock::now();
  auto q = view->get_queue("slow");
  const auto took = Clock::now() - t0;
  EXPECT_LT(took, 2500ms);
  EXPECT_GE(took, 1900ms);  // the default deadline, 2 s, was what ended it
  ASSERT_FALSE(q.ok());
  EXPECT_TRUE(
      q.error().starts_with("queue.scheduling.volcano.sh \"slow\" not found in the cache, "
                            "and reading it from the API server failed: "))
      << q.error();
  EXPECT_EQ(lookups("queues", "timeout") - timeouts_before, 1);
}

TEST_F(InformerClusterViewTest, EmptyRateLimiterFailsFastWithoutARequest) {
  kube::ClientOptions one_token;
  one_token.qps = 0.01;
  one_token.burst = 1;
  kube::Client limited{server.config(), one_token};
  LiveLookups live(limited, {});
  ASSERT_EQ(live.get(kube::resources::queues, "first").outcome, LiveLookups::Outcome::NotFound);
  const double throttled_before = lookups("queues", "throttled");
  const auto t0 = Clock::now();
  auto answer = live.get(kube::resources::queues, "second");
  EXPECT_LT(Clock::now() - t0, 100ms);
  EXPECT_EQ(answer.outcome, LiveLookups::Outcome::Failed);
  EXPECT_NE(answer.why.find("rate limiter"), std::string::npos) << answer.why;
  EXPECT_EQ(requests_to(std::string(test::kQueuesPath) + "/second"), 0u);
  EXPECT_EQ(lookups("queues", "throttled") - throttled_before, 1);
}

TEST_F(InformerClusterViewTest, LookupsBeyondTheConcurrencyLimitAreNotMade) {
  server.handle("GET", std::string(test::kQueuesPath) + "/stuck", [](const Request&) {
    Response r;
    r.stall = true;
    return r;
  });
  start(false, LiveLookupOptions{.timeout = 1s, .concurrency = 1});
  auto first = std::async(std::launch::async, [&] { return view->get_queue("stuck"); });
  ASSERT_TRUE(test::wait_until(
      [&] { return requests_to(std::string(test::kQueuesPath) + "/stuck") == 1; }));
  const auto t0 = Clock::now();
  auto second = view->get_queue("other");
  EXPECT_LT(Clock::now() - t0, 100ms);
  ASSERT_FALSE(second.ok());
  EXPECT_NE(second.error().find("1 live reads already in flight (--live-lookup-concurrency)"),
            std::string::npos)
      << second.error();
  EXPECT_EQ(requests_to(std::string(test::kQueuesPath) + "/other"), 0u);
  EXPECT_FALSE(first.get().ok());
}

TEST_F(InformerClusterViewTest, ZeroConcurrencyNeverReadsLive) {
  start(false, LiveLookupOptions{.concurrency = 0});
  auto q = view->get_queue("q1");
  ASSERT_FALSE(q.ok());
  EXPECT_NE(q.error().find("--live-lookup-concurrency=0"), std::string::npos) << q.error();
  EXPECT_EQ(requests_to(std::string(test::kQueuesPath) + "/q1"), 0u);
}

TEST_F(InformerClusterViewTest, NamespacesComeFromTheInformerKeepingOnlyTheQueueAnnotation) {
  namespaces.add(namespace_object(
      "team-a", {{"scheduling.volcano.sh/queue-name", "qa"}, {"owner", "someone"}}));
  namespaces.add(namespace_object("team-b"));
  start(/*with_namespaces=*/true);
  auto a = view->get_namespace("team-a");
  ASSERT_TRUE(a.ok()) << a.error();
  EXPECT_EQ(*a, json({{"metadata",
                       {{"name", "team-a"},
                        {"annotations", {{"scheduling.volcano.sh/queue-name", "qa"}}}}}}));
  auto b = view->get_namespace("team-b");
  ASSERT_TRUE(b.ok()) << b.error();
  EXPECT_EQ(*b, json({{"metadata", {{"name", "team-b"}}}}));
  EXPECT_EQ(requests_to(std::string(kNamespacesPath) + "/team-a"), 0u);
  EXPECT_EQ(requests_to(std::string(kNamespacesPath) + "/team-b"), 0u);
}

TEST_F(InformerClusterViewTest, NamespaceMissingFromTheInformerIsReadLiveOnce) {
  server.handle("GET", std::string(kNamespacesPath) + "/fresh", [](const Request&) {
    return Response::json(200,
                          namespace_object("fresh", {{"scheduling.volcano.sh/queue-name", "qf"}}));
  });
  start(/*with_namespaces=*/true);
  auto fresh = view->get_namespace("fresh");  // created after the informer's last event
  ASSERT_TRUE(fresh.ok()) << fresh.error();
  EXPECT_EQ((*fresh)["metadata"]["annotations"]["scheduling.volcano.sh/queue-name"], "qf");
  for (int i = 0; i < 3; ++i) {
    auto gone = view->get_namespace("gone");
    ASSERT_FALSE(gone.ok());
    EXPECT_EQ(gone.error(), "namespaces \"gone\" not found");
  }
  EXPECT_EQ(requests_to(std::string(kNamespacesPath) + "/gone"), 1u) << server.describe_requests();
}

TEST_F(InformerClusterViewTest, PodGroupMutateMakesNoApiCallPerRequest) {
  namespaces.add(namespace_object("team-a", {{"scheduling.volcano.sh/queue-name", "qa"}}));
  start(/*with_namespaces=*/true);
  const size_t before = non_watch_requests();
  const json podgroup = {{"apiVersion", "scheduling.volcano.sh/v1beta1"},
                         {"kind", "PodGroup"},
                         {"metadata", {{"name", "pg"}, {"namespace", "team-a"}}},
                         {"spec", {{"minMember", 1}, {"queue", "default"}}}};
  for (int i = 0; i < 20; ++i) {
    auto response = scheduling::admit_podgroups_mutate(
        scheduling::testing::make_request(scheduling::kPodGroupsResource, "CREATE", podgroup),
        *view, AdmissionOptions{});
    ASSERT_TRUE(response.allowed);
    ASSERT_EQ(response.patch,
              json::array({{{"op", "add"}, {"path", "/spec/queue"}, {"value", "qa"}}}));
  }
  EXPECT_EQ(non_watch_requests(), before) << server.describe_requests();
}

}  // namespace
}  // namespace vc::webhook::app

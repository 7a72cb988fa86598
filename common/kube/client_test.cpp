// The REST verbs against the fake API server: what goes on the wire, and what comes back.

#include <gtest/gtest.h>

#include <atomic>

#include "common/kube/client.h"
#include "common/metrics/registry.h"
#include "common/testing/fake_apiserver.h"

namespace vc::kube {
namespace {

using namespace std::chrono_literals;
using vc::testing::FakeApiServer;
using vc::testing::Reply;
using vc::testing::Request;
using vc::testing::Response;

json pod(const std::string& name, const std::string& rv = "1") {
  return {{"apiVersion", "v1"},
          {"kind", "Pod"},
          {"metadata", {{"name", name}, {"namespace", "ns"}, {"resourceVersion", rv}}}};
}

class ClientTest : public ::testing::Test {
 protected:
  ClientOptions options() {
    ClientOptions o;
    o.qps = 0;
    o.user_agent = "vc-controller-manager/test";
    o.retry_base_delay = 10ms;
    return o;
  }

  // The single logged request; fails the test when there is not exactly one.
  Request only_request() {
    auto log = server_.requests();
    EXPECT_EQ(log.size(), 1u) << server_.describe_requests();
    return log.empty() ? Request{} : log.front();
  }

  FakeApiServer server_;
  Client client_{server_.config("secret-token"), options()};
};

TEST_F(ClientTest, GetSendsPathAndHeadersAndDecodesTheObject) {
  server_.handle("GET", "/api/v1/namespaces/ns/pods/p1",
                 [](const Request&) { return Response::json(200, pod("p1")); });
  auto r = client_.get(resources::pods, "ns", "p1");
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ((*r)["metadata"]["name"], "p1");
  auto req = only_request();
  EXPECT_EQ(req.method, "GET");
  EXPECT_EQ(req.header("user-agent"), "vc-controller-manager/test");
  EXPECT_EQ(req.header("authorization"), "Bearer secret-token");
  EXPECT_EQ(req.header("accept"), "application/json");
  EXPECT_EQ(req.header("host"), "127.0.0.1:" + std::to_string(server_.port()));
  EXPECT_TRUE(req.body.empty());
}

TEST_F(ClientTest, GetSubresourceOfClusterScopedResource) {
  server_.handle("GET", "/apis/scheduling.volcano.sh/v1beta1/queues/q1/status", [](const Request&) {
    return Response::json(200, {{"kind", "Queue"}});
  });
  auto r = client_.get(resources::queues, "", "q1", "status");
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ((*r)["kind"], "Queue");
}

TEST_F(ClientTest, ListEncodesEveryQueryParameter) {
  server_.handle("GET", "/apis/batch.volcano.sh/v1alpha1/namespaces/ns/jobs", [](const Request&) {
    return Response::json(200, {{"kind", "JobList"}, {"items", json::array()}});
  });
  ListOptions o;
  o.label_selector = "app=x,tier in (a,b)";
  o.field_selector = "status.phase!=Running";
  o.limit = 500;
  o.continue_token = "abc/def+==";
  o.resource_version = "0";
  o.resource_version_match = "NotOlderThan";
  auto r = client_.list(resources::jobs, "ns", o);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  auto req = only_request();
  EXPECT_EQ(req.param("labelSelector"), "app=x,tier in (a,b)");
  EXPECT_EQ(req.param("fieldSelector"), "status.phase!=Running");
  EXPECT_EQ(req.param("limit"), "500");
  EXPECT_EQ(req.param("continue"), "abc/def+==");
  EXPECT_EQ(req.param("resourceVersion"), "0");
  EXPECT_EQ(req.param("resourceVersionMatch"), "NotOlderThan");
  EXPECT_EQ(req.target.find(' '), std::string::npos) << req.target;
}

TEST_F(ClientTest, ListWithoutOptionsSendsNoQuery) {
  server_.handle("GET", "/api/v1/pods", [](const Request&) {
    return Response::json(200, {{"items", json::array()}});
  });
  ASSERT_TRUE(client_.list(resources::pods, "").ok());
  EXPECT_EQ(only_request().target, "/api/v1/pods");
}

TEST_F(ClientTest, CreatePostsTheObjectAsJson) {
  server_.handle("POST", "/api/v1/namespaces/ns/pods", [](const Request& r) {
    auto obj = r.json();
    obj["metadata"]["uid"] = "u1";
    return Response::json(201, obj);
  });
  auto r = client_.create(resources::pods, "ns", pod("p1"));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ((*r)["metadata"]["uid"], "u1");
  auto req = only_request();
  EXPECT_EQ(req.header("content-type"), "application/json");
  EXPECT_EQ(req.json(), pod("p1"));
}

TEST_F(ClientTest, CreateWithReplyReadsBuildsOnlyThoseMembersOfTheReply) {
  server_.handle("POST", "/api/v1/namespaces/ns/pods", [](const Request& r) {
    auto obj = r.json();
    obj["metadata"]["uid"] = "u1";
    obj["status"] = {{"phase", "Pending"}, {"qosClass", "BestEffort"}};
    return Response::json(201, obj);
  });
  auto r = client_.create(resources::pods, "ns", pod("p1"),
                          fastjson::MemberFilter::only({"metadata.uid", "status.phase"}));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(*r, json::parse(R"({"metadata":{"uid":"u1"},"status":{"phase":"Pending"}})"));
  EXPECT_EQ(only_request().json(), pod("p1"));  // the request itself is whole
}

TEST_F(ClientTest, CreateTakesTheNamespaceFromTheObjectWhenNoneIsGiven) {
  server_.handle("POST", "/api/v1/namespaces/ns/pods",
                 [](const Request& r) { return Response::json(201, r.json()); });
  ASSERT_TRUE(client_.create(resources::pods, "", pod("p1")).ok()) << server_.describe_requests();
}

TEST_F(ClientTest, UpdatePutsToTheObjectAndUpdateStatusToItsStatus) {
  server_.handle("PUT", "/api/v1/namespaces/ns/pods/p1",
                 [](const Request& r) { return Response::json(200, r.json()); });
  server_.handle("PUT", "/api/v1/namespaces/ns/pods/p1/status",
                 [](const Request& r) { return Response::json(200, r.json()); });
  ASSERT_TRUE(client_.update(resources::pods, "ns", pod("p1", "7")).ok());
  ASSERT_TRUE(client_.update_status(resources::pods, "ns", pod("p1", "8")).ok());
  auto log = server_.requests();
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(log[0].path, "/api/v1/namespaces/ns/pods/p1");
  EXPECT_EQ(log[0].json()["metadata"]["resourceVersion"], "7");
  EXPECT_EQ(log[0].header("content-type"), "application/json");
  EXPECT_EQ(log[1].path, "/api/v1/namespaces/ns/pods/p1/status");
  EXPECT_EQ(log[1].json()["metadata"]["resourceVersion"], "8");
}

TEST_F(ClientTest, UpdateWithoutANameFailsWithoutARequest) {
  auto r = client_.update(resources::pods, "ns", json{{"metadata", json::object()}});
  EXPECT_TRUE(r.is(ErrorKind::BadRequest));
  EXPECT_TRUE(server_.requests().empty());
}

TEST_F(ClientTest, PatchSendsTheRightContentTypeForEachKind) {
  server_.handle("PATCH", "/apis/scheduling.volcano.sh/v1beta1/namespaces/ns/podgroups/pg",
                 [](const Request&) {
                   return Response::json(200, {{"kind", "PodGroup"}});
                 });
  server_.handle("PATCH", "/apis/scheduling.volcano.sh/v1beta1/namespaces/ns/podgroups/pg/status",
                 [](const Request&) {
                   return Response::json(200, {{"kind", "PodGroup"}});
                 });
  ASSERT_TRUE(
      client_
          .patch(resources::podgroups, "ns", "pg", PatchType::Merge, R"({"spec":{"minMember":3}})")
          .ok());
  ASSERT_TRUE(client_
                  .patch(resources::podgroups, "ns", "pg", PatchType::Json,
                         R"([{"op":"replace","path":"/spec/minMember","value":3}])",
                         {.field_manager = "", .force = false, .subresource = "status"})
                  .ok());
  ASSERT_TRUE(
      client_
          .patch(resources::podgroups, "ns", "pg", PatchType::Apply,
                 R"({"apiVersion":"scheduling.volcano.sh/v1beta1","kind":"PodGroup"})",
                 {.field_manager = "vc-controller-manager", .force = true, .subresource = ""})
          .ok());
  auto log = server_.requests();
  ASSERT_EQ(log.size(), 3u) << server_.describe_requests();
  EXPECT_EQ(log[0].header("content-type"), "application/merge-patch+json");
  EXPECT_EQ(log[0].body, R"({"spec":{"minMember":3}})");
  EXPECT_FALSE(log[0].has_param("fieldManager"));
  EXPECT_EQ(log[1].header("content-type"), "application/json-patch+json");
  EXPECT_EQ(log[1].path, "/apis/scheduling.volcano.sh/v1beta1/namespaces/ns/podgroups/pg/status");
  EXPECT_EQ(log[2].header("content-type"), "application/apply-patch+yaml");
  EXPECT_EQ(log[2].param("fieldManager"), "vc-controller-manager");
  EXPECT_EQ(log[2].param("force"), "true");
}

TEST_F(ClientTest, ApplyWithoutAFieldManagerFailsWithoutARequest) {
  auto r = client_.patch(resources::pods, "ns", "p", PatchType::Apply, "{}");
  EXPECT_TRUE(r.is(ErrorKind::BadRequest));
  EXPECT_TRUE(server_.requests().empty());
}

TEST_F(ClientTest, RemoveSendsDeleteOptions) {
  server_.handle("DELETE", "/api/v1/namespaces/ns/pods/p1", [](const Request&) {
    return Response::json(200, {{"kind", "Status"}, {"status", "Success"}});
  });
  DeleteOptions o;
  o.propagation_policy = "Foreground";
  o.precondition_uid = "uid-1";
  o.precondition_resource_version = "42";
  o.grace_period_seconds = 0;
  auto r = client_.remove(resources::pods, "ns", "p1", o);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  auto req = only_request();
  EXPECT_EQ(req.method, "DELETE");
  EXPECT_EQ(req.header("content-type"), "application/json");
  json expected = {{"kind", "DeleteOptions"},
                   {"apiVersion", "v1"},
                   {"propagationPolicy", "Foreground"},
                   {"gracePeriodSeconds", 0},
                   {"preconditions", {{"uid", "uid-1"}, {"resourceVersion", "42"}}}};
  EXPECT_EQ(req.json(), expected);
}

TEST_F(ClientTest, RemoveWithoutOptionsSendsNoBody) {
  server_.handle("DELETE", "/api/v1/namespaces/ns/pods/p1",
                 [](const Request&) { return Response::json(200, pod("p1")); });
  ASSERT_TRUE(client_.remove(resources::pods, "ns", "p1").ok());
  auto req = only_request();
  EXPECT_TRUE(req.body.empty());
  EXPECT_EQ(req.header("content-type"), "");
}

TEST_F(ClientTest, NotFoundIsReturnedDecoded) {
  server_.handle("GET", "/api/v1/namespaces/ns/pods/p1", [](const Request&) {
    return Response::error(404, "NotFound", "pods \"p1\" not found");
  });
  auto r = client_.get(resources::pods, "ns", "p1");
  ASSERT_TRUE(r.is(ErrorKind::NotFound));
  EXPECT_EQ(r.error().message, "pods \"p1\" not found");
  EXPECT_EQ(server_.requests().size(), 1u);
}

TEST_F(ClientTest, ConflictIsReturnedAndNotRetried) {
  server_.handle("PUT", "/api/v1/namespaces/ns/pods/p1", [](const Request&) {
    return Response::error(409, "Conflict", "the object has been modified");
  });
  auto r = client_.update(resources::pods, "ns", pod("p1"));
  EXPECT_TRUE(r.is(ErrorKind::Conflict));
  EXPECT_EQ(server_.requests().size(), 1u) << server_.describe_requests();
}

TEST_F(ClientTest, AlreadyExistsIsReturnedAndNotRetried) {
  server_.handle("POST", "/api/v1/namespaces/ns/pods", [](const Request&) {
    return Response::error(409, "AlreadyExists", "pods \"p1\" already exists");
  });
  EXPECT_TRUE(client_.create(resources::pods, "ns", pod("p1")).is(ErrorKind::AlreadyExists));
  EXPECT_EQ(server_.requests().size(), 1u);
}

TEST_F(ClientTest, NonJsonSuccessBodyIsAnError) {
  server_.handle("GET", "/api/v1/namespaces/ns/pods/p1",
                 [](const Request&) { return Response::text(200, "not json"); });
  auto r = client_.get(resources::pods, "ns", "p1");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::Other);
}

TEST_F(ClientTest, PagedListOf10000ObjectsIn500ObjectPages) {
  static constexpr int kTotal = 10000;
  static constexpr int kPage = 500;
  std::vector<json> all;
  all.reserve(kTotal);
  for (int i = 0; i < kTotal; ++i) {
    json p = pod("pod-" + std::to_string(i));
    p["spec"] = {{"containers", {{{"name", "c"}, {"image", "busybox"}}}}};
    all.push_back(std::move(p));
  }
  server_.handle("GET", "/api/v1/pods", [&all](const Request& r) {
    const int limit = std::stoi(r.param("limit"));
    const int start = r.param("continue").empty() ? 0 : std::stoi(r.param("continue"));
    json list = {{"kind", "PodList"}, {"metadata", {{"resourceVersion", "99"}}}};
    json& items = list["items"] = json::array();
    const int end = std::min(start + limit, kTotal);
    for (int i = start; i < end; ++i) items.push_back(all[i]);
    if (end < kTotal) list["metadata"]["continue"] = std::to_string(end);
    return Response::json(200, list);
  });
  std::vector<std::string> names;
  names.reserve(kTotal);
  ListOptions o;
  o.limit = kPage;
  int pages = 0;
  while (true) {
    auto page = client_.list(resources::pods, "", o);
    ASSERT_TRUE(page.ok()) << page.error().describe();
    ++pages;
    for (auto& item : (*page)["items"]) names.push_back(item["metadata"]["name"]);
    auto cont = page->at("metadata").value("continue", "");
    if (cont.empty()) break;
    o.continue_token = cont;
  }
  EXPECT_EQ(pages, kTotal / kPage);
  ASSERT_EQ(names.size(), static_cast<std::size_t>(kTotal));
  EXPECT_EQ(names.front(), "pod-0");
  EXPECT_EQ(names.back(), "pod-9999");
  EXPECT_EQ(server_.connections_accepted(), 1);
}

TEST_F(ClientTest, ListEachHandsOverItemsAndReturnsTheListWithoutThem) {
  server_.handle("GET", "/api/v1/pods", [](const Request&) {
    json list = {{"kind", "PodList"},
                 {"metadata", {{"resourceVersion", "77"}, {"continue", "next"}}},
                 {"items", {pod("a"), pod("b"), pod("c")}}};
    list["items"][1]["metadata"]["labels"] = {{"items", "not-a-list-key"}};
    return Response::json(200, list);
  });
  std::vector<std::string> names;
  auto r = client_.list_each(resources::pods, "", {},
                             [&](json&& item) { names.push_back(item["metadata"]["name"]); });
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(names, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ((*r)["metadata"]["resourceVersion"], "77");
  EXPECT_EQ((*r)["metadata"]["continue"], "next");
  EXPECT_TRUE((*r)["items"].empty());
}

TEST_F(ClientTest, ListEachReportsAnUndecodableBody) {
  server_.handle("GET", "/api/v1/pods",
                 [](const Request&) { return Response::text(200, R"({"items":[{"a":1},)"); });
  int items = 0;
  auto r = client_.list_each(resources::pods, "", {}, [&](json&&) { ++items; });
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::Other);
}

TEST_F(ClientTest, SequentialRequestsReuseOneConnection) {
  server_.handle("GET", "/api/v1/namespaces/ns/pods/p1",
                 [](const Request&) { return Response::json(200, pod("p1")); });
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(client_.get(resources::pods, "ns", "p1").ok()) << i;
  EXPECT_EQ(server_.connections_accepted(), 1);
  for (const auto& r : server_.requests()) EXPECT_EQ(r.connection_id, 1);
}

TEST_F(ClientTest, ConnectionClosedByTheServerWhileIdleIsReplacedTransparently) {
  server_.handle("GET", "/api/v1/namespaces/ns/pods/p1",
                 [](const Request&) { return Response::json(200, pod("p1")); });
  ASSERT_TRUE(client_.get(resources::pods, "ns", "p1").ok());
  server_.drop_connections();
  ASSERT_TRUE(server_.wait_for_requests(1, 1s));
  auto r = client_.get(resources::pods, "ns", "p1");
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(server_.connections_accepted(), 2);
}

TEST_F(ClientTest, ServerThatClosesAfterEachResponseStillWorks) {
  server_.handle("GET", "/api/v1/namespaces/ns/pods/p1", [](const Request&) {
    auto r = Response::json(200, pod("p1"));
    r.close_connection = true;
    return r;
  });
  for (int i = 0; i < 3; ++i) {
    auto r = client_.get(resources::pods, "ns", "p1");
    ASSERT_TRUE(r.ok()) << r.error().describe();
  }
  EXPECT_EQ(server_.connections_accepted(), 3);
}

TEST_F(ClientTest, ConcurrentCallsFromManyThreadsAllSucceed) {
  server_.handle("GET", "/api/v1/namespaces/ns/pods/p1",
                 [](const Request&) { return Response::json(200, pod("p1")); });
  std::atomic<int> ok{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 10; ++i) ok += client_.get(resources::pods, "ns", "p1").ok();
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(ok.load(), 80);
  EXPECT_LE(server_.connections_accepted(), 8);
}

TEST_F(ClientTest, RequestsAreCountedInClientGoMetrics) {
  server_.handle("GET", "/api/v1/namespaces/ns/pods/p1",
                 [](const Request&) { return Response::json(200, pod("p1")); });
  ASSERT_TRUE(client_.get(resources::pods, "ns", "p1").ok());
  const std::string text = vc::metrics::render_text();
  const std::string host = "127.0.0.1:" + std::to_string(server_.port());
  EXPECT_NE(
      text.find("rest_client_requests_total{code=\"200\",host=\"" + host + "\",method=\"GET\"} 1"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("rest_client_request_duration_seconds_count{verb=\"GET\"}"),
            std::string::npos);
}

}  // namespace
}  // namespace vc::kube

namespace vc::kube {
namespace {

// With own_bucket_group_suffix, Volcano's groups and the core API each have a bucket: at
// qps 0.2 / burst 1 the second request would wait 5 s for a token from a shared bucket, but a
// request to the other bucket's group goes at once. Without the suffix, it waits.
class ClientBucketsTest : public ::testing::Test {
 protected:
  ClientBucketsTest() {
    server_.handle("GET", "/api/v1/namespaces/ns/pods/p1", [](const Request&) {
      return Response::json(200, {{"kind", "Pod"}});
    });
    server_.handle("GET", "/apis/batch.volcano.sh/v1alpha1/namespaces/ns/jobs/j1",
                   [](const Request&) {
                     return Response::json(200, {{"kind", "Job"}});
                   });
  }

  // Seconds taken by a pod GET followed by a Job GET on a fresh client.
  double pod_then_job_seconds(std::string suffix) {
    ClientOptions o;
    o.qps = 0.2;
    o.burst = 1;
    o.own_bucket_group_suffix = std::move(suffix);
    Client client(server_.config("t"), o);
    const auto start = std::chrono::steady_clock::now();
    EXPECT_TRUE(client.get(resources::pods, "ns", "p1").ok());
    EXPECT_TRUE(client.get(resources::jobs, "ns", "j1").ok());
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

  FakeApiServer server_;
};

TEST_F(ClientBucketsTest, VolcanoGroupsDrawFromTheirOwnBucket) {
  EXPECT_LT(pod_then_job_seconds(".volcano.sh"), 2.5);
}

TEST_F(ClientBucketsTest, OneBucketWithoutTheSuffix) {
  EXPECT_GE(pod_then_job_seconds(""), 4.0);
}

}  // namespace
}  // namespace vc::kube

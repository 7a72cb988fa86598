#include "controllers/podgroup/executor.h"

#include <gtest/gtest.h>

#include <map>
#include <mutex>
#include <thread>

#include "common/testing/fake_apiserver.h"

namespace vc::controllers::podgroup {
namespace {

using nlohmann::json;
using vc::testing::FakeApiServer;
using vc::testing::Reply;
using vc::testing::Request;
using vc::testing::Response;

constexpr const char* kPodGroups = "/apis/scheduling.volcano.sh/v1beta1/namespaces/ns/podgroups";

// A tiny API server: PodGroups stored by name (create answers AlreadyExists for a taken name),
// pod patches recorded, one ReplicaSet with annotations.
class FakeCluster {
 public:
  FakeCluster() {
    server_.handle("POST", kPodGroups, [this](const Request& r) -> Reply {
      std::lock_guard lock(mu_);
      ++creates_;
      if (create_error_) return *create_error_;
      json pg = r.json();
      const std::string name = pg["metadata"]["name"];
      if (podgroups_.count(name)) {
        return Response::error(409, "AlreadyExists", "podgroups \"" + name + "\" already exists");
      }
      pg["metadata"]["resourceVersion"] = "1";
      podgroups_[name] = pg;
      return Response::json(201, pg);
    });
    server_.handle_prefix("*", std::string(kPodGroups) + "/", [this](const Request& r) -> Reply {
      std::lock_guard lock(mu_);
      const std::string name = r.path.substr(std::string(kPodGroups).size() + 1);
      auto it = podgroups_.find(name);
      if (it == podgroups_.end()) return Response::error(404, "NotFound", "not found");
      if (r.method == "GET") return Response::json(200, it->second);
      if (r.method == "PUT") {
        ++updates_;
        it->second = r.json();
        return Response::json(200, it->second);
      }
      if (r.method == "DELETE") {
        podgroups_.erase(it);
        return Response::json(200, {{"kind", "Status"}, {"status", "Success"}});
      }
      return Response::error(405, "MethodNotAllowed", "");
    });
    server_.handle_prefix("PATCH", "/api/v1/namespaces/ns/pods/",
                          [this](const Request& r) -> Reply {
                            std::lock_guard lock(mu_);
                            patches_.push_back({r.path, r.header("content-type"), r.body});
                            return Response::json(200, json::object());
                          });
    server_.handle("GET", "/apis/apps/v1/namespaces/ns/replicasets/web-abc", [](const Request&) {
      return Response::json(200, {{"metadata",
                                   {{"name", "web-abc"},
                                    {"annotations",
                                     {{"scheduling.volcano.sh/group-min-member", "2"},
                                      {"volcano.sh/from-owner", "yes"}}}}}});
    });
  }

  kube::Config config() { return server_.config(); }
  struct Patch {
    std::string path, content_type, body;
  };
  std::vector<Patch> patches() {
    std::lock_guard lock(mu_);
    return patches_;
  }
  std::map<std::string, json> podgroups() {
    std::lock_guard lock(mu_);
    return podgroups_;
  }
  int creates() {
    std::lock_guard lock(mu_);
    return creates_;
  }
  int updates() {
    std::lock_guard lock(mu_);
    return updates_;
  }
  void fail_creates(Response r) {
    std::lock_guard lock(mu_);
    create_error_ = std::move(r);
  }

 private:
  FakeApiServer server_;
  std::mutex mu_;
  std::map<std::string, json> podgroups_;
  std::vector<Patch> patches_;
  std::optional<Response> create_error_;
  int creates_ = 0;
  int updates_ = 0;
};

std::shared_ptr<views::PodView> rs_pod(const std::string& name, const std::string& uid) {
  return views::make_pod_view(
      {{"metadata",
        {{"name", name},
         {"namespace", "ns"},
         {"uid", uid},
         {"ownerReferences",
          {{{"apiVersion", "apps/v1"},
            {"kind", "ReplicaSet"},
            {"name", "web-abc"},
            {"uid", "rs-uid"},
            {"controller", true}}}}}},
       {"spec",
        {{"schedulerName", "volcano"},
         {"containers", {{{"name", "c"}, {"resources", {{"requests", {{"cpu", "1"}}}}}}}}}}});
}

class ExecutorTest : public ::testing::Test {
 protected:
  FakeCluster cluster_;
  kube::Client client_{cluster_.config()};
  ControllerOptions options_;
  Executor executor_{client_, options_};
};

TEST_F(ExecutorTest, CreatesThePodGroupWithOwnerAnnotationsThenJoinsThePod) {
  auto pod = rs_pod("web-1", "u1");
  auto st = executor_.apply(*pod, plan_pod(pod.get(), false, options_.scheduler_names));
  ASSERT_TRUE(st.ok()) << st.error().describe();

  auto pgs = cluster_.podgroups();
  ASSERT_EQ(pgs.count("podgroup-rs-uid"), 1u);
  const json& pg = pgs["podgroup-rs-uid"];
  EXPECT_EQ(pg["spec"]["minMember"], 2);
  EXPECT_EQ(pg["spec"]["minResources"]["cpu"], "2");
  EXPECT_EQ(pg["metadata"]["annotations"]["volcano.sh/from-owner"], "yes");

  auto patches = cluster_.patches();
  ASSERT_EQ(patches.size(), 1u);
  EXPECT_EQ(patches[0].path, "/api/v1/namespaces/ns/pods/web-1");
  EXPECT_EQ(patches[0].content_type, "application/merge-patch+json");
  EXPECT_EQ(
      json::parse(patches[0].body),
      json::parse(
          R"({"metadata":{"annotations":{"scheduling.k8s.io/group-name":"podgroup-rs-uid"}}})"));
}

TEST_F(ExecutorTest, AlreadyExistsStillJoinsThePod) {
  auto pod = rs_pod("web-1", "u1");
  ASSERT_TRUE(executor_.apply(*pod, plan_pod(pod.get(), false, options_.scheduler_names)).ok());
  // A stale cache says the PodGroup is missing again: the create gets AlreadyExists.
  auto st = executor_.apply(*pod, plan_pod(pod.get(), false, options_.scheduler_names));
  ASSERT_TRUE(st.ok()) << st.error().describe();
  EXPECT_EQ(cluster_.creates(), 2);
  EXPECT_EQ(cluster_.podgroups().size(), 1u);
  EXPECT_EQ(cluster_.patches().size(), 2u);
}

TEST_F(ExecutorTest, ConcurrentPodsOfOneOwnerShareOnePodGroup) {
  std::vector<std::thread> threads;
  std::vector<kube::Status> results(6, kube::ok_status());
  for (int i = 0; i < 6; ++i) {
    threads.emplace_back([&, i] {
      auto pod = rs_pod("web-" + std::to_string(i), "u" + std::to_string(i));
      results[i] = executor_.apply(*pod, plan_pod(pod.get(), false, options_.scheduler_names));
    });
  }
  for (auto& t : threads) t.join();
  for (const auto& r : results) EXPECT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(cluster_.podgroups().size(), 1u);
  auto patches = cluster_.patches();
  ASSERT_EQ(patches.size(), 6u);
  for (const auto& p : patches) EXPECT_NE(p.body.find("podgroup-rs-uid"), std::string::npos);
}

TEST_F(ExecutorTest, RejectedCreateIsReturnedAndThePodIsNotJoined) {
  cluster_.fail_creates(Response::error(403, "Forbidden", "queue closed"));
  auto pod = rs_pod("web-1", "u1");
  auto st = executor_.apply(*pod, plan_pod(pod.get(), false, options_.scheduler_names));
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().kind, kube::ErrorKind::Forbidden);
  EXPECT_TRUE(cluster_.patches().empty());
}

TEST_F(ExecutorTest, CachedPodGroupIsJoinedWithoutCreate) {
  auto pod = rs_pod("web-1", "u1");
  ASSERT_TRUE(executor_.apply(*pod, plan_pod(pod.get(), true, options_.scheduler_names)).ok());
  EXPECT_EQ(cluster_.creates(), 0);
  EXPECT_EQ(cluster_.patches().size(), 1u);
}

TEST_F(ExecutorTest, CreateOrUpdateRewritesADifferingPodGroupOnce) {
  auto pod = rs_pod("web-1", "u1");
  ASSERT_TRUE(executor_.create_or_update(*pod).ok());
  EXPECT_EQ(cluster_.creates(), 1);
  EXPECT_EQ(cluster_.updates(), 0);
  // Equal spec, labels and annotations: nothing to write.
  ASSERT_TRUE(executor_.create_or_update(*pod).ok());
  EXPECT_EQ(cluster_.updates(), 0);

  // A pod asking for more makes the rebuilt spec differ: one full update.
  auto bigger = views::make_pod_view(
      {{"metadata",
        {{"name", "web-2"},
         {"namespace", "ns"},
         {"uid", "u2"},
         {"ownerReferences",
          {{{"apiVersion", "apps/v1"},
            {"kind", "ReplicaSet"},
            {"name", "web-abc"},
            {"uid", "rs-uid"},
            {"controller", true}}}}}},
       {"spec",
        {{"schedulerName", "volcano"},
         {"containers", {{{"name", "c"}, {"resources", {{"requests", {{"cpu", "4"}}}}}}}}}}});
  ASSERT_TRUE(executor_.create_or_update(*bigger).ok());
  EXPECT_EQ(cluster_.updates(), 1);
  EXPECT_EQ(cluster_.podgroups()["podgroup-rs-uid"]["spec"]["minResources"]["cpu"], "8");
  EXPECT_EQ(cluster_.patches().size(), 3u);
}

TEST_F(ExecutorTest, DeleteOfAMissingPodGroupSucceeds) {
  EXPECT_TRUE(executor_.delete_podgroup("ns", "podgroup-none").ok());
}

}  // namespace
}  // namespace vc::controllers::podgroup

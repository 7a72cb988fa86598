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

// A tiny API server: PodGroups stored by name (create answers AlreadyExists for a taken name; an
// update must carry the stored resourceVersion, else Conflict, and bumps it), pod patches
// recorded, one ReplicaSet with annotations.
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
        json pg = r.json();
        const json stored_version = it->second["metadata"]["resourceVersion"];
        update_versions_.push_back(pg["metadata"].value("resourceVersion", ""));
        if (pg["metadata"].value("resourceVersion", "") != stored_version) {
          return Response::error(409, "Conflict", "the object has been modified");
        }
        ++updates_;
        pg["metadata"]["resourceVersion"] =
            std::to_string(std::stoi(stored_version.get<std::string>()) + 1);
        it->second = pg;
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
  // The resourceVersion each update carried, in order.
  std::vector<std::string> update_versions() {
    std::lock_guard lock(mu_);
    return update_versions_;
  }
  // A PodGroup the server holds (made by an earlier write the caches may not show yet).
  void seed(const json& pg) {
    std::lock_guard lock(mu_);
    podgroups_[pg["metadata"]["name"].get<std::string>()] = pg;
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
  std::vector<std::string> update_versions_;
  std::optional<Response> create_error_;
  int creates_ = 0;
  int updates_ = 0;
};

std::shared_ptr<views::PodView> rs_pod(const std::string& name, const std::string& uid,
                                       const std::string& cpu = "1") {
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
         {"containers", {{{"name", "c"}, {"resources", {{"requests", {{"cpu", cpu}}}}}}}}}}});
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

// The PodGroup cache lags the create made for a sibling pod of the same owner: the second pod's
// create fails AlreadyExists, which is success; the sibling's PodGroup is kept as made and the
// second pod joins it.
TEST_F(ExecutorTest, CreateOfAPodGroupTheCacheLacksForASiblingToleratesAlreadyExists) {
  auto first = rs_pod("web-1", "u1");
  ASSERT_TRUE(executor_.apply(*first, plan_pod(first.get(), false, options_.scheduler_names)).ok());
  auto sibling = rs_pod("web-2", "u2", "4");
  const PodPlan plan = plan_pod(sibling.get(), false, options_.scheduler_names);
  ASSERT_TRUE(plan.create_podgroup);
  auto st = executor_.apply(*sibling, plan);
  ASSERT_TRUE(st.ok()) << st.error().describe();

  EXPECT_EQ(cluster_.creates(), 2);
  auto pgs = cluster_.podgroups();
  ASSERT_EQ(pgs.size(), 1u);
  EXPECT_EQ(pgs["podgroup-rs-uid"]["spec"]["minResources"]["cpu"], "2");  // the first pod's
  EXPECT_EQ(cluster_.updates(), 0);
  auto patches = cluster_.patches();
  ASSERT_EQ(patches.size(), 2u);
  EXPECT_EQ(patches[1].path, "/api/v1/namespaces/ns/pods/web-2");
  EXPECT_EQ(
      json::parse(patches[1].body),
      json::parse(
          R"({"metadata":{"annotations":{"scheduling.k8s.io/group-name":"podgroup-rs-uid"}}})"));
}

// The pod cache lags our annotation patch, so the pod looks ungrouped again: the repeat is the
// same merge patch of the one annotation, with no resourceVersion, so it cannot conflict and
// changes nothing on a pod that already carries it.
TEST_F(ExecutorTest, RejoiningAPodTheCacheShowsUngroupedSendsTheSameMergePatch) {
  auto pod = rs_pod("web-1", "u1");
  ASSERT_TRUE(executor_.apply(*pod, plan_pod(pod.get(), false, options_.scheduler_names)).ok());
  const PodPlan again = plan_pod(pod.get(), true, options_.scheduler_names);
  ASSERT_TRUE(again.annotate_pod);
  ASSERT_TRUE(executor_.apply(*pod, again).ok());

  EXPECT_EQ(cluster_.creates(), 1);
  auto patches = cluster_.patches();
  ASSERT_EQ(patches.size(), 2u);
  for (const auto& p : patches) {
    EXPECT_EQ(p.path, "/api/v1/namespaces/ns/pods/web-1");
    EXPECT_EQ(p.content_type, "application/merge-patch+json");
    EXPECT_EQ(
        json::parse(p.body),
        json::parse(
            R"({"metadata":{"annotations":{"scheduling.k8s.io/group-name":"podgroup-rs-uid"}}})"));
  }
}

// The workload path does not trust the PodGroup cache: a PodGroup our earlier write made (at
// resourceVersion 7 on the server) is read live and updated at that version, not created again.
TEST_F(ExecutorTest, CreateOrUpdateOfAPodGroupTheCacheLacksUpdatesTheLiveObjectAtItsVersion) {
  cluster_.seed(
      {{"apiVersion", "scheduling.volcano.sh/v1beta1"},
       {"kind", "PodGroup"},
       {"metadata", {{"name", "podgroup-rs-uid"}, {"namespace", "ns"}, {"resourceVersion", "7"}}},
       {"spec", {{"minMember", 1}}}});
  auto pod = rs_pod("web-1", "u1");
  auto st = executor_.create_or_update(*pod);
  ASSERT_TRUE(st.ok()) << st.error().describe();

  EXPECT_EQ(cluster_.creates(), 0);
  EXPECT_EQ(cluster_.update_versions(), std::vector<std::string>{"7"});
  EXPECT_EQ(cluster_.updates(), 1);
  const json pg = cluster_.podgroups()["podgroup-rs-uid"];
  EXPECT_EQ(pg["metadata"]["resourceVersion"], "8");
  EXPECT_EQ(pg["spec"]["minMember"], 2);
  EXPECT_EQ(cluster_.patches().size(), 1u);
}

// A second scale-to-zero event after our delete (or a cache that still shows the PodGroup):
// the repeated delete answers NotFound, which is success.
TEST_F(ExecutorTest, ScalingToZeroAgainAfterOurDeleteSucceeds) {
  auto pod = rs_pod("web-1", "u1");
  ASSERT_TRUE(executor_.apply(*pod, plan_pod(pod.get(), false, options_.scheduler_names)).ok());
  const json scaled_to_zero = {
      {"metadata", {{"namespace", "ns"}, {"name", "web-abc"}, {"uid", "rs-uid"}}},
      {"spec", {{"replicas", 0}}}};
  const WorkloadPlan plan = plan_workload("ReplicaSet", scaled_to_zero);
  ASSERT_EQ(plan.action, WorkloadPlan::Action::DeletePodGroup);
  ASSERT_TRUE(executor_.delete_podgroup(plan.namespace_, plan.podgroup_name).ok());
  EXPECT_TRUE(cluster_.podgroups().empty());
  auto again = executor_.delete_podgroup(plan.namespace_, plan.podgroup_name);
  EXPECT_TRUE(again.ok()) << again.error().describe();
}

}  // namespace
}  // namespace vc::controllers::podgroup

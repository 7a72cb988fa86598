// The executor against an in-process API server: the exact list of writes for a plan, the
// conflict retry of an update, and the status write of nodeCount.
#include "controllers/hypernode/executor.h"

#include <gtest/gtest.h>

#include <atomic>

#include "common/testing/fake_apiserver.h"

namespace vc::controllers::hypernode {
namespace {

using nlohmann::json;
using testing::FakeApiServer;
using testing::Request;
using testing::Response;

constexpr const char* kBase = "/apis/topology.volcano.sh/v1alpha1/hypernodes";

DesiredHyperNode leaf(const std::string& name, std::vector<std::string> nodes) {
  return {.name = name,
          .labels = {{kSourceLabel, "ufm"}},
          .tier = 1,
          .tier_name = "",
          .members = exact_members(std::move(nodes), "Node")};
}

json stored(const std::string& name, const std::string& source, const std::string& rv,
            std::vector<std::string> nodes) {
  json members = json::array();
  for (const auto& n : nodes)
    members.push_back({{"type", "Node"}, {"selector", {{"exactMatch", {{"name", n}}}}}});
  json labels = json::object();
  if (!source.empty()) labels[kSourceLabel] = source;
  return {{"metadata", {{"name", name}, {"resourceVersion", rv}, {"labels", labels}}},
          {"spec", {{"tier", 1}, {"members", members}}}};
}

std::vector<std::string> writes(const FakeApiServer& server) {
  std::vector<std::string> out;
  for (const Request& r : server.requests()) out.push_back(r.method + " " + r.path);
  return out;
}

// Every create refused with AlreadyExists.
void refuse_creates(FakeApiServer& server) {
  server.handle("POST", kBase, [](const Request& r) {
    const std::string name = r.json()["metadata"]["name"];
    return Response::error(409, "AlreadyExists", "hypernodes \"" + name + "\" already exists");
  });
}

// GET leaf-hn-0: owned by "ufm", members [a], resourceVersion 8.
void store_owned_leaf(FakeApiServer& server) {
  server.handle("GET", std::string(kBase) + "/leaf-hn-0", [](const Request&) {
    return Response::json(200, stored("leaf-hn-0", "ufm", "8", {"a"}));
  });
}

// A round whose plan creates leaf-hn-0 with `nodes`.
RoundOutcome create_leaf(const FakeApiServer& server, const std::vector<std::string>& nodes) {
  kube::Client client(server.config());
  ReconcilePlan plan;
  plan.creates = {{.hyper_node = leaf("leaf-hn-0", nodes)}};
  return execute_plan(plan, "ufm", {leaf("leaf-hn-0", nodes)}, client);
}

TEST(ExecutePlan, SendsCreatesUpdatesAndDeletesInOrderAndCountsFailures) {
  FakeApiServer server;
  server.handle("POST", kBase, [](const Request& r) {
    if (r.json()["metadata"]["name"] == "taken") {
      return Response::error(409, "AlreadyExists", "hypernodes \"taken\" already exists");
    }
    return Response::json(201, r.json());
  });
  server.handle("PATCH", std::string(kBase) + "/leaf-hn-1",
                [](const Request& r) { return Response::json(200, r.json()); });
  // "taken" belongs to no source: the create's AlreadyExists stands.
  server.handle("GET", std::string(kBase) + "/taken", [](const Request&) {
    return Response::json(200, stored("taken", "", "3", {"b"}));
  });
  server.handle("DELETE", std::string(kBase) + "/old",
                [](const Request&) { return Response::json(200, json::object()); });
  // DELETE of "gone": unmatched, 404 NotFound, which counts as deleted.
  kube::Client client(server.config());

  ReconcilePlan plan;
  plan.creates = {{.hyper_node = leaf("leaf-hn-0", {"a"})}, {.hyper_node = leaf("taken", {"b"})}};
  plan.updates = {{.name = "leaf-hn-1", .patch = {{"spec", {{"tier", 1}}}}}};
  plan.deletes = {{.name = "old"}, {.name = "gone"}};
  const auto outcome = execute_plan(plan, "ufm", {}, client);
  EXPECT_EQ(outcome.written, 4);
  EXPECT_EQ(outcome.failed, 1);
  EXPECT_EQ(
      writes(server),
      (std::vector<std::string>{
          "POST " + std::string(kBase), "POST " + std::string(kBase),
          "GET " + std::string(kBase) + "/taken", "PATCH " + std::string(kBase) + "/leaf-hn-1",
          "DELETE " + std::string(kBase) + "/old", "DELETE " + std::string(kBase) + "/gone"}));
  const auto requests = server.requests();
  EXPECT_EQ(requests[0].json(), encode_hyper_node(leaf("leaf-hn-0", {"a"})));
  EXPECT_EQ(requests[3].header("content-type"), "application/merge-patch+json");
}

// A round planned before the cache showed the previous round's create names the same HyperNode
// again: the create's AlreadyExists becomes an update to this round's members.
TEST(ExecutePlan, ACreateOfAHyperNodeTheSourceAlreadyOwnsUpdatesIt) {
  FakeApiServer server;
  refuse_creates(server);
  store_owned_leaf(server);
  server.handle("PATCH", std::string(kBase) + "/leaf-hn-0",
                [](const Request& r) { return Response::json(200, r.json()); });
  const auto outcome = create_leaf(server, {"a", "b"});
  EXPECT_EQ(outcome.written, 1);
  EXPECT_EQ(outcome.failed, 0);
  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 3u) << server.describe_requests();
  EXPECT_EQ(requests[1].method, "GET");
  EXPECT_EQ(requests[2].method, "PATCH");
  EXPECT_EQ(requests[2].json()["metadata"]["resourceVersion"], "8");
  EXPECT_EQ(requests[2].json()["spec"]["members"].size(), 2u);
}

TEST(ExecutePlan, ACreateOfAHyperNodeAlreadyAsWantedIsDone) {
  FakeApiServer server;
  refuse_creates(server);
  store_owned_leaf(server);
  const auto outcome = create_leaf(server, {"a"});
  EXPECT_EQ(outcome.written, 1);
  EXPECT_EQ(outcome.failed, 0);
  EXPECT_EQ(server.requests().size(), 2u) << server.describe_requests();
}

TEST(ExecutePlan, ACreateOfAHyperNodeGoneWhenReReadFails) {
  FakeApiServer server;
  refuse_creates(server);  // GET: unmatched, 404
  const auto outcome = create_leaf(server, {"a"});
  EXPECT_EQ(outcome.written, 0);
  EXPECT_EQ(outcome.failed, 1);
}

TEST(ExecutePlan, AConflictingUpdateIsPlannedAgainFromTheServersObject) {
  FakeApiServer server;
  std::atomic<int> patches = 0;
  server.handle("PATCH", std::string(kBase) + "/leaf-hn-0", [&](const Request& r) {
    if (++patches == 1) return Response::error(409, "Conflict", "the object has been modified");
    return Response::json(200, r.json());
  });
  server.handle("GET", std::string(kBase) + "/leaf-hn-0", [](const Request&) {
    return Response::json(200, stored("leaf-hn-0", "ufm", "8", {"x"}));
  });
  kube::Client client(server.config());

  const std::vector<DesiredHyperNode> desired = {leaf("leaf-hn-0", {"a"})};
  ReconcilePlan plan;
  plan.updates = {{.name = "leaf-hn-0", .patch = {{"metadata", {{"resourceVersion", "7"}}}}}};
  const auto outcome = execute_plan(plan, "ufm", desired, client);
  EXPECT_EQ(outcome.written, 1);
  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 3u) << server.describe_requests();
  EXPECT_EQ(requests[1].method, "GET");
  EXPECT_EQ(requests[2].json()["metadata"]["resourceVersion"], "8");
  EXPECT_EQ(requests[2].json()["spec"]["members"][0]["selector"]["exactMatch"]["name"], "a");
}

TEST(ExecutePlan, AConflictOnAHyperNodeNoLongerOwnedStops) {
  FakeApiServer server;
  server.handle("PATCH", std::string(kBase) + "/leaf-hn-0", [](const Request&) {
    return Response::error(409, "Conflict", "the object has been modified");
  });
  server.handle("GET", std::string(kBase) + "/leaf-hn-0", [](const Request&) {
    return Response::json(200, stored("leaf-hn-0", "", "8", {"x"}));
  });
  kube::Client client(server.config());
  ReconcilePlan plan;
  plan.updates = {{.name = "leaf-hn-0", .patch = json::object()}};
  const auto outcome = execute_plan(plan, "ufm", {leaf("leaf-hn-0", {"a"})}, client);
  EXPECT_EQ(outcome.failed, 0);
  EXPECT_EQ(server.requests().size(), 2u) << server.describe_requests();
}

TEST(ExecutePlan, ConflictsGiveUpAfterFiveTries) {
  FakeApiServer server;
  server.handle("PATCH", std::string(kBase) + "/leaf-hn-0", [](const Request&) {
    return Response::error(409, "Conflict", "the object has been modified");
  });
  server.handle("GET", std::string(kBase) + "/leaf-hn-0", [](const Request&) {
    return Response::json(200, stored("leaf-hn-0", "ufm", "8", {"x"}));
  });
  kube::Client client(server.config());
  ReconcilePlan plan;
  plan.updates = {{.name = "leaf-hn-0", .patch = json::object()}};
  const auto outcome = execute_plan(plan, "ufm", {leaf("leaf-hn-0", {"a"})}, client);
  EXPECT_EQ(outcome.failed, 1);
  int patches = 0;
  for (const auto& r : server.requests()) patches += r.method == "PATCH";
  EXPECT_EQ(patches, kUpdateTries);
}

TEST(WriteNodeCount, PatchesTheStatusSubresource) {
  FakeApiServer server;
  server.handle("PATCH", std::string(kBase) + "/hn/status",
                [](const Request& r) { return Response::json(200, r.json()); });
  kube::Client client(server.config());
  const json patch = {{"metadata", {{"resourceVersion", "3"}}}, {"status", {{"nodeCount", 2}}}};
  EXPECT_EQ(write_node_count(client, "hn", patch), "");
  ASSERT_EQ(server.requests().size(), 1u);
  EXPECT_EQ(server.requests()[0].json(), patch);
  EXPECT_NE(write_node_count(client, "missing", patch), "");
}

}  // namespace
}  // namespace vc::controllers::hypernode

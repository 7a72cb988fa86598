// The executor against an in-process API server: the requests of a create, an update and a
// delete, and which errors count as done.
#include "controllers/sharding/executor.h"

#include <gtest/gtest.h>

#include "common/testing/fake_apiserver.h"

namespace vc::controllers::sharding {
namespace {

using nlohmann::json;
using testing::FakeApiServer;
using testing::Request;
using testing::Response;

constexpr const char* kBase = "/apis/shard.volcano.sh/v1alpha1/nodeshards";

TEST(Executor, CreatesUpdatesAndDeletes) {
  FakeApiServer server;
  server.handle("POST", kBase, [](const Request& r) { return Response::json(201, r.json()); });
  server.handle("PUT", std::string(kBase) + "/b",
                [](const Request& r) { return Response::json(200, r.json()); });
  server.handle("DELETE", std::string(kBase) + "/old",
                [](const Request&) { return Response::json(200, json::object()); });
  kube::Client client(server.config());

  EXPECT_EQ(apply_write(client, "a", plan_shard("a", {"n1"}, nullptr)), "");
  const json cached = {{"metadata", {{"name", "b"}, {"resourceVersion", "4"}}},
                       {"spec", {{"nodesDesired", json::array()}}}};
  EXPECT_EQ(apply_write(client, "b", plan_shard("b", {"n2"}, &cached)), "");
  EXPECT_EQ(apply_write(client, "c", plan_shard("c", {}, &cached)), "");  // nothing to write
  EXPECT_EQ(delete_shard(client, "old"), "");
  EXPECT_EQ(delete_shard(client, "gone"), "");  // unmatched: 404, already gone

  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 4u) << server.describe_requests();
  EXPECT_EQ(requests[0].method + " " + requests[0].path, std::string("POST ") + kBase);
  EXPECT_EQ(requests[0].json(), json::parse(R"({"apiVersion":"shard.volcano.sh/v1alpha1",
      "kind":"NodeShard","metadata":{"name":"a"},"spec":{"nodesDesired":["n1"]}})"));
  EXPECT_EQ(requests[1].method + " " + requests[1].path, std::string("PUT ") + kBase + "/b");
  EXPECT_EQ(requests[1].json()["metadata"]["resourceVersion"], "4");
  EXPECT_EQ(requests[1].json()["spec"]["nodesDesired"], json::array({"n2"}));
  EXPECT_EQ(requests[2].method, "DELETE");
}

TEST(Executor, AlreadyExistsIsDoneAndAConflictIsAnError) {
  FakeApiServer server;
  server.handle("POST", kBase, [](const Request&) {
    return Response::error(409, "AlreadyExists", "nodeshards \"a\" already exists");
  });
  server.handle("PUT", std::string(kBase) + "/b", [](const Request&) {
    return Response::error(409, "Conflict", "the object has been modified");
  });
  kube::Client client(server.config());
  EXPECT_EQ(apply_write(client, "a", plan_shard("a", {"n1"}, nullptr)), "");
  const json cached = {{"metadata", {{"name", "b"}}}, {"spec", {{"nodesDesired", {"x"}}}}};
  const std::string error = apply_write(client, "b", plan_shard("b", {"n2"}, &cached));
  EXPECT_NE(error.find("failed to update shard b"), std::string::npos) << error;
}

// The NodeShard cache holds the shard as it was before our last update (the server is at
// resourceVersion 5): the plan updates again from that copy, the PUT carries the cached 4, and
// the server's Conflict is an error the caller retries on a fresh cache.
TEST(Executor, AnUpdateFromACacheBehindOurLastUpdateConflicts) {
  FakeApiServer server;
  server.handle("PUT", std::string(kBase) + "/b", [](const Request& r) {
    if (r.json()["metadata"].value("resourceVersion", "") != "5") {
      return Response::error(409, "Conflict", "the object has been modified");
    }
    return Response::json(200, r.json());
  });
  kube::Client client(server.config());
  const json cached = {{"metadata", {{"name", "b"}, {"resourceVersion", "4"}}},
                       {"spec", {{"nodesDesired", {"n1"}}}}};
  const ShardWrite write = plan_shard("b", {"n1", "n2"}, &cached);
  ASSERT_EQ(write.kind, ShardWrite::Kind::Update);
  const std::string error = apply_write(client, "b", write);
  EXPECT_NE(error.find("failed to update shard b"), std::string::npos) << error;

  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 1u) << server.describe_requests();
  EXPECT_EQ(requests[0].json()["metadata"]["resourceVersion"], "4");
}

// The NodeShard cache still lists a shard we deleted for a scheduler no longer configured: the
// global sync deletes it again, and the NotFound is done, not an error.
TEST(Executor, DeletingAnUnconfiguredShardWeAlreadyDeletedIsDone) {
  FakeApiServer server;  // no handlers: every DELETE answers 404
  kube::Client client(server.config());
  const auto stale = stale_shards({"volcano", "old"}, {"volcano"});
  ASSERT_EQ(stale, std::vector<std::string>{"old"});
  EXPECT_EQ(delete_shard(client, stale[0]), "");

  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 1u) << server.describe_requests();
  EXPECT_EQ(requests[0].method + " " + requests[0].path, std::string("DELETE ") + kBase + "/old");
}

}  // namespace
}  // namespace vc::controllers::sharding

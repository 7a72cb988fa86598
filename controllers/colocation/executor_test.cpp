// The executor against an in-process API server: the exact merge patch, NotFound as done, and
// a Conflict as an error to retry.
#include "controllers/colocation/executor.h"

#include <gtest/gtest.h>

#include "common/testing/fake_apiserver.h"
#include "controllers/colocation/config_view.h"

namespace vc::controllers::colocation {
namespace {

using nlohmann::json;
using testing::FakeApiServer;
using testing::Request;
using testing::Response;

constexpr const char* kPod = "/api/v1/namespaces/ml/pods/web-0";

TEST(WriteAnnotations, SendsOneMergePatchWithTheResourceVersion) {
  FakeApiServer server;
  server.handle("PATCH", kPod, [](const Request& r) { return Response::json(200, r.json()); });
  kube::Client client(server.config());

  EXPECT_EQ(
      write_annotations(client, "ml", "web-0", "42",
                        {.config_name = "qos", .config = R"({"memoryQos":{"highRatio":80}})"}),
      "");
  EXPECT_EQ(
      write_annotations(client, "ml", "web-0", "43", {.config_name = std::nullopt, .config = "{}"}),
      "");
  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0].method, "PATCH");
  EXPECT_EQ(requests[0].path, kPod);
  EXPECT_EQ(requests[0].header("content-type"), "application/merge-patch+json");
  EXPECT_EQ(requests[0].json(), json::parse(R"({"metadata":{"resourceVersion":"42","annotations":{
              "volcano.sh/colocation-config-name":"qos",
              "volcano.sh/colocation-config":"{\"memoryQos\":{\"highRatio\":80}}"}}})"));
  EXPECT_EQ(requests[1].json(), json::parse(R"({"metadata":{"resourceVersion":"43","annotations":{
              "volcano.sh/colocation-config-name":null,
              "volcano.sh/colocation-config":"{}"}}})"));
}

TEST(WriteAnnotations, AGonePodIsDoneAndAConflictIsRetried) {
  FakeApiServer server;
  server.handle("PATCH", kPod, [](const Request&) {
    return Response::error(409, "Conflict", "the object has been modified");
  });
  kube::Client client(server.config());
  // Unhandled path: 404 NotFound.
  EXPECT_EQ(write_annotations(client, "ml", "gone", "1", {.config_name = "qos", .config = "{}"}),
            "");
  const std::string error =
      write_annotations(client, "ml", "web-0", "1", {.config_name = "qos", .config = "{}"});
  EXPECT_NE(error.find("pod ml/web-0"), std::string::npos) << error;
}

// The pod cache lags our annotation patch (the server holds the pod at resourceVersion 8 with
// the annotations; the cache at 7 without them): the plan repeats the change, the patch carries
// the cached 7, the server refuses it, and the error sends the pod round again. On the fresh copy
// the plan writes nothing.
TEST(WriteAnnotations, ARepeatFromACacheBehindOurPatchConflictsAndIsRetried) {
  FakeApiServer server;
  server.handle("PATCH", kPod, [](const Request& r) {
    if (r.json()["metadata"].value("resourceVersion", "") != "8") {
      return Response::error(409, "Conflict", "the object has been modified");
    }
    return Response::json(200, r.json());
  });
  kube::Client client(server.config());
  const auto config = make_colocation_config_view(
      {{"metadata", {{"name", "qos"}, {"namespace", "ml"}}},
       {"spec", {{"selector", json::object()}, {"memoryQos", {{"highRatio", 80}}}}}});

  const auto change = plan_pod({}, config.get());  // the cached pod at 7 carries neither
  ASSERT_TRUE(change.has_value());
  const std::string error = write_annotations(client, "ml", "web-0", "7", *change);
  EXPECT_NE(error.find("pod ml/web-0"), std::string::npos) << error;
  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 1u) << server.describe_requests();
  EXPECT_EQ(requests[0].json()["metadata"]["resourceVersion"], "7");

  EXPECT_EQ(plan_pod({.config_name = "qos", .config = change->config}, config.get()), std::nullopt);
}

}  // namespace
}  // namespace vc::controllers::colocation

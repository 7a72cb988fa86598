// The status write against an in-process API server: the whole body, the cached
// resourceVersion, and a Conflict (a cache behind our last write) as an error to retry.
#include "controllers/jobtemplate/executor.h"

#include <gtest/gtest.h>

#include "common/testing/fake_apiserver.h"

namespace vc::controllers::jobtemplate {
namespace {

using nlohmann::json;
using vc::testing::FakeApiServer;
using vc::testing::Reply;
using vc::testing::Request;
using vc::testing::Response;

constexpr const char* kStatus =
    "/apis/flow.volcano.sh/v1alpha1/namespaces/ml/jobtemplates/train/status";

jobflow::JobTemplateView cached_template(const std::string& resource_version) {
  jobflow::JobTemplateView jt;
  jt.namespace_ = "ml";
  jt.name = "train";
  jt.resource_version = resource_version;
  return jt;
}

// The server holds the template at resourceVersion 6, after our last status write. A write from
// a cache still at 5 is refused and reported; one from a cache at 6 is taken.
TEST(WriteDependsOn, CarriesTheCachedResourceVersionAndAConflictIsAnError) {
  FakeApiServer server;
  server.handle("PUT", kStatus, [](const Request& r) -> Reply {
    if (r.json()["metadata"].value("resourceVersion", "") != "6") {
      return Response::error(409, "Conflict", "the object has been modified");
    }
    return Response::json(200, r.json());
  });
  kube::Client client(server.config());

  const std::string error =
      write_depends_on(client, cached_template("5"), {"pipe-train", "pipe2-train"});
  EXPECT_NE(error.find("updating status of JobTemplate ml/train"), std::string::npos) << error;
  EXPECT_EQ(write_depends_on(client, cached_template("6"), {"pipe-train", "pipe2-train"}), "");

  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 2u) << server.describe_requests();
  EXPECT_EQ(requests[0].method, "PUT");
  EXPECT_EQ(requests[0].json(), json::parse(R"({"apiVersion":"flow.volcano.sh/v1alpha1",
      "kind":"JobTemplate","metadata":{"name":"train","namespace":"ml","resourceVersion":"5"},
      "status":{"jobDependsOnList":["pipe-train","pipe2-train"]}})"));
  EXPECT_EQ(requests[1].json()["metadata"]["resourceVersion"], "6");
}

}  // namespace
}  // namespace vc::controllers::jobtemplate

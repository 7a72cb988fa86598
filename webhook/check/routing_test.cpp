#include "webhook/check/routing.h"

#include <gtest/gtest.h>

namespace vc::webhook::check {
namespace {

using Paths = std::vector<std::string>;

TEST(Routing, VolcanoKindsGoToTheirEndpointsMutatingFirst) {
  EXPECT_EQ(route_for("batch.volcano.sh/v1alpha1", "Job", false)->paths,
            (Paths{"/jobs/mutate", "/jobs/validate"}));
  EXPECT_EQ(route_for("scheduling.volcano.sh/v1beta1", "Queue", false)->paths,
            (Paths{"/queues/mutate", "/queues/validate"}));
  EXPECT_EQ(route_for("scheduling.volcano.sh/v1beta1", "PodGroup", false)->paths,
            (Paths{"/podgroups/mutate", "/podgroups/validate"}));
  EXPECT_EQ(route_for("topology.volcano.sh/v1alpha1", "HyperNode", false)->paths,
            (Paths{"/hypernodes/validate"}));
  EXPECT_EQ(route_for("batch.volcano.sh/v1alpha1", "CronJob", false)->paths,
            (Paths{"/cronjobs/validate"}));
  EXPECT_EQ(route_for("flow.volcano.sh/v1alpha1", "JobFlow", false)->paths,
            (Paths{"/jobflows/validate"}));
}

TEST(Routing, PodsAreMutatedOnlyWithAnAdmissionConfiguration) {
  EXPECT_EQ(route_for("v1", "Pod", false)->paths, (Paths{"/pods/validate"}));
  EXPECT_EQ(route_for("v1", "Pod", true)->paths, (Paths{"/pods/mutate", "/pods/validate"}));
}

TEST(Routing, ResourceAndScopeMatchTheApiServersRequest) {
  auto job = route_for("batch.volcano.sh/v1alpha1", "Job", false);
  EXPECT_EQ(job->resource.plural, "jobs");
  EXPECT_TRUE(job->resource.namespaced);
  EXPECT_TRUE(job->drops_status);
  auto queue = route_for("scheduling.volcano.sh/v1beta1", "Queue", false);
  EXPECT_FALSE(queue->resource.namespaced);
  // PodGroups have no status subresource: a created PodGroup keeps its status.
  EXPECT_FALSE(route_for("scheduling.volcano.sh/v1beta1", "PodGroup", false)->drops_status);
}

TEST(Routing, OtherKindsAndVersionsAreNotAdmitted) {
  EXPECT_FALSE(route_for("apps/v1", "Deployment", false));
  EXPECT_FALSE(route_for("v1", "Namespace", false));
  EXPECT_FALSE(route_for("batch.volcano.sh/v1beta1", "Job", false));
  EXPECT_FALSE(route_for("batch/v1", "Job", false));
  EXPECT_FALSE(route_for("bus.volcano.sh/v1alpha1", "Command", false));
}

TEST(Routing, EveryRoutedPathIsAServedEndpointOfTheRightType) {
  const std::pair<const char*, const char*> kinds[] = {
      {"batch.volcano.sh/v1alpha1", "Job"},
      {"batch.volcano.sh/v1alpha1", "CronJob"},
      {"scheduling.volcano.sh/v1beta1", "Queue"},
      {"scheduling.volcano.sh/v1beta1", "PodGroup"},
      {"topology.volcano.sh/v1alpha1", "HyperNode"},
      {"flow.volcano.sh/v1alpha1", "JobFlow"},
      {"v1", "Pod"}};
  for (auto [api_version, kind] : kinds) {
    auto route = route_for(api_version, kind, true);
    ASSERT_TRUE(route) << kind;
    bool seen_validating = false;
    for (const auto& path : route->paths) {
      const Endpoint* e = find_endpoint(path);
      ASSERT_NE(e, nullptr) << path;
      EXPECT_EQ(e->mutating, path.ends_with("/mutate")) << path;
      EXPECT_FALSE(e->mutating && seen_validating) << "mutating after validating: " << path;
      seen_validating = seen_validating || !e->mutating;
    }
  }
  EXPECT_EQ(find_endpoint("/nope"), nullptr);
}

}  // namespace
}  // namespace vc::webhook::check

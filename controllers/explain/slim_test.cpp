// slim_node and slim_pod keep every field the diagnosis reads: the placement check and the room
// count give the same answers on the slim objects as on the whole ones.
#include <gtest/gtest.h>

#include "controllers/explain/cluster_room.h"
#include "controllers/explain/placement.h"
#include "controllers/explain/read_snapshot.h"

namespace vc::controllers::explain {
namespace {

using nlohmann::json;

const json kNode = json::parse(R"({
  "metadata": {"name": "n1", "labels": {"zone": "a"}, "uid": "u", "managedFields": [{"x": 1}],
               "annotations": {"big": "..."}},
  "spec": {"taints": [{"key": "gpu", "value": "only", "effect": "NoSchedule"}],
           "unschedulable": false, "podCIDR": "10.0.0.0/24"},
  "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"},
             "capacity": {"cpu": "4"}, "images": [{"names": ["busybox"]}],
             "conditions": [{"type": "Ready", "status": "True"}]}})");

const json kPod = json::parse(R"({
  "metadata": {"name": "p", "namespace": "ns", "labels": {"a": "b"}, "managedFields": [{}]},
  "spec": {"nodeName": "n1", "overhead": {"cpu": "100m"},
           "initContainers": [{"name": "sidecar", "restartPolicy": "Always", "image": "x",
                               "resources": {"requests": {"cpu": "1"}}}],
           "containers": [{"name": "main", "image": "x", "env": [{"name": "A", "value": "B"}],
                           "resources": {"requests": {"cpu": "500m", "memory": "1Gi"},
                                         "limits": {"cpu": "2"}}}]},
  "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}]}})");

TEST(Slim, NodeKeepsWhatPlacementAndRoomRead) {
  const json slim = slim_node(kNode);
  EXPECT_FALSE(slim["metadata"].contains("managedFields"));
  EXPECT_FALSE(slim["status"].contains("images"));
  const json toleration_free_pod = {{"spec", {{"nodeSelector", {{"zone", "a"}}}}}};
  const PlacementCheck whole = check_placement(toleration_free_pod, {kNode});
  const PlacementCheck lean = check_placement(toleration_free_pod, {slim});
  EXPECT_EQ(lean.selector_matches, whole.selector_matches);
  EXPECT_EQ(lean.untolerated_taint, "gpu=only:NoSchedule");
  const ClusterRoom a = cluster_room({kNode}, {kPod});
  const ClusterRoom b = cluster_room({slim}, {slim_pod(kPod)});
  ASSERT_EQ(b.nodes.size(), 1u);
  EXPECT_EQ(b.free, a.free);
  EXPECT_EQ(b.allocatable, a.allocatable);
}

TEST(Slim, PodKeepsItsEffectiveRequests) {
  const json slim = slim_pod(kPod);
  EXPECT_EQ(pod_requests_of(slim), pod_requests_of(kPod));
  EXPECT_EQ(pod_requests_of(slim).at("cpu").to_string(), "1600m");  // sidecar + main + overhead
  EXPECT_FALSE(slim["spec"]["containers"][0].contains("env"));
  EXPECT_FALSE(slim["metadata"].contains("managedFields"));
  EXPECT_EQ(slim["status"]["phase"], "Running");
}

TEST(Slim, OddObjectsGiveEmptyShapes) {
  EXPECT_EQ(slim_node(json("text"))["metadata"], json::object());
  EXPECT_EQ(pod_requests_of(slim_pod(json::array())), api::ResourceList{});
}

}  // namespace
}  // namespace vc::controllers::explain

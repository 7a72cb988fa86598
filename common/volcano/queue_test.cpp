// decode_queue on a Queue with every field set, and errors that name the field.

#include "common/volcano/queue.h"

#include <gtest/gtest.h>

namespace vc::volcano {
namespace {

using nlohmann::json;

json full_queue() {
  return json::parse(R"({
    "apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "Queue",
    "metadata": {"name": "research", "uid": "u1", "resourceVersion": "7",
                 "annotations": {"volcano.sh/closed-by-parent": "true"}},
    "spec": {"weight": 3, "capability": {"cpu": "8", "memory": "16Gi"}, "reclaimable": false,
             "extendClusters": [{"name": "east", "weight": 2, "capacity": {"cpu": "4"}}],
             "guarantee": {"resource": {"cpu": "1"}},
             "affinity": {"nodeGroupAffinity": {
                            "requiredDuringSchedulingIgnoredDuringExecution": ["g1"],
                            "preferredDuringSchedulingIgnoredDuringExecution": ["g2"]}},
             "type": "", "parent": "root", "deserved": {"cpu": "2"}, "priority": 5,
             "dequeueStrategy": "fifo"},
    "status": {"state": "Open", "pending": 1, "running": 2, "inqueue": 3, "completed": 4,
               "unknown": 5, "reservation": {"nodes": ["n1"], "resource": {"cpu": "1"}},
               "allocated": {"cpu": "500m", "pods": "2"}}})");
}

TEST(DecodeQueue, ReadsEveryField) {
  Queue q;
  decode_queue(full_queue(), q);
  EXPECT_EQ(q.name, "research");
  EXPECT_EQ(*q.annotation("volcano.sh/closed-by-parent"), "true");
  EXPECT_EQ(q.spec.weight, 3);
  EXPECT_EQ(api::describe(q.spec.capability), "cpu: 8, memory: 16Gi");
  EXPECT_EQ(q.spec.reclaimable, false);
  ASSERT_EQ(q.spec.extend_clusters.size(), 1u);
  EXPECT_EQ(q.spec.extend_clusters[0].name, "east");
  EXPECT_EQ(q.spec.extend_clusters[0].weight, 2);
  EXPECT_EQ(api::describe(q.spec.extend_clusters[0].capacity), "cpu: 4");
  EXPECT_EQ(api::describe(q.spec.guarantee), "cpu: 1");
  ASSERT_TRUE(q.spec.affinity && q.spec.affinity->node_group_affinity);
  EXPECT_EQ(q.spec.affinity->node_group_affinity->required, std::vector<std::string>{"g1"});
  EXPECT_EQ(q.spec.affinity->node_group_affinity->preferred, std::vector<std::string>{"g2"});
  EXPECT_FALSE(q.spec.affinity->node_group_anti_affinity);
  EXPECT_EQ(q.spec.parent, "root");
  EXPECT_EQ(api::describe(q.spec.deserved), "cpu: 2");
  EXPECT_EQ(q.spec.priority, 5);
  EXPECT_EQ(q.spec.dequeue_strategy, "fifo");
  EXPECT_EQ(q.status.state, "Open");
  EXPECT_EQ(q.status.pending + q.status.running + q.status.inqueue + q.status.completed +
                q.status.unknown,
            15);
  ASSERT_TRUE(q.status.reservation);
  EXPECT_EQ(q.status.reservation->nodes, std::vector<std::string>{"n1"});
  EXPECT_EQ(api::describe(q.status.allocated), "cpu: 500m, pods: 2");
}

TEST(DecodeQueue, AbsentFieldsAreZero) {
  Queue q;
  decode_queue(json::object(), q);
  EXPECT_TRUE(q.spec.capability.empty());
  EXPECT_FALSE(q.spec.reclaimable);
  EXPECT_FALSE(q.status.reservation);
  EXPECT_EQ(q.status.state, "");
}

TEST(DecodeQueue, ErrorsNameTheField) {
  const auto error_of = [](const json& doc) {
    Queue q;
    try {
      decode_queue(doc, q);
    } catch (const DecodeError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error_of({{"spec", {{"weight", "3"}}}}),
            "spec.weight: expected an integer, got string");
  EXPECT_EQ(error_of({{"spec", {{"extendClusters", {{{"weight", 1.5}}}}}}}),
            "spec.extendClusters[0].weight: expected an integer, got number");
  EXPECT_EQ(error_of({{"spec", {{"capability", {{"cpu", "lots"}}}}}}).substr(0, 22),
            "spec.capability[cpu]: ");
  EXPECT_EQ(error_of(json::array()), "(root): expected an object, got array");
}

}  // namespace
}  // namespace vc::volcano

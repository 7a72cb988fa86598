// Randomly mutated objects (deterministic seed) through every scheduling admit function: no
// exception, no hang, and every denial carries a message.

#include <chrono>

#include <gtest/gtest.h>

#include "webhook/admission/scheduling/admit.h"
#include "webhook/admission/scheduling/admit_test_util.h"
#include "webhook/admission/scheduling/json_fuzz.h"

namespace vc::webhook::scheduling {
namespace {

using namespace testing;  // NOLINT

std::vector<json> base_objects() {
  const json annotations = {{"volcano.sh/hierarchy", "root/a"},
                            {"volcano.sh/hierarchy-weights", "1/2"}};
  return {
      queue_object("q",
                   {{"weight", 1},
                    {"parent", "p"},
                    {"capability", {{"cpu", "4"}, {"memory", "8Gi"}, {"nvidia.com/gpu", "2"}}},
                    {"deserved", {{"cpu", "2"}, {"pods", "10"}}},
                    {"guarantee", {{"resource", {{"cpu", "1"}}}}}},
                   {{"state", "Open"}, {"allocated", {{"pods", "1"}}}}, annotations),
      queue_object("root", {{"capability", {{"cpu", "100"}}}}),
      json::parse(R"({"metadata":{"name":"pg","namespace":"ns"},
          "spec":{"queue":"default","minMember":2,"minResources":{"cpu":"1"},
                  "networkTopology":{"highestTierAllowed":1,"highestTierName":"r"},
                  "subGroupPolicy":[{"name":"s","networkTopology":{"highestTierAllowed":2}}]}})"),
      json::parse(R"({"metadata":{"name":"h"},"spec":{"tier":1,"members":[
          {"type":"Node","selector":{"regexMatch":{"pattern":"n-[0-9]+"}}},
          {"type":"Node","selector":{"exactMatch":{"name":"n1"}}}]}})"),
  };
}

StaticClusterView cluster(JsonMutator& mutator) {
  StaticClusterView view;
  view.add_queue(open_queue("p", {{"capability", {{"cpu", "8"}}},
                                  {"deserved", {{"cpu", "4"}}},
                                  {"guarantee", {{"resource", {{"cpu", "2"}}}}}}));
  view.add_queue(open_queue("a", {{"parent", "p"}, {"capability", {{"cpu", "2"}}}}));
  view.add_queue(open_queue("b", {{"parent", "a"}}));
  view.add_queue(open_queue("default"));
  view.add_namespace(
      {{"metadata",
        {{"name", "ns"}, {"annotations", {{"scheduling.volcano.sh/queue-name", "p"}}}}}});
  // A few damaged cache entries: the rules must cope with whatever the cache holds.
  for (const char* name : {"x", "y", "z"}) {
    json q = open_queue(name, {{"parent", "p"}, {"deserved", {{"cpu", "1"}}}});
    mutator.mutate(q);
    if (!q.is_object()) q = json::object();  // StaticClusterView needs an object with a name
    q["metadata"] = {{"name", name}};
    view.add_queue(std::move(q));
  }
  return view;
}

TEST(SchedulingFuzz, MutatedObjectsNeverCrashOrHang) {
  JsonMutator mutator(20240611);
  StaticClusterView view = cluster(mutator);
  StaticClusterView offline = cluster(mutator);
  offline.set_online(false);
  AdmissionOptions options;
  options.enable_queue_allocated_pods_check = true;
  const std::vector<std::pair<AdmitFn, GroupVersionResource>> functions = {
      {admit_podgroups_mutate, kPodGroupsResource},
      {admit_podgroups_validate, kPodGroupsResource},
      {admit_queues_mutate, kQueuesResource},
      {admit_queues_validate, kQueuesResource},
      {admit_hypernodes_validate, kHyperNodesResource}};
  const std::vector<std::string> operations = {"CREATE", "UPDATE", "DELETE", "CONNECT"};
  const auto bases = base_objects();
  const auto start = std::chrono::steady_clock::now();
  int denied = 0;
  int runs = 0;
  for (int i = 0; i < 400; ++i) {
    json object = bases[static_cast<std::size_t>(i) % bases.size()];
    json old_object = object;
    mutator.mutate(object);
    if (i % 3 == 0) mutator.mutate(old_object);
    const auto& [admit, resource] = functions[static_cast<std::size_t>(i) % functions.size()];
    for (const auto& op : operations) {
      for (const ClusterView* v :
           {static_cast<const ClusterView*>(&view), static_cast<const ClusterView*>(&offline)}) {
        AdmissionResponse response;
        ASSERT_NO_THROW(response =
                            admit(make_request(resource, op, object, old_object, "q"), *v, options))
            << "object: " << object.dump().substr(0, 300);
        ASSERT_TRUE(response.patch.is_array());
        if (!response.allowed) {
          EXPECT_FALSE(response.message.empty()) << object.dump().substr(0, 300);
          ++denied;
        }
        ++runs;
      }
    }
  }
  // The mix must exercise both outcomes, or the fuzzing proves little.
  EXPECT_GT(denied, runs / 10);
  EXPECT_LT(denied, runs);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
}

}  // namespace
}  // namespace vc::webhook::scheduling

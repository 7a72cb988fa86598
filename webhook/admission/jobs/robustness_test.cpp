// Arbitrary JSON must never crash, throw out of, or hang an admit function: a few hundred
// randomly mutated job, cron job and job flow objects (fixed seed) go through every endpoint.

#include <random>

#include <gtest/gtest.h>

#include "webhook/admission/jobs/endpoints.h"
#include "webhook/admission/jobs/test_support.h"

namespace vc::webhook::jobs {
namespace {

class Mutator {
 public:
  explicit Mutator(std::uint32_t seed) : rng_(seed) {}

  json random_value(int depth = 0) {
    switch (pick(depth > 3 ? 9 : 12)) {
      case 0:
        return nullptr;
      case 1:
        return pick(2) == 0;
      case 2:
        return static_cast<std::int64_t>(rng_()) - (1LL << 31);
      case 3:
        return std::numeric_limits<std::int64_t>::min();
      case 4:
        return std::numeric_limits<std::uint64_t>::max();
      case 5:
        return 1e300 * (pick(2) ? 1 : -1);
      case 6:
        return 0.5;
      case 7: {
        static const char* kStrings[] = {"",       "-1",        "1e100", "abc",          "500m",
                                         "Always", "*",         "a/b/c", "\xe2\x80\xa8", "TZ=UTC",
                                         "..",     "hugepages-"};
        return kStrings[pick(12)];
      }
      case 8:
        return std::string(pick(2) ? 70 : 300, 'x');
      case 9: {
        json a = json::array();
        for (int i = pick(4); i > 0; --i) a.push_back(random_value(depth + 1));
        return a;
      }
      case 10: {
        json o = json::object();
        static const char* kKeys[] = {"name",     "replicas", "spec", "containers",
                                      "cpu",      "event",    "x",    "minAvailable",
                                      "template", "dependsOn"};
        for (int i = pick(4); i > 0; --i) o[kKeys[pick(10)]] = random_value(depth + 1);
        return o;
      }
      default: {
        json deep = json::array();
        json* cur = &deep;
        for (int i = pick(200); i > 0; --i) {
          cur->push_back(json::array());
          cur = &(*cur)[0];
        }
        return deep;
      }
    }
  }

  // Replaces, removes or adds one value somewhere in `doc`.
  void mutate(json& doc) {
    json* node = &doc;
    for (int steps = pick(8); steps > 0 && node->is_structured() && !node->empty(); --steps) {
      auto it = node->begin();
      std::advance(it, pick(static_cast<int>(node->size())));
      node = &*it;
    }
    switch (pick(3)) {
      case 0:
        *node = random_value();
        break;
      case 1:
        if (node->is_object() && !node->empty()) node->erase(node->begin());
        break;
      default:
        if (node->is_object()) (*node)["k" + std::to_string(pick(5))] = random_value();
        if (node->is_array()) node->push_back(random_value());
    }
  }

  int pick(int n) { return static_cast<int>(rng_() % static_cast<std::uint32_t>(n)); }

 private:
  std::mt19937 rng_;
};

json rich_job() {
  json job = testing::valid_job();
  json& t = job["spec"]["tasks"][0];
  t["policies"] = json::array({{{"event", "PodFailed"}, {"action", "RestartJob"}}});
  t["dependsOn"] = {{"name", json::array({"worker"})}};
  t["partitionPolicy"] = {{"totalPartitions", 1}, {"partitionSize", 1}};
  t["topologyPolicy"] = "single-numa-node";
  t["template"]["spec"]["containers"][0]["resources"] = {{"requests", {{"cpu", "1"}}}};
  t["template"]["spec"]["containers"][0]["ports"] = json::array({{{"containerPort", 80}}});
  t["template"]["spec"]["resources"] = {{"limits", {{"cpu", "2"}}}};
  t["template"]["spec"]["tolerations"] = json::array({{{"key", "k"}}});
  job["spec"]["plugins"] = {{"mpi", json::array({"--master=worker"})}};
  job["spec"]["volumes"] = json::array({{{"mountPath", "/d"}, {"volumeClaim", json::object()}}});
  job["spec"]["networkTopology"] = {{"mode", "hard"}};
  return job;
}

TEST(Robustness, MutatedObjectsNeverCrashOrThrow) {
  Mutator m(20240611);
  const auto eps = endpoints();
  StaticClusterView cluster = testing::open_cluster();
  const json seeds[] = {
      rich_job(),
      {{"metadata", {{"name", "c"}}},
       {"spec",
        {{"schedule", "*/5 * * * *"},
         {"timeZone", "UTC"},
         {"jobTemplate", {{"spec", rich_job()["spec"]}}}}}},
      {{"metadata", {{"name", "f"}}},
       {"spec",
        {{"flows",
          json::array({{{"name", "a"}},
                       {{"name", "b"}, {"dependsOn", {{"targets", json::array({"a"})}}}}})}}}},
  };
  const GroupVersionResource gvrs[] = {kJobsResource, kCronJobsResource, kJobFlowsResource};
  int denied = 0;
  int consumed = 0;
  for (int round = 0; round < 400; ++round) {
    const std::size_t kind = static_cast<std::size_t>(m.pick(3));
    json object = seeds[kind];
    json old_object = seeds[kind];
    for (int i = 1 + m.pick(4); i > 0; --i) m.mutate(object);
    if (m.pick(2)) m.mutate(old_object);
    for (const auto& ep : eps) {
      for (const char* op : {"CREATE", "UPDATE"}) {
        auto request = testing::request(gvrs[kind], op, object, old_object);
        AdmissionResponse r;
        ASSERT_NO_THROW(r = ep.admit(request, cluster, AdmissionOptions{}))
            << ep.path << " " << op << " " << object.dump().substr(0, 500);
        if (!r.allowed) {
          ++denied;
          EXPECT_FALSE(r.message.empty()) << ep.path;
        }
        EXPECT_TRUE(r.patch.is_array());
        if (ep.admit_consuming) {
          // The server's variant answers the same while taking members out of its request.
          AdmissionResponse c;
          ASSERT_NO_THROW(c = ep.admit_consuming(request, cluster, AdmissionOptions{}))
              << ep.path << " " << op << " " << object.dump().substr(0, 500);
          EXPECT_EQ(c.allowed, r.allowed) << ep.path << " " << object.dump().substr(0, 500);
          EXPECT_EQ(c.message, r.message) << ep.path;
          EXPECT_EQ(c.patch, r.patch) << ep.path << " " << object.dump().substr(0, 500);
          ++consumed;
        }
      }
    }
  }
  EXPECT_GT(denied, 0);
  EXPECT_GT(consumed, 0);
}

TEST(Robustness, EndpointsListTheFourPaths) {
  const auto eps = endpoints();
  ASSERT_EQ(eps.size(), 4u);
  EXPECT_EQ(eps[0].path, "/jobs/mutate");
  EXPECT_TRUE(eps[0].mutating);
  EXPECT_EQ(eps[1].path, "/jobs/validate");
  EXPECT_EQ(eps[2].path, "/cronjobs/validate");
  EXPECT_EQ(eps[3].path, "/jobflows/validate");
  for (std::size_t i = 1; i < eps.size(); ++i) EXPECT_FALSE(eps[i].mutating);
}

}  // namespace
}  // namespace vc::webhook::jobs

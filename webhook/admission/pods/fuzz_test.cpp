// Randomly mutated pods (deterministic seed) through both pod admit functions: no exception, no
// hang, and every denial carries a message.

#include <chrono>

#include <gtest/gtest.h>

#include "webhook/admission/pods/admit.h"
#include "webhook/admission/pods/pods_test_util.h"
#include "webhook/admission/scheduling/json_fuzz.h"

namespace vc::webhook::pods {
namespace {

using namespace testing;  // NOLINT

TEST(PodsFuzz, MutatedPodsNeverCrashOrHang) {
  auto config = PodAdmissionConfig::parse(R"(
resourceGroups:
- resourceGroup: a
  object: {key: annotation, value: ["team: ml", "x: ''"]}
  labels: {zone: z1}
  tolerations: [{key: k, operator: Exists}]
  affinity: '{"podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[{"topologyKey":"z"}]}}'
  schedulerName: volcano
)");
  ASSERT_TRUE(config.ok()) << config.error();
  AdmissionOptions options;
  options.scheduling_gates_queue_admission = true;
  options.pod_admission_config = std::make_shared<const PodAdmissionConfig>(*config);
  StaticClusterView view;
  scheduling::testing::JsonMutator mutator(77);
  const json base = pod({{"volcano.sh/jdb-min-available", "2"},
                         {"scheduling.volcano.sh/queue-allocation-gate", "true"},
                         {"team", "ml"}},
                        {{"nodeSelector", {{"a", "b"}}},
                         {"tolerations", {{{"key", "t"}, {"tolerationSeconds", 5}}}},
                         {"schedulingGates", {{{"name", "g"}}}}});
  const auto start = std::chrono::steady_clock::now();
  int denied = 0;
  int runs = 0;
  for (int i = 0; i < 400; ++i) {
    json object = base;
    mutator.mutate(object);
    for (const char* op : {"CREATE", "UPDATE"}) {
      for (AdmitFn admit : {AdmitFn(admit_pods_mutate), AdmitFn(admit_pods_validate)}) {
        AdmissionResponse response;
        ASSERT_NO_THROW(response = admit(pod_request(object, op), view, options))
            << object.dump().substr(0, 300);
        ASSERT_TRUE(response.patch.is_array());
        if (!response.allowed) {
          EXPECT_FALSE(response.message.empty());
          ++denied;
        }
        ++runs;
      }
    }
  }
  EXPECT_GT(denied, runs / 10);
  EXPECT_LT(denied, runs);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
}

}  // namespace
}  // namespace vc::webhook::pods

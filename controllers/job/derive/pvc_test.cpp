#include "controllers/job/derive/pvc.h"

#include <gtest/gtest.h>

#include "controllers/job/derive/test_jobs.h"

namespace vc::controllers::job {
namespace {

using nlohmann::json;

TEST(GeneratedPvcName, IsJobDashPvcDashRandom) {
  EXPECT_EQ(generated_pvc_name(testing::make_job("train"), [] { return "abcdef123456"; }),
            "train-pvc-abcdef123456");
  const std::string real = generated_pvc_name(testing::make_job("train"), random_name12);
  EXPECT_EQ(real.size(), std::string("train-pvc-").size() + 12) << real;
}

TEST(BuildPvc, OwnedByTheJobWithTheClaimSpec) {
  const json spec = {{"accessModes", json::array({"ReadWriteOnce"})},
                     {"resources", {{"requests", {{"storage", "1Gi"}}}}}};
  const json pvc = build_pvc(testing::make_job(), "job1-pvc-x", spec.dump());
  const json expected = {
      {"apiVersion", "v1"},
      {"kind", "PersistentVolumeClaim"},
      {"metadata",
       {{"name", "job1-pvc-x"},
        {"namespace", "ns1"},
        {"ownerReferences", json::array({{{"apiVersion", "batch.volcano.sh/v1alpha1"},
                                          {"kind", "Job"},
                                          {"name", "job1"},
                                          {"uid", "0a1b2c3d-uid"},
                                          {"controller", true},
                                          {"blockOwnerDeletion", true}}})}}},
      {"spec", spec}};
  EXPECT_EQ(pvc, expected);
}

TEST(BuildPvc, ClaimTextThatIsNotAnObjectThrows) {
  EXPECT_THROW(build_pvc(testing::make_job(), "p", "[1]"), std::invalid_argument);
  EXPECT_THROW(build_pvc(testing::make_job(), "p", "{oops"), std::invalid_argument);
}

}  // namespace
}  // namespace vc::controllers::job

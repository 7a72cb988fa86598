#include "webhook/app/endpoints.h"

#include <gtest/gtest.h>

namespace vc::webhook::app {
namespace {

std::vector<std::string> paths(const std::vector<Endpoint>& endpoints) {
  std::vector<std::string> out;
  for (const auto& e : endpoints) out.push_back(e.path);
  return out;
}

TEST(Endpoints, EveryVolcanoPathIsServed) {
  auto all = paths(all_endpoints());
  std::sort(all.begin(), all.end());
  EXPECT_EQ(all, (std::vector<std::string>{
                     "/cronjobs/validate", "/hypernodes/validate", "/jobflows/validate",
                     "/jobs/mutate", "/jobs/validate", "/podgroups/mutate", "/podgroups/validate",
                     "/pods/mutate", "/pods/validate", "/queues/mutate", "/queues/validate"}));
}

TEST(Endpoints, SelectKeepsTheGivenOrderAndServesADuplicateOnce) {
  auto selected = select_endpoints({"/queues/validate", "/jobs/mutate", "/queues/validate"});
  ASSERT_TRUE(selected.ok()) << selected.error();
  EXPECT_EQ(paths(*selected), (std::vector<std::string>{"/queues/validate", "/jobs/mutate"}));
  EXPECT_FALSE((*selected)[0].mutating);
  EXPECT_TRUE((*selected)[1].mutating);
}

TEST(Endpoints, UnknownPathIsVolcanosError) {
  auto selected = select_endpoints({"/jobs/mutate", "/nodes/mutate"});
  ASSERT_FALSE(selected.ok());
  EXPECT_EQ(selected.error(),
            "enabled admission /nodes/mutate not found on the admission "
            "registered map");
}

TEST(Endpoints, AdmitFunctionsReadTheLiveOptions) {
  std::vector<int> seen;
  Endpoint probe{
      .path = "/probe",
      .mutating = false,
      .admit = [&](const AdmissionRequest&, const ClusterView&, const AdmissionOptions& options) {
        seen.push_back(options.pod_admission_config
                           ? static_cast<int>(options.pod_admission_config->resource_groups.size())
                           : -1);
        return AdmissionResponse{};
      }};
  auto live = std::make_shared<LiveOptions>(AdmissionOptions{});
  auto wrapped = with_live_options({probe}, live);
  StaticClusterView view;
  const AdmissionOptions stale;
  wrapped[0].admit(AdmissionRequest{}, view, stale);
  PodAdmissionConfig config;
  config.resource_groups.resize(2);
  live->set_pod_admission_config(std::make_shared<const PodAdmissionConfig>(config));
  wrapped[0].admit(AdmissionRequest{}, view, stale);
  EXPECT_EQ(seen, (std::vector<int>{-1, 2}));
  EXPECT_FALSE(wrapped[0].admit_consuming);  // none given, none made up

  // An endpoint's consuming variant is wrapped the same way.
  seen.clear();
  probe.admit_consuming = [&](AdmissionRequest&, const ClusterView&,
                              const AdmissionOptions& options) {
    seen.push_back(options.pod_admission_config
                       ? static_cast<int>(options.pod_admission_config->resource_groups.size())
                       : -1);
    return AdmissionResponse{};
  };
  wrapped = with_live_options({probe}, live);
  AdmissionRequest request;
  ASSERT_TRUE(wrapped[0].admit_consuming);
  wrapped[0].admit_consuming(request, view, stale);
  EXPECT_EQ(seen, (std::vector<int>{2}));
}

TEST(Endpoints, WebhookConfigurationNamesFollowHelm) {
  EXPECT_EQ(webhook_configuration_name("/jobs/mutate"), "volcano-admission-service-jobs-mutate");
  EXPECT_EQ(webhook_configuration_name("/queues/validate"),
            "volcano-admission-service-queues-validate");
}

}  // namespace
}  // namespace vc::webhook::app

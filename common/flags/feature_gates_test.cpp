#include "common/flags/feature_gates.h"

#include <algorithm>

#include <gtest/gtest.h>

#include "common/flags/flag_set.h"

namespace vc::flags {
namespace {

FeatureGates webhook_gates() {
  auto known = volcano_feature_gates();
  known.push_back({"PodLevelResources", true, Stage::Beta});
  return FeatureGates(std::move(known));
}

TEST(FeatureGates, DefaultsApplyUntilSet) {
  auto gates = webhook_gates();
  EXPECT_FALSE(gates.enabled("SchedulingGatesQueueAdmission"));
  EXPECT_TRUE(gates.enabled("WorkLoadSupport"));
  EXPECT_TRUE(gates.enabled("PodLevelResources"));
  EXPECT_EQ(gates.str(), "");
}

TEST(FeatureGates, SetParsesPairsAndMergesRepeatedFlags) {
  auto gates = webhook_gates();
  ASSERT_EQ(gates.set("SchedulingGatesQueueAdmission=true, PodLevelResources = false,").error(),
            "");
  ASSERT_EQ(gates.set("CSIStorage=t").error(), "");
  EXPECT_TRUE(gates.enabled("SchedulingGatesQueueAdmission"));
  EXPECT_FALSE(gates.enabled("PodLevelResources"));
  EXPECT_TRUE(gates.enabled("CSIStorage"));
  EXPECT_TRUE(gates.explicitly_set("PodLevelResources"));
  EXPECT_EQ(gates.str(),
            "CSIStorage=true,PodLevelResources=false,SchedulingGatesQueueAdmission=true");
}

TEST(FeatureGates, KubernetesGatesAreAcceptedAndRemembered) {
  auto gates = webhook_gates();
  ASSERT_EQ(gates.set("InPlacePodVerticalScaling=true,WatchListClient=false").error(), "");
  EXPECT_EQ(gates.str(), "InPlacePodVerticalScaling=true,WatchListClient=false");
}

TEST(FeatureGates, ErrorsUseKubernetesTextsAndApplyNothing) {
  auto gates = webhook_gates();
  EXPECT_EQ(gates.set("Nope=true").error(), "unrecognized feature gate: Nope");
  EXPECT_EQ(gates.set("CSIStorage").error(), "missing bool value for CSIStorage");
  EXPECT_EQ(gates.set("CSIStorage=maybe").error(),
            "invalid value of CSIStorage=maybe, err: strconv.ParseBool: parsing \"maybe\": "
            "invalid syntax");
  EXPECT_EQ(gates.set("CSIStorage=true,Nope=false").error(), "unrecognized feature gate: Nope");
  EXPECT_FALSE(gates.enabled("CSIStorage"));
}

TEST(FeatureGates, AllAlphaAndAllBetaSwitchGatesNotSetByName) {
  auto gates = webhook_gates();
  ASSERT_EQ(gates.set("AllAlpha=true,WorkLoadSupport=false,AllBeta=false").error(), "");
  EXPECT_TRUE(gates.enabled("SchedulingGatesQueueAdmission"));
  EXPECT_FALSE(gates.enabled("WorkLoadSupport"));
  EXPECT_FALSE(gates.enabled("PodLevelResources"));
}

TEST(FeatureGates, SetDefaultFollowsTheClusterUnlessSetByName) {
  auto gates = webhook_gates();
  gates.set_default("PodLevelResources", false, Stage::Alpha);
  EXPECT_FALSE(gates.enabled("PodLevelResources"));
  ASSERT_EQ(gates.set("PodLevelResources=true").error(), "");
  gates.set_default("PodLevelResources", false, Stage::Alpha);
  EXPECT_TRUE(gates.enabled("PodLevelResources"));
}

TEST(FeatureGates, UnregisteredGateLookupIsAProgrammingError) {
  auto gates = webhook_gates();
  EXPECT_THROW((void)gates.enabled("InPlacePodVerticalScaling"), std::logic_error);
}

TEST(FeatureGates, FlagErrorsAreWrappedByPflag) {
  auto gates = webhook_gates();
  FlagSet fs("x");
  fs.var("feature-gates", gates.flag_value(), "Gates.");
  auto r = fs.parse({"--feature-gates=Foo=true"});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(),
            "invalid argument \"Foo=true\" for \"--feature-gates\" flag: unrecognized feature "
            "gate: Foo");
  ASSERT_TRUE(fs.parse({"--feature-gates", "SchedulingGatesQueueAdmission=true"}).ok());
  EXPECT_TRUE(gates.enabled("SchedulingGatesQueueAdmission"));
  EXPECT_EQ(fs.lookup("feature-gates")->value->str(), "SchedulingGatesQueueAdmission=true");
}

TEST(KubernetesGateNames, AreSortedAndIncludeWellKnownGates) {
  const auto& names = kubernetes_gate_names();
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  EXPECT_GT(names.size(), 200u);
  EXPECT_TRUE(is_kubernetes_gate("PodLevelResources"));
  EXPECT_TRUE(is_kubernetes_gate("APIResponseCompression"));
  EXPECT_TRUE(is_kubernetes_gate("WatchListClient"));
  EXPECT_FALSE(is_kubernetes_gate("SchedulingGatesQueueAdmission"));
}

}  // namespace
}  // namespace vc::flags

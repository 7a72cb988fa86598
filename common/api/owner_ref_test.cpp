#include "common/api/owner_ref.h"

#include <gtest/gtest.h>

namespace vc::api {
namespace {

using nlohmann::json;

json pod_owned_by(const json& refs) {
  return json{{"apiVersion", "v1"},
              {"kind", "Pod"},
              {"metadata", {{"name", "job-task-0"}, {"ownerReferences", refs}}}};
}

TEST(OwnerRef, ControllerRefSetsControllerAndBlockOwnerDeletion) {
  const OwnerRef ref = make_controller_ref("batch.volcano.sh/v1alpha1", "Job", "job", "uid-1");
  EXPECT_TRUE(ref.is_controller());
  EXPECT_EQ(ref.block_owner_deletion, true);
  EXPECT_EQ(json(ref), json::parse(R"({"apiVersion":"batch.volcano.sh/v1alpha1","kind":"Job",
      "name":"job","uid":"uid-1","controller":true,"blockOwnerDeletion":true})"));
}

TEST(OwnerRef, UnsetOptionalsAreOmittedAndRoundTrip) {
  const OwnerRef plain{"v1", "ConfigMap", "cm", "uid-2", std::nullopt, std::nullopt};
  const json j = plain;
  EXPECT_FALSE(j.contains("controller"));
  EXPECT_FALSE(j.contains("blockOwnerDeletion"));
  EXPECT_EQ(j.get<OwnerRef>(), plain);
  const OwnerRef ctl = make_controller_ref("v1", "Pod", "p", "u");
  EXPECT_EQ(json(ctl).get<OwnerRef>(), ctl);
}

TEST(OwnerRef, DecodeErrorsNameTheField) {
  EXPECT_EQ(
      owner_ref_from_json(json::parse(R"({"apiVersion":"v1","kind":"Pod","name":"p"})")).error(),
      "uid: Required value");
  EXPECT_EQ(owner_ref_from_json(json::parse(R"({"apiVersion":"v1","kind":"Pod","name":"p","uid":"u",
                               "controller":"yes"})"))
                .error(),
            "controller: Invalid value: \"yes\": must be a boolean");
  EXPECT_EQ(owner_ref_from_json(json::parse("[]")).error(),
            "owner reference must be a JSON object, got array");
  EXPECT_THROW((void)json::parse(R"({"kind":"Pod"})").get<OwnerRef>(), json::exception);
}

TEST(OwnerRef, ControllerOfFindsTheFirstControllerEntry) {
  const json pod = pod_owned_by(json::parse(R"([
      {"apiVersion":"v1","kind":"ConfigMap","name":"cm","uid":"u-cm"},
      {"apiVersion":"batch.volcano.sh/v1alpha1","kind":"Job","name":"job","uid":"u-job",
       "controller":true},
      {"apiVersion":"apps/v1","kind":"ReplicaSet","name":"rs","uid":"u-rs","controller":true}])"));
  auto ref = controller_of(pod);
  ASSERT_TRUE(ref.has_value());
  EXPECT_EQ(ref->uid, "u-job");
  EXPECT_EQ(ref->kind, "Job");
  EXPECT_TRUE(is_controlled_by(pod, "u-job"));
  EXPECT_FALSE(is_controlled_by(pod, "u-rs"));
  EXPECT_FALSE(is_controlled_by(pod, "u-cm"));
  EXPECT_TRUE(has_owner(pod, "u-cm"));
  EXPECT_TRUE(has_owner(pod, "u-rs"));
  EXPECT_FALSE(has_owner(pod, "u-other"));
  EXPECT_EQ(owner_refs_of(pod).size(), 3u);
}

TEST(OwnerRef, ControllerFalseIsNotAController) {
  const json pod = pod_owned_by(
      json::parse(R"([{"apiVersion":"v1","kind":"Job","name":"j","uid":"u","controller":false}])"));
  EXPECT_FALSE(controller_of(pod).has_value());
  EXPECT_FALSE(is_controlled_by(pod, "u"));
  EXPECT_TRUE(has_owner(pod, "u"));
}

TEST(OwnerRef, MissingOrMalformedMetadataMeansNoOwners) {
  for (const char* text :
       {R"({})", R"({"metadata":null})", R"({"metadata":{"ownerReferences":{}}})", R"([])",
        R"("pod")", R"({"metadata":{"ownerReferences":[1,{"uid":"u","controller":true}]}})"}) {
    const json object = json::parse(text);
    EXPECT_FALSE(controller_of(object).has_value()) << text;
    EXPECT_FALSE(has_owner(object, "u")) << text;
    EXPECT_TRUE(owner_refs_of(object).empty()) << text;
  }
}

TEST(OwnerRef, SetOwnerRefAddsOrReplacesByUid) {
  json pod = {{"metadata", {{"name", "p"}}}};
  set_owner_ref(pod, make_controller_ref("v1", "Job", "a", "u1"));
  EXPECT_TRUE(is_controlled_by(pod, "u1"));
  OwnerRef renamed = make_controller_ref("v1", "Job", "b", "u1");
  set_owner_ref(pod, renamed);
  ASSERT_EQ(owner_refs_of(pod).size(), 1u);
  EXPECT_EQ(owner_refs_of(pod)[0].name, "b");
  set_owner_ref(pod, OwnerRef{"v1", "ConfigMap", "cm", "u2", std::nullopt, std::nullopt});
  EXPECT_EQ(owner_refs_of(pod).size(), 2u);
  json empty = json::object();
  set_owner_ref(empty, renamed);
  EXPECT_TRUE(has_owner(empty, "u1"));
  json not_object = json::array();
  EXPECT_THROW(set_owner_ref(not_object, renamed), std::invalid_argument);
}

}  // namespace
}  // namespace vc::api

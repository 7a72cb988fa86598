#include "webhook/check/admit_object.h"

#include <gtest/gtest.h>

namespace vc::webhook::check {
namespace {

using nlohmann::json;

json job(const std::string& tasks_json) {
  return json::parse(R"({"apiVersion":"batch.volcano.sh/v1alpha1","kind":"Job",
                         "metadata":{"name":"train"},"spec":{"tasks":)" +
                     tasks_json + "}}");
}

const std::string kTask =
    R"({"name":"worker","replicas":2,"template":{"spec":{"containers":[
        {"name":"c","image":"busybox"}]}}})";
const std::string kOneTask = "[" + kTask + "]";

class AdmitObjectTest : public ::testing::Test {
 protected:
  AdmitObjectTest() { offline_.set_online(false); }

  Outcome admit(const json& object, const ClusterView& view, const std::string& ns = "default") {
    auto route = route_for(object["apiVersion"].get<std::string>(),
                           object["kind"].get<std::string>(), false);
    EXPECT_TRUE(route);
    return admit_object(object, *route, view, options_, ns, "uid-1");
  }

  StaticClusterView offline_;
  AdmissionOptions options_;
};

TEST_F(AdmitObjectTest, ValidJobIsDefaultedByTheMutationAndAllowed) {
  Outcome out = admit(job(kOneTask), offline_);
  ASSERT_TRUE(out.allowed) << out.message;
  EXPECT_EQ(out.object["metadata"]["namespace"], "default");
  EXPECT_EQ(out.object["spec"]["queue"], "default");
  EXPECT_EQ(out.object["spec"]["schedulerName"], "volcano");
  EXPECT_EQ(out.object["spec"]["minAvailable"], 2);
  EXPECT_EQ(out.object["spec"]["maxRetry"], 3);
  EXPECT_EQ(out.object["spec"]["tasks"][0]["minAvailable"], 2);
  ASSERT_EQ(out.skipped.size(), 1u);
  EXPECT_EQ(out.skipped[0], "queue default was not checked: no cluster connection for lookups");
  EXPECT_TRUE(out.warnings.empty());
}

TEST_F(AdmitObjectTest, DuplicatedTaskNamesAreDeniedWithVolcanosMessage) {
  Outcome out = admit(job("[" + kTask + "," + kTask + "]"), offline_);
  EXPECT_FALSE(out.allowed);
  EXPECT_EQ(out.denied_by, "/jobs/validate");
  EXPECT_EQ(out.message, "duplicated task name worker;");
}

TEST_F(AdmitObjectTest, ValidationSeesTheMutatedObject) {
  // minAvailable 3 > 2 replicas would be caught either way; a missing task name is only valid
  // because the mutation names it "default0" before validation.
  Outcome out = admit(job(R"([{"replicas":1,"template":{"spec":{"containers":[
                              {"name":"c","image":"busybox"}]}}}])"),
                      offline_);
  ASSERT_TRUE(out.allowed) << out.message;
  EXPECT_EQ(out.object["spec"]["tasks"][0]["name"], "default0");
}

TEST_F(AdmitObjectTest, MetadataNamespaceWinsOverTheDefault) {
  json j = job(kOneTask);
  j["metadata"]["namespace"] = "team-a";
  EXPECT_EQ(admit(j, offline_, "other").object["metadata"]["namespace"], "team-a");
  EXPECT_EQ(admit(job(kOneTask), offline_, "other").object["metadata"]["namespace"], "other");
}

TEST_F(AdmitObjectTest, QueueWithWeightZeroIsDefaultedToOneAndAllowed) {
  // /queues/mutate turns weight 0 into 1 (spec webhook.md §2.5); /queues/validate has no weight
  // rule.
  Outcome out = admit(json::parse(R"({"apiVersion":"scheduling.volcano.sh/v1beta1",
      "kind":"Queue","metadata":{"name":"q","namespace":"ignored"},"spec":{"weight":0}})"),
                      offline_);
  ASSERT_TRUE(out.allowed) << out.message;
  EXPECT_EQ(out.object["spec"]["weight"], 1);
  EXPECT_EQ(out.object["spec"]["reclaimable"], true);
  EXPECT_FALSE(out.object["metadata"].contains("namespace"));  // cluster-scoped
}

TEST_F(AdmitObjectTest, CreateResetsStatusBeforeValidation) {
  // A bogus state would be denied by validateQueue; the API server drops status on create.
  Outcome out = admit(json::parse(R"({"apiVersion":"scheduling.volcano.sh/v1beta1",
      "kind":"Queue","metadata":{"name":"q"},"spec":{},"status":{"state":"Bogus"}})"),
                      offline_);
  ASSERT_TRUE(out.allowed) << out.message;
  EXPECT_FALSE(out.object.contains("status"));
}

TEST_F(AdmitObjectTest, APatchThatDoesNotApplyFailsTheObjectAsTheApiServerWould) {
  // /queues/mutate adds /spec/reclaimable; without a spec the API server answers "Internal error
  // occurred: add operation does not apply: doc is missing path: "/spec/reclaimable"".
  Outcome out = admit(json::parse(R"({"apiVersion":"scheduling.volcano.sh/v1beta1",
      "kind":"Queue","metadata":{"name":"q"}})"),
                      offline_);
  EXPECT_FALSE(out.allowed);
  EXPECT_EQ(out.denied_by, "/queues/mutate");
  EXPECT_EQ(out.message,
            "the API server would fail the request (Internal error): the patch from "
            "/queues/mutate does not apply: add \"/spec/reclaimable\": key 'spec' not found");
}

TEST_F(AdmitObjectTest, OnlineViewChecksTheQueueState) {
  StaticClusterView view;
  view.add_queue(json::parse(R"({"metadata":{"name":"default"},"status":{"state":"Closed"}})"));
  Outcome out = admit(job(kOneTask), view);
  EXPECT_FALSE(out.allowed);
  EXPECT_EQ(out.message,
            "can only submit job to queue with state `Open`, queue `default` status is `Closed`;");
  EXPECT_TRUE(out.skipped.empty());
}

TEST_F(AdmitObjectTest, OfflinePodGroupReportsBothSkippedLookups) {
  Outcome out = admit(json::parse(R"({"apiVersion":"scheduling.volcano.sh/v1beta1",
      "kind":"PodGroup","metadata":{"name":"pg"},"spec":{"queue":"default","minMember":1}})"),
                      offline_);
  ASSERT_TRUE(out.allowed) << out.message;
  ASSERT_EQ(out.skipped.size(), 2u);
  EXPECT_EQ(out.skipped[0], "the queue annotation of namespace \"default\": no cluster access");
  EXPECT_EQ(out.skipped[1], "the state check of queue \"default\": no cluster access");
}

TEST_F(AdmitObjectTest, GenerateNameIsValidatedWithAPlaceholderSuffix) {
  json j = job(kOneTask);
  j["metadata"].erase("name");
  j["metadata"]["generateName"] = std::string(60, 'a');
  Outcome out = admit(j, offline_);
  EXPECT_FALSE(out.allowed);
  // The name is cut to 58 characters and gets 5 more, as the API server does.
  EXPECT_NE(out.message.find(std::string(58, 'a') + "xxxxx-worker-0"), std::string::npos)
      << out.message;

  j["metadata"]["generateName"] = "train-";
  out = admit(j, offline_);
  ASSERT_TRUE(out.allowed) << out.message;
  EXPECT_FALSE(out.object["metadata"].contains("name"));  // stored objects get a random name
}

TEST_F(AdmitObjectTest, PodAnnotationsAreValidatedForVolcanoPods) {
  Outcome out = admit(json::parse(R"({"apiVersion":"v1","kind":"Pod",
      "metadata":{"name":"p","annotations":{"volcano.sh/jdb-min-available":"0"}},
      "spec":{"schedulerName":"volcano","containers":[{"name":"c","image":"busybox"}]}})"),
                      offline_);
  EXPECT_FALSE(out.allowed);
  EXPECT_EQ(out.message,
            "invalid value <\"0\"> for volcano.sh/jdb-min-available, it must be a positive "
            "integer");
}

TEST(SkippedLookup, RecognisesBothOfflineNotes) {
  EXPECT_EQ(skipped_lookup_text("skipped the parent queue checks: no cluster access"),
            "the parent queue checks: no cluster access");
  EXPECT_EQ(skipped_lookup_text("queue q was not checked: no cluster connection for lookups"),
            "queue q was not checked: no cluster connection for lookups");
  EXPECT_EQ(skipped_lookup_text("resource group \"g\" has an invalid affinity"), "");
}

}  // namespace
}  // namespace vc::webhook::check

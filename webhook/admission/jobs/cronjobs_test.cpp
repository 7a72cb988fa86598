#include <gtest/gtest.h>

#include "webhook/admission/jobs/test_support.h"

namespace vc::webhook::jobs {
namespace {

json cron(json spec, std::string name = "nightly") {
  return {{"metadata", {{"name", std::move(name)}}}, {"spec", std::move(spec)}};
}

AdmissionResponse admit(json object, const std::string& op = "CREATE") {
  StaticClusterView view;
  return admit_cronjobs_validate(testing::request(kCronJobsResource, op, std::move(object)), view,
                                 {});
}

TEST(CronJobsValidate, ValidCronJobIsAllowed) {
  EXPECT_TRUE(admit(cron({{"schedule", "0 0 * * *"}, {"timeZone", "UTC"}})).allowed);
}

TEST(CronJobsValidate, ScheduleMessages) {
  EXPECT_EQ(admit(cron(json::object())).message, "schedule is required, but got empty");
  EXPECT_EQ(
      admit(cron({{"schedule", "CRON_TZ=UTC 0 0 * * *"}})).message,
      "schedule should not contain TZ or CRON_TZ, TZ should only be set in the timeZone field");
  EXPECT_EQ(admit(cron({{"schedule", "bad"}})).message, "schedule is not a valid cron expression");
}

TEST(CronJobsValidate, TimeZoneMessages) {
  const json ok = {{"schedule", "@daily"}};
  json spec = ok;
  spec["timeZone"] = "";
  EXPECT_EQ(admit(cron(spec)).message,
            "timeZone must be nil or non-empty string, got empty string");
  spec["timeZone"] = "local";
  EXPECT_EQ(admit(cron(spec)).message,
            "timeZone can't be Local, and must be defined in https://www.iana.org/time-zones");
  spec["timeZone"] = "New York";
  EXPECT_EQ(admit(cron(spec)).message, "unknown timeZone invalid timeZone");
  spec["timeZone"] = "-a/../b";
  EXPECT_EQ(admit(cron(spec)).message, "unknown timeZone unknown timeZone invalid timeZone");
  spec["timeZone"] = "Nowhere/Zone";
  EXPECT_EQ(admit(cron(spec)).message, "invalid timeZone");
}

TEST(CronJobsValidate, NameMessagesFollowTheSpecPart) {
  EXPECT_EQ(admit(cron({{"schedule", "@daily"}}, std::string(53, 'a'))).message,
            "cronJob name must be no more than 52 characters to accommodate job name suffix (max "
            "63 total)");
  EXPECT_EQ(admit(cron({{"schedule", "bad"}}, "bad name")).message,
            "schedule is not a valid cron expressioninvalid cronJob name \"bad name\": name part "
            "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with "
            "an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used "
            "for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')");
}

TEST(CronJobsValidate, UpdateKeepsTheLeadingSpace) {
  EXPECT_EQ(admit(cron(json::object()), "UPDATE").message, " schedule is required, but got empty");
  EXPECT_TRUE(admit(cron({{"schedule", "@hourly"}}), "UPDATE").allowed);
}

TEST(CronJobsValidate, RequestChecks) {
  EXPECT_EQ(admit(cron({{"schedule", "@daily"}}), "DELETE").message,
            "expect operation to be 'CREATE' or 'UPDATE'");
  StaticClusterView view;
  auto r = admit_cronjobs_validate(testing::request(kJobsResource, "CREATE", cron(json::object())),
                                   view, {});
  EXPECT_EQ(r.message, "expect resource to be {batch.volcano.sh v1alpha1 cronjobs}");
  EXPECT_EQ(admit(cron({{"schedule", 5}})).message,
            "json: cannot unmarshal number into Go struct field CronJobSpec.spec.schedule of type "
            "string");
}

AdmissionResponse admit_flow(json flows, const std::string& op = "CREATE") {
  StaticClusterView view;
  json object = {{"metadata", {{"name", "f"}}}, {"spec", {{"flows", std::move(flows)}}}};
  return admit_jobflows_validate(testing::request(kJobFlowsResource, op, std::move(object)), view,
                                 {});
}

json flow(const std::string& name, std::vector<std::string> targets = {}) {
  json f = {{"name", name}};
  if (!targets.empty()) f["dependsOn"] = {{"targets", targets}};
  return f;
}

TEST(JobFlowsValidate, DagsAreAllowed) {
  EXPECT_TRUE(admit_flow(json::array({flow("a"), flow("b", {"a"}), flow("c", {"a"}),
                                      flow("d", {"b", "c"})}))
                  .allowed);
  EXPECT_TRUE(admit_flow(json::array({flow("a")}), "UPDATE").allowed);
}

TEST(JobFlowsValidate, UnknownTargetsAndCycles) {
  EXPECT_EQ(admit_flow(json::array({flow("a", {"x"}), flow("b", {"y"})})).message,
            "jobflow Flow is not DAG: vertex is not defined: x");
  EXPECT_EQ(admit_flow(json::array({flow("a", {"b"}), flow("b", {"a"})})).message,
            "jobflow Flow is not DAG");
  EXPECT_EQ(admit_flow(json::array({flow("a", {"a"})})).message, "jobflow Flow is not DAG");
  // A repeated name keeps the last definition.
  EXPECT_TRUE(admit_flow(json::array({flow("a", {"a"}), flow("a")})).allowed);
}

TEST(JobFlowsValidate, LongChainsDoNotRecurse) {
  json flows = json::array();
  for (int i = 0; i < 20000; ++i) {
    flows.push_back(i == 0 ? flow("f0")
                           : flow("f" + std::to_string(i), {"f" + std::to_string(i - 1)}));
  }
  EXPECT_TRUE(admit_flow(flows).allowed);
  flows[0]["dependsOn"] = {{"targets", json::array({"f19999"})}};
  EXPECT_EQ(admit_flow(flows).message, "jobflow Flow is not DAG");
}

TEST(JobFlowsValidate, RequestChecks) {
  EXPECT_EQ(admit_flow(json::array(), "DELETE").message,
            "expect operation to be 'CREATE' or 'UPDATE'");
  StaticClusterView view;
  auto r = admit_jobflows_validate(testing::request(kJobsResource, "CREATE", nullptr), view, {});
  EXPECT_EQ(r.message, "expect resource to be {flow.volcano.sh v1alpha1 jobflows}");
}

}  // namespace
}  // namespace vc::webhook::jobs

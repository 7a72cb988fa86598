// plan_sync on plain snapshots: the DAG (a flow runs once its targets' Jobs completed), the
// status lists and histories, the phase rules, retain policy delete.
#include "controllers/jobflow/plan.h"

#include <memory>

#include <gtest/gtest.h>

namespace vc::controllers::jobflow {
namespace {

using nlohmann::json;
using std::chrono::seconds;

const api::TimePoint kNow{seconds(1705312800)};

// A three-step flow with a branch: a, then b and c once a completed.
volcano::JobFlow flow(const std::string& phase = "", const std::string& retain = "retain") {
  json doc = {{"metadata", {{"name", "pipe"}, {"namespace", "ml"}, {"uid", "jf-uid"}}},
              {"spec",
               {{"jobRetainPolicy", retain},
                {"flows", json::array({{{"name", "a"}},
                                       {{"name", "b"}, {"dependsOn", {{"targets", {"a"}}}}},
                                       {{"name", "c"}, {"dependsOn", {{"targets", {"a"}}}}}})}}},
              {"status", {{"state", {{"phase", phase}}}}}};
  volcano::JobFlow out;
  volcano::decode_job_flow(doc, out);
  return out;
}

std::shared_ptr<volcano::Job> job(const std::string& name, const std::string& phase) {
  auto j = std::make_shared<volcano::Job>();
  j->name = name;
  j->namespace_ = "ml";
  j->status.phase = phase;
  j->creation_timestamp = kNow - seconds(60);
  return j;
}

struct Fixture {
  volcano::JobFlow jf;
  std::vector<std::shared_ptr<volcano::Job>> jobs;
  std::map<std::string, JobTemplateView> templates;

  Fixture(volcano::JobFlow f, std::vector<std::shared_ptr<volcano::Job>> js)
      : jf(std::move(f)), jobs(std::move(js)) {
    for (const char* t : {"a", "b", "c"}) {
      templates[t].name = t;
      templates[t].spec = {{"queue", std::string("q-") + t}};
    }
  }
  Snapshot snapshot() const {
    Snapshot s;
    s.flow = &jf;
    s.now = kNow;
    for (const auto& j : jobs) {
      s.jobs_by_name[j->name] = j.get();
      s.flow_jobs.push_back(j.get());
    }
    for (const auto& [name, t] : templates) s.templates[name] = &t;
    return s;
  }
};

std::vector<std::string> created(const Plan& p) {
  std::vector<std::string> out;
  for (const auto& c : p.creates) out.push_back(c.name);
  return out;
}

TEST(JobFlowPlan, ANewFlowStartsItsRoots) {
  const Fixture f(flow(), {});
  const Plan p = plan_sync(f.snapshot());
  EXPECT_EQ(created(p), std::vector<std::string>{"pipe-a"});
  const json& j = p.creates.at(0).job;
  EXPECT_EQ(j["metadata"]["labels"][kCreatedByJobFlow], "ml.pipe");
  EXPECT_EQ(j["metadata"]["labels"][kCreatedByJobTemplate], "ml.a");
  EXPECT_EQ(j["metadata"]["annotations"], j["metadata"]["labels"]);
  EXPECT_EQ(j["metadata"]["ownerReferences"][0]["kind"], "JobFlow");
  EXPECT_EQ(j["metadata"]["ownerReferences"][0]["controller"], true);
  EXPECT_EQ(j["spec"], (json{{"queue", "q-a"}}));
  EXPECT_EQ(p.status.phase, "Pending");
  EXPECT_TRUE(p.status_changed);
}

TEST(JobFlowPlan, TheBranchRunsOnceItsTargetCompleted) {
  EXPECT_TRUE(
      plan_sync(Fixture(flow("Running"), {job("pipe-a", "Running")}).snapshot()).creates.empty());
  const Plan p = plan_sync(Fixture(flow("Running"), {job("pipe-a", "Completed")}).snapshot());
  EXPECT_EQ(created(p), (std::vector<std::string>{"pipe-b", "pipe-c"}));
}

// The Jobs cache lags our create of the root's Job: the branches that depend on it only wait
// (the root's create is planned again, under the same name, and meets AlreadyExists); nothing is
// reported failed or missing.
TEST(JobFlowPlan, ATargetTheCacheLacksOnlyHoldsItsDependents) {
  const Plan p = plan_sync(Fixture(flow("Running"), {}).snapshot());
  EXPECT_TRUE(p.act);
  EXPECT_EQ(p.error, "");
  EXPECT_EQ(created(p), std::vector<std::string>{"pipe-a"});
  EXPECT_TRUE(p.deletes.empty());
  EXPECT_EQ(p.status.phase, "Running");
  EXPECT_FALSE(p.became_failed);
}

// A status written from a newer cache recorded pipe-a in jobStatusList; a sync on a Jobs cache
// that lacks pipe-a keeps that entry as it was (entries are never removed).
TEST(JobFlowPlan, AJobTheCacheLacksKeepsItsJobStatusListEntry) {
  Fixture f(flow("Running"), {job("pipe-b", "Running")});
  const volcano::FlowJobStatus recorded{
      .name = "pipe-a",
      .state = "Completed",
      .start_timestamp = kNow - seconds(60),
      .end_timestamp = kNow - seconds(10),
      .restart_count = 0,
      .running_histories = {
          {.start_timestamp = kNow - seconds(60), .end_timestamp = {}, .state = "Completed"}}};
  f.jf.status.job_status_list = {recorded};
  const Plan p = plan_sync(f.snapshot());
  ASSERT_EQ(p.status.job_status_list.size(), 2u);
  EXPECT_EQ(p.status.job_status_list[0], recorded);
  EXPECT_EQ(p.status.job_status_list[1].name, "pipe-b");
}

TEST(JobFlowPlan, AMissingTemplateStopsAfterTheJobsBeforeIt) {
  Fixture f(flow("Running"), {job("pipe-a", "Completed")});
  f.templates.erase("c");
  const Plan p = plan_sync(f.snapshot());
  EXPECT_EQ(created(p), std::vector<std::string>{"pipe-b"});
  EXPECT_EQ(p.error, "jobtemplate.flow.volcano.sh \"c\" not found");
}

TEST(JobFlowPlan, StatusListsConditionsAndHistories) {
  auto a = job("pipe-a", "Completed");
  a->status.running_duration = "1m30s";
  a->status.retry_count = 2;
  const Plan p = plan_sync(
      Fixture(flow("Running"), {a, job("pipe-b", "Aborted"), job("pipe-c", "Terminating")})
          .snapshot());
  EXPECT_EQ(p.status.completed_jobs, std::vector<std::string>{"pipe-a"});
  EXPECT_EQ(p.status.unknown_jobs, std::vector<std::string>{"pipe-b"});
  EXPECT_TRUE(p.status.running_jobs.empty());  // Terminating is in no list
  ASSERT_EQ(p.status.job_status_list.size(), 3u);
  const auto& first = p.status.job_status_list[0];
  EXPECT_EQ(first.restart_count, 2);
  EXPECT_EQ(first.end_timestamp, kNow - seconds(60) + seconds(90));
  ASSERT_EQ(first.running_histories.size(), 1u);
  EXPECT_EQ(first.running_histories[0].start_timestamp, kNow);
  EXPECT_EQ(p.status.conditions.at("pipe-a").running_duration, seconds(90));
}

TEST(JobFlowPlan, AHistoryGrowsWhenTheJobsPhaseChanges) {
  volcano::JobFlowStatus old;
  old.job_status_list.push_back(
      {.name = "pipe-a",
       .state = "Running",
       .start_timestamp = {},
       .end_timestamp = {},
       .restart_count = 0,
       .running_histories = {
           {.start_timestamp = kNow - seconds(30), .end_timestamp = {}, .state = "Running"}}});
  const auto st = flow_status(old, {job("pipe-a", "Completed").get()}, kNow);
  ASSERT_EQ(st.job_status_list.at(0).running_histories.size(), 2u);
  EXPECT_EQ(st.job_status_list[0].running_histories[0].end_timestamp, kNow);
  EXPECT_EQ(st.job_status_list[0].running_histories[1].state, "Completed");
  // The same phase again adds nothing.
  const auto again = flow_status(st, {job("pipe-a", "Completed").get()}, kNow + seconds(5));
  EXPECT_EQ(again.job_status_list, st.job_status_list);
}

TEST(JobFlowPlan, PhaseRules) {
  const auto phase_after = [](const std::string& from,
                              std::vector<std::shared_ptr<volcano::Job>> js) {
    return plan_sync(Fixture(flow(from), std::move(js)).snapshot());
  };
  EXPECT_EQ(phase_after("", {job("pipe-a", "Running")}).status.phase, "Running");
  const Plan failed = phase_after("Pending", {job("pipe-a", "Failed")});
  EXPECT_EQ(failed.status.phase, "Failed");
  EXPECT_TRUE(failed.became_failed);
  const Plan done = phase_after("Running", {job("pipe-a", "Completed"), job("pipe-b", "Completed"),
                                            job("pipe-c", "Completed")});
  EXPECT_EQ(done.status.phase, "Succeed");
  EXPECT_TRUE(done.became_succeed);
  const Plan running_failed =
      phase_after("Running", {job("pipe-a", "Completed"), job("pipe-b", "Failed")});
  EXPECT_EQ(running_failed.status.phase, "Failed");
  EXPECT_FALSE(running_failed.became_failed);  // Volcano counts only Pending -> Failed
  EXPECT_FALSE(phase_after("Failed", {}).act);
  EXPECT_FALSE(phase_after("Terminating", {}).act);
  EXPECT_EQ(phase_after("Weird", {}).error, "jobflow pipe state {Weird} is invalid");
}

TEST(JobFlowPlan, ASucceededFlowWithRetainPolicyDeleteDeletesItsJobs) {
  const Plan p = plan_sync(
      Fixture(flow("Succeed", "delete"), {job("pipe-a", "Completed"), job("pipe-b", "Completed")})
          .snapshot());
  EXPECT_EQ(p.deletes, (std::vector<std::string>{"pipe-a", "pipe-b"}));
  EXPECT_TRUE(p.creates.empty());
  EXPECT_FALSE(p.status_changed);
  // With retain, a Succeed flow only refreshes its status.
  EXPECT_TRUE(
      plan_sync(Fixture(flow("Succeed"), {job("pipe-a", "Completed")}).snapshot()).deletes.empty());
}

}  // namespace
}  // namespace vc::controllers::jobflow

#include "controllers/job/derive/min_resources.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "controllers/job/derive/test_jobs.h"

namespace vc::controllers::job {
namespace {

using nlohmann::json;
using testing::cpu_template;
using testing::make_job;
using testing::make_task;
using testing::with_template;

std::map<std::string, std::string> printed(const api::ResourceList& list) {
  std::map<std::string, std::string> out;
  for (const auto& [name, q] : list) out[name] = q.to_string();
  return out;
}

// The shape of every expectation in Volcano's vectors: cpu and requests.cpu in millicores,
// pods and count/pods.
std::map<std::string, std::string> cpu_pods(const std::string& cpu, const std::string& pods) {
  return {{"count/pods", pods}, {"cpu", cpu}, {"pods", pods}, {"requests.cpu", cpu}};
}

// Volcano's fixture tasks: master and worker, 2 replicas each, 50m and 100m.
TaskUsage master(std::int32_t priority, std::optional<std::int32_t> min) {
  return {priority, 2, min, pod_quota_usage(cpu_template("50m")["spec"])};
}
TaskUsage worker(std::int32_t priority, std::optional<std::int32_t> min) {
  return {priority, 2, min, pod_quota_usage(cpu_template("100m")["spec"])};
}

TEST(TemplatePodQuotaUsage, CountsPodsAndCpuRequestUnderBothNames) {
  EXPECT_EQ(printed(pod_quota_usage(cpu_template("50m")["spec"])), cpu_pods("50m", "1"));
}

TEST(TemplatePodQuotaUsage, CoversLimitsHugepagesAndExtendedResourcesWithUnprefixedCopy) {
  json spec = {{"containers",
                {{{"name", "a"},
                  {"resources",
                   {{"requests",
                     {{"cpu", "1"},
                      {"memory", "1Gi"},
                      {"ephemeral-storage", "2Gi"},
                      {"hugepages-2Mi", "4Mi"},
                      {"nvidia.com/gpu", "2"}}},
                    {"limits", {{"cpu", "2"}, {"memory", "2Gi"}, {"nvidia.com/gpu", "2"}}}}}}}}};
  EXPECT_EQ(printed(pod_quota_usage(spec)), (std::map<std::string, std::string>{
                                                {"count/pods", "1"},
                                                {"cpu", "1"},
                                                {"ephemeral-storage", "2Gi"},
                                                {"hugepages-2Mi", "4Mi"},
                                                {"limits.cpu", "2"},
                                                {"limits.memory", "2Gi"},
                                                {"memory", "1Gi"},
                                                {"nvidia.com/gpu", "2"},
                                                {"pods", "1"},
                                                {"requests.cpu", "1"},
                                                {"requests.ephemeral-storage", "2Gi"},
                                                {"requests.hugepages-2Mi", "4Mi"},
                                                {"requests.memory", "1Gi"},
                                                {"requests.nvidia.com/gpu", "2"},
                                            }));
}

TEST(TemplatePodQuotaUsage, EmptySpecCountsOnlyThePod) {
  EXPECT_EQ(printed(pod_quota_usage(json::object())),
            (std::map<std::string, std::string>{{"count/pods", "1"}, {"pods", "1"}}));
}

// Volcano's TestTaskPriority_CalcPGMin (job_controller_util_test.go@v1.15.1): the inputs after
// its own patching (a nil task minAvailable becomes replicas, a job minimum of 0 becomes the
// sum of task minimums).
struct CalcPgMinCase {
  const char* name;
  TaskUsage first;
  TaskUsage second;
  std::int32_t job_min;
  const char* cpu;
  const char* pods;
};

TEST(MinThenSpareResources, MatchesVolcanoCalcPgMinVectors) {
  const CalcPgMinCase cases[] = {
      {"min 0 -> 2, 1+1", master(0, 1), worker(0, 1), 2, "150m", "2"},
      {"min 0 -> 3, master nil, worker 1", master(2, 2), worker(0, 1), 3, "200m", "3"},
      {"min 3, master nil, worker 1", master(0, 2), worker(0, 1), 3, "200m", "3"},
      {"min 3, master 1, worker nil", master(0, 1), worker(0, 2), 3, "250m", "3"},
      {"min 2, 1+1", master(0, 1), worker(0, 1), 2, "150m", "2"},
      {"min 3, 1+1, master high", master(2, 1), worker(0, 1), 3, "200m", "3"},
      {"min 3, 1+1, worker high", master(0, 1), worker(2, 1), 3, "250m", "3"},
      {"min 3, master 0, worker 1, worker high", master(0, 0), worker(2, 1), 3, "250m", "3"},
      {"min 4, master nil, worker 1, worker high", master(0, 2), worker(2, 1), 4, "300m", "4"},
      {"min 4, 1+1, worker high", master(0, 1), worker(2, 1), 4, "300m", "4"},
      {"min 2, master nil, worker 1, master high", master(2, 2), worker(0, 1), 2, "100m", "2"},
      {"min 2, master nil, worker 1, worker high", master(0, 2), worker(2, 1), 2, "150m", "2"},
      {"min 2, master 1, worker nil", master(0, 1), worker(0, 2), 2, "150m", "2"},
  };
  for (const CalcPgMinCase& c : cases) {
    EXPECT_EQ(printed(min_then_spare_resources({c.first, c.second}, c.job_min)),
              cpu_pods(c.cpu, c.pods))
        << c.name;
  }
}

// Volcano's TestCalcPGMinResources: the whole job path, master then worker, no priorities.
TEST(JobMinResources, MatchesVolcanoCalcPgMinResourcesVectors) {
  struct Case {
    std::int32_t job_min;
    std::int32_t master_min;
    std::int32_t worker_min;
    const char* cpu;
    const char* pods;
  };
  const Case cases[] = {
      {2, 1, 2, "100m", "2"},  // job min < Σ task min: the first two pods by priority
      {2, 2, 1, "100m", "2"}, {3, 2, 2, "200m", "3"},
      {3, 1, 1, "200m", "3"},  // job min > Σ task min: task minimums, then spare replicas
      {3, 1, 2, "250m", "3"},  // equal
      {2, 1, 1, "150m", "2"},
  };
  for (const Case& c : cases) {
    Job job = make_job();
    job.spec.min_available = c.job_min;
    job.spec.tasks = {make_task("master", 2, "50m", c.master_min),
                      make_task("worker", 2, "100m", c.worker_min)};
    EXPECT_EQ(printed(job_min_resources(job, nullptr)), cpu_pods(c.cpu, c.pods))
        << "job min " << c.job_min << ", task mins " << c.master_min << "/" << c.worker_min;
  }
}

TEST(JobMinResources, UsesReplicasForFirstCountWhenJobMinIsBelowTaskMinimums) {
  // Σ(minAvailable ?? replicas) = 4 > 3, so the first 3 pods count whole tasks by replicas:
  // both masters (minAvailable 1 notwithstanding) and one worker.
  Job job = make_job();
  job.spec.min_available = 3;
  job.spec.tasks = {make_task("master", 2, "50m", 1), make_task("worker", 3, "100m")};
  EXPECT_EQ(printed(job_min_resources(job, nullptr)), cpu_pods("200m", "3"));
}

TEST(JobMinResources, OrdersTasksByPriorityClassValueAndTreatsUnknownClassAsZero) {
  Job job = make_job();
  job.spec.min_available = 2;
  json low = cpu_template("50m");
  low["spec"]["priorityClassName"] = "missing";
  json high = cpu_template("100m");
  high["spec"]["priorityClassName"] = "high";
  job.spec.tasks = {with_template(make_task("a", 2), low), with_template(make_task("b", 2), high)};
  int lookups = 0;
  PriorityOf priority_of = [&](const std::string& name) -> std::optional<std::int32_t> {
    ++lookups;
    if (name == "high") return 1000;
    return std::nullopt;
  };
  // Σ replicas 4 > 2: the first two pods by priority are both of task b.
  EXPECT_EQ(printed(job_min_resources(job, priority_of)), cpu_pods("200m", "2"));
  EXPECT_EQ(lookups, 2);
}

TEST(JobMinResources, ZeroJobMinimumGivesAnEmptyList) {
  Job job = make_job();
  job.spec.tasks = {make_task("a", 2, "50m")};
  EXPECT_TRUE(job_min_resources(job, nullptr).empty());
}

TEST(JobMinResources, SinglePodKeepsTheTemplateTextAndSumsPrintCanonically) {
  Job job = make_job();
  job.spec.min_available = 1;
  job.spec.tasks = {make_task("a", 1, "0.5")};
  EXPECT_EQ(job_min_resources(job, nullptr).at("cpu").to_string(),
            api::Quantity::must_parse("0.5").to_string());
  job.spec.min_available = 2;
  job.spec.tasks = {make_task("a", 2, "500m")};
  EXPECT_EQ(job_min_resources(job, nullptr).at("cpu").to_string(), "1");
}

TEST(JobMinResources, MalformedQuantityInATemplateThrows) {
  Job job = make_job();
  job.spec.min_available = 1;
  job.spec.tasks = {make_task("a", 1, "not-a-quantity")};
  EXPECT_THROW(job_min_resources(job, nullptr), std::invalid_argument);
}

TEST(JobMinResources, EqualTemplatesOfDifferentJobsAreOneDocument) {
  const TaskSpec a = make_task("a", 1, "250m");
  const TaskSpec b = make_task("b", 3, "250m");
  const TaskSpec c = make_task("c", 1, "500m");
  EXPECT_EQ(a.pod_template.shared(), b.pod_template.shared());
  EXPECT_NE(a.pod_template.shared(), c.pod_template.shared());
  Job job = make_job();
  job.spec.min_available = 4;
  job.spec.tasks = {a, b};
  EXPECT_EQ(job_min_resources(job, nullptr).at("cpu").to_string(), "1");
}

TEST(FirstCountResources, StopsAtCountAndSkipsNothingForZero) {
  EXPECT_TRUE(first_count_resources({master(0, 1), worker(0, 1)}, 0).empty());
  EXPECT_EQ(printed(first_count_resources({master(0, 1), worker(5, 1)}, 3)), cpu_pods("250m", "3"));
}

}  // namespace
}  // namespace vc::controllers::job

#include "controllers/job/state/current_pod.h"

#include <gtest/gtest.h>

#include "controllers/job/sync/test_fixtures.h"

namespace vc::controllers::job {
namespace {

using sync_test::make_job;
using sync_test::PodBuilder;

// PodBuilder's pods carry job version 0; the job has moved on to version 2 (two full kills).
struct CountsForTaskTest : ::testing::Test {
  Job job = make_job();
  CountsForTaskTest() { job.status.version = 2; }
  views::PodViewPtr current(std::string_view phase) {
    return PodBuilder(job, "a", 0, phase).annotate(keys::kJobVersion, "2");
  }
};

TEST_F(CountsForTaskTest, PodsOfTheCurrentVersionCount) {
  for (std::string_view phase : {"Pending", "Running", "Succeeded", "Failed", "Unknown"}) {
    EXPECT_TRUE(counts_for_task(job, *current(phase))) << phase;
  }
}

TEST_F(CountsForTaskTest, TerminatingPodsNeverCount) {
  EXPECT_FALSE(counts_for_task(
      job,
      *PodBuilder(job, "a", 0, "Running").annotate(keys::kJobVersion, "2").deleting().build()));
  EXPECT_FALSE(counts_for_task(job, *PodBuilder(job, "a", 0, "Succeeded").deleting().build()));
}

TEST_F(CountsForTaskTest, UnfinishedPodsOfAnOlderVersionDoNotCount) {
  EXPECT_FALSE(counts_for_task(job, *PodBuilder(job, "a", 0, "Running").build()));
  EXPECT_FALSE(counts_for_task(job, *PodBuilder(job, "a", 0, "Pending").build()));
}

TEST_F(CountsForTaskTest, FinishedPodsOfAnOlderVersionCountAsASoftKillRetainsThem) {
  EXPECT_TRUE(counts_for_task(job, *PodBuilder(job, "a", 0, "Succeeded").build()));
  EXPECT_TRUE(counts_for_task(job, *PodBuilder(job, "a", 0, "Failed").build()));
}

TEST_F(CountsForTaskTest, NewerOrUnreadableVersionsCount) {
  EXPECT_TRUE(counts_for_task(
      job, *PodBuilder(job, "a", 0, "Running").annotate(keys::kJobVersion, "3").build()));
  EXPECT_TRUE(counts_for_task(
      job, *PodBuilder(job, "a", 0, "Running").drop_annotation(keys::kJobVersion).build()));
}

TEST(PodJobVersion, ParsesAsGoParsesAnInt32) {
  Job job = make_job();
  const std::vector<std::pair<std::string, std::optional<std::int32_t>>> cases = {
      {"0", 0},          {"+7", 7}, {"-3", -3}, {"2147483648", std::nullopt}, {"+-1", std::nullopt},
      {"", std::nullopt}};
  for (const auto& [text, expected] : cases) {
    EXPECT_EQ(pod_job_version(*PodBuilder(job, "a", 0).annotate(keys::kJobVersion, text).build()),
              expected)
        << "'" << text << "'";
  }
  EXPECT_EQ(pod_job_version(*PodBuilder(job, "a", 0).drop_annotation(keys::kJobVersion).build()),
            std::nullopt);
}

}  // namespace
}  // namespace vc::controllers::job

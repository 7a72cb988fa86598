// The JobTemplate controller's decisions on plain data: which label values name a template, and
// when status.jobDependsOnList is written.
#include "controllers/jobtemplate/plan.h"

#include <gtest/gtest.h>

namespace vc::controllers::jobtemplate {
namespace {

volcano::Job job(const std::string& name, const std::string& mark) {
  volcano::Job j;
  j.name = name;
  j.namespace_ = "ml";
  if (!mark.empty()) j.labels.emplace_back(kCreatedByJobTemplate, mark);
  return j;
}

TEST(JobTemplateKey, ExactlyTwoPartsNameATemplate) {
  EXPECT_EQ(template_key_of(job("j", "ml.train")), "ml/train");
  EXPECT_EQ(template_key_of(job("j", "")), std::nullopt);
  EXPECT_EQ(template_key_of(job("j", "train")), std::nullopt);
  EXPECT_EQ(template_key_of(job("j", "ml.train.v2")), std::nullopt);
  EXPECT_EQ(template_key_of(job("j", ".train")), std::nullopt);
  EXPECT_EQ(template_key_of(job("j", "ml.")), std::nullopt);
}

TEST(JobTemplatePlan, ListsTheTemplatesJobsSortedByName) {
  const auto b = job("flow-b", "ml.train");
  const auto other = job("flow-x", "ml.eval");
  const auto bare = job("plain", "");
  const auto a = job("flow-a", "ml.train");
  const auto got = plan_depends_on("ml", "train", {}, {&b, &other, &bare, &a});
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(*got, (std::vector<std::string>{"flow-a", "flow-b"}));
}

TEST(JobTemplatePlan, NoJobsOrAnUnchangedListWritesNothing) {
  const auto other = job("flow-x", "ml.eval");
  EXPECT_EQ(plan_depends_on("ml", "train", {"old"}, {&other}), std::nullopt);
  const auto a = job("flow-a", "ml.train");
  EXPECT_EQ(plan_depends_on("ml", "train", {"flow-a"}, {&a}), std::nullopt);
  EXPECT_EQ(plan_depends_on("ml", "train", {"flow-a", "gone"}, {&a}),
            (std::vector<std::string>{"flow-a"}));
}

// The template's cache holds the list as it was before our last status write (or older): a
// stored list can only stop a write when it is already the whole list, so a Job made since is
// always written.
TEST(JobTemplatePlan, AStaleStoredListCannotHideANewJob) {
  const auto a = job("flow-a", "ml.train");
  const auto b = job("flow-b", "ml.train");
  EXPECT_EQ(plan_depends_on("ml", "train", {"flow-a"}, {&a, &b}),
            (std::vector<std::string>{"flow-a", "flow-b"}));
  EXPECT_EQ(plan_depends_on("ml", "train", {}, {&b, &a}),
            (std::vector<std::string>{"flow-a", "flow-b"}));
  EXPECT_EQ(plan_depends_on("ml", "train", {"flow-b"}, {&a, &b}),
            (std::vector<std::string>{"flow-a", "flow-b"}));
}

TEST(JobTemplatePlan, TheCachesOrderDoesNotCauseAWrite) {
  const auto a = job("flow-a", "ml.train");
  const auto b = job("flow-b", "ml.train");
  EXPECT_EQ(plan_depends_on("ml", "train", {"flow-a", "flow-b"}, {&b, &a}), std::nullopt);
  EXPECT_EQ(plan_depends_on("ml", "train", {"flow-a", "flow-b"}, {&a, &b}), std::nullopt);
}

}  // namespace
}  // namespace vc::controllers::jobtemplate

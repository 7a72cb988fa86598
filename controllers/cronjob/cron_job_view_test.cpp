// cron_job_view_transform on API-server-shaped CronJobs: the job template's spec is kept as text
// that gives back the stored document.
#include "controllers/cronjob/cron_job_view.h"

#include <gtest/gtest.h>

namespace vc::controllers::cronjob {
namespace {

using nlohmann::json;

json cron_job(json job_template) {
  json doc = {{"apiVersion", "batch.volcano.sh/v1alpha1"},
              {"kind", "CronJob"},
              {"metadata", {{"name", "nightly"}, {"namespace", "ml"}, {"uid", "u"}}},
              {"spec", {{"schedule", "* * * * *"}}}};
  if (!job_template.is_null()) doc["spec"]["jobTemplate"] = std::move(job_template);
  return doc;
}

std::shared_ptr<const CronJobView> view_of(json doc) {
  return as_cron_job(cron_job_view_transform().fn(std::move(doc)));
}

TEST(CronJobView, KeepsTheTemplateSpecAsTextOfTheStoredDocument) {
  const json spec = json::parse(R"({
    "queue": "default", "minAvailable": 2, "unknownField": {"kept": true}, "weight": 1.5,
    "tasks": [{"name": "w", "replicas": 2, "template": {"spec": {"containers": [
      {"name": "c", "image": "busybox", "args": ["a\"b", "\u00fc"]}]}}}]
  })");
  const auto view = view_of(cron_job({{"spec", spec}}));
  ASSERT_NE(view, nullptr);
  EXPECT_EQ(json::parse(view->job_template_spec), spec);
  EXPECT_EQ(view->job_template_spec.find('\n'), std::string::npos) << "compact";
}

TEST(CronJobView, NoTemplateSpecIsEmpty) {
  const auto without_template = view_of(cron_job(nullptr));
  ASSERT_NE(without_template, nullptr);
  EXPECT_TRUE(without_template->job_template_spec.empty());
  const auto without_spec = view_of(cron_job({{"metadata", {{"labels", {{"a", "b"}}}}}}));
  ASSERT_NE(without_spec, nullptr);
  EXPECT_TRUE(without_spec->job_template_spec.empty());
}

}  // namespace
}  // namespace vc::controllers::cronjob

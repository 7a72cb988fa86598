#include "common/volcano/job_template.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace vc::volcano {
namespace {

using nlohmann::json;
using testing::StrEq;
using testing::ThrowsMessage;

json preprocess_template() {
  return json::parse(R"({
    "apiVersion": "flow.volcano.sh/v1alpha1",
    "kind": "JobTemplate",
    "metadata": {"name": "preprocess", "namespace": "ml", "uid": "jt-1"},
    "spec": {
      "minAvailable": 1,
      "policies": [{"event": "PodEvicted", "action": "RestartJob"}],
      "plugins": {"env": [], "svc": ["--publish-not-ready-addresses=true"]},
      "tasks": [{"name": "main", "replicas": 1, "maxRetry": 2,
                 "template": {"spec": {"restartPolicy": "Never",
                                       "containers": [{"name": "c", "image": "busybox"}]}}}]
    },
    "status": {"jobDependsOnList": ["flow1-preprocess", "flow2-preprocess"]}
  })");
}

TEST(DecodeJobTemplate, ReadsTheJobSpecAndTheDependentJobs) {
  JobTemplate jt;
  decode_job_template(preprocess_template(), jt);
  EXPECT_EQ(jt.namespace_, "ml");
  EXPECT_EQ(jt.name, "preprocess");
  EXPECT_EQ(jt.spec.min_available, 1);
  ASSERT_EQ(jt.spec.policies.size(), 1u);
  EXPECT_EQ(jt.spec.policies[0].event, "PodEvicted");
  EXPECT_EQ(jt.spec.policies[0].action, "RestartJob");
  EXPECT_EQ(jt.spec.plugins, (decltype(jt.spec.plugins){
                                 {"env", {}}, {"svc", {"--publish-not-ready-addresses=true"}}}));
  ASSERT_EQ(jt.spec.tasks.size(), 1u);
  EXPECT_EQ(jt.spec.tasks[0].max_retry, 2);
  EXPECT_EQ(jt.spec.tasks[0].template_json()["spec"]["restartPolicy"], "Never");
  EXPECT_EQ(jt.status.job_depends_on_list,
            (std::vector<std::string>{"flow1-preprocess", "flow2-preprocess"}));
}

TEST(DecodeJobTemplate, ErrorsNameTheField) {
  json doc = preprocess_template();
  doc["status"]["jobDependsOnList"][1] = true;
  EXPECT_THAT(
      [&] {
        JobTemplate jt;
        decode_job_template(doc, jt);
      },
      ThrowsMessage<DecodeError>(
          StrEq("status.jobDependsOnList[1]: expected a string, got boolean")));
  doc = preprocess_template();
  doc["spec"]["policies"][0]["timeout"] = "5x";
  EXPECT_THAT(
      [&] {
        JobTemplate jt;
        decode_job_template(doc, jt);
      },
      ThrowsMessage<DecodeError>(
          StrEq("spec.policies[0].timeout: time: unknown unit \"x\" in duration \"5x\"")));
}

// As printed by Go's encoding/json: jobDependsOnList is omitempty, so an empty status is {}.
TEST(EncodeJobTemplateStatus, MatchesGo) {
  EXPECT_EQ(encode_job_template_status(JobTemplateStatus{}), json::object());
  EXPECT_EQ(encode_job_template_status({{"flow1-preprocess"}}),
            json::parse(R"({"jobDependsOnList": ["flow1-preprocess"]})"));
  JobTemplate jt;
  decode_job_template(preprocess_template(), jt);
  EXPECT_EQ(encode_job_template_status(jt.status), preprocess_template()["status"]);
}

}  // namespace
}  // namespace vc::volcano

// explain -f: the webhook's rules on a manifest's Job, and the chain around the answer.
#include "controllers/explain/admission.h"

#include <gtest/gtest.h>

#include "controllers/explain/render.h"

namespace vc::controllers::explain {
namespace {

using nlohmann::json;

constexpr const char* kManifest = R"(apiVersion: v1
kind: Namespace
metadata: {name: team}
---
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: ray, namespace: team}
spec:
  minAvailable: 4
  queue: default
  tasks:
  - name: worker
    replicas: 3
    template:
      spec:
        containers: [{name: w, image: busybox}]
)";

webhook::StaticClusterView open_default_queue() {
  webhook::StaticClusterView view;
  view.add_queue({{"apiVersion", "scheduling.volcano.sh/v1beta1"},
                  {"kind", "Queue"},
                  {"metadata", {{"name", "default"}}},
                  {"spec", {{"weight", 1}}},
                  {"status", {{"state", "Open"}}}});
  view.add_namespace({{"metadata", {{"name", "team"}}}});
  return view;
}

TEST(JobInManifest, PicksTheOnlyJobOrTheNamedOne) {
  auto job = job_in_manifest(kManifest, "");
  ASSERT_TRUE(job) << job.error();
  EXPECT_EQ((*job)["metadata"]["name"], "ray");
  EXPECT_EQ(job_in_manifest(kManifest, "other").error(),
            "no Volcano Job named other in the manifest");
  EXPECT_EQ(job_in_manifest("apiVersion: v1\nkind: Pod\n", "").error(),
            "no Volcano Job (batch.volcano.sh/v1alpha1) in the manifest");
  const std::string two = std::string(kManifest) + "---\n" +
                          "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: b}\n";
  EXPECT_EQ(job_in_manifest(two, "").error(),
            "the manifest has 2 Volcano Jobs: name the one to explain");
  EXPECT_TRUE(job_in_manifest(two, "b"));
  EXPECT_NE(job_in_manifest("a: [unclosed", "").error().find("document 1"), std::string::npos);
}

TEST(AdmitJob, ADeniedJobStopsAtAdmissionWithTheWebhooksMessage) {
  const webhook::StaticClusterView view = open_default_queue();
  const Admission a = admit_job(*job_in_manifest(kManifest, ""), view, "default");
  EXPECT_FALSE(a.allowed);
  EXPECT_EQ(a.namespace_, "team");
  EXPECT_EQ(a.denied_by, "/jobs/validate");
  EXPECT_EQ(a.message, "job 'minAvailable' should not be greater than total replicas in tasks;");
  const Explanation x = denied_explanation(a);
  EXPECT_EQ(x.verdict, Verdict::ConfigurationError);
  EXPECT_EQ(exit_code(x.verdict), 4);
  ASSERT_EQ(x.stop, 0);
  EXPECT_EQ(x.chain[0].name, "Admission");
  EXPECT_EQ(x.chain.back().state, LinkState::NotReached);
  EXPECT_NE(render_text(x).find("STOP Admission"), std::string::npos) << render_text(x);
}

TEST(AdmitJob, AnAdmittedJobLeadsTheLiveChain) {
  const webhook::StaticClusterView view = open_default_queue();
  json job = *job_in_manifest(kManifest, "");
  job["spec"]["minAvailable"] = 3;
  const Admission a = admit_job(job, view, "default");
  ASSERT_TRUE(a.allowed) << a.message;
  const Explanation missing = not_created_explanation(a);
  EXPECT_EQ(missing.verdict, Verdict::Progressing);
  EXPECT_EQ(missing.headline, "the webhook admits it; it is not in the cluster yet");

  Explanation live;
  live.chain = {Link{"Job", LinkState::Through, "", "", {}, ""},
                Link{"PodGroup", LinkState::Broken, "", "", {}, ""}};
  live.stop = 1;
  const Explanation x = with_admission(live, a);
  ASSERT_EQ(x.chain.size(), 3u);
  EXPECT_EQ(x.chain[0].name, "Admission");
  EXPECT_EQ(x.chain[0].state, LinkState::Through);
  EXPECT_EQ(x.stop, 2);
}

}  // namespace
}  // namespace vc::controllers::explain

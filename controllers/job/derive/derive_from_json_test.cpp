// The derivations on a Job decoded by the model (model/job_json.h) from the JSON the API server
// sends, so the two modules agree on what the typed fields hold.
#include <gtest/gtest.h>

#include "controllers/job/derive/pod.h"
#include "controllers/job/derive/podgroup.h"
#include "controllers/job/derive/pvc.h"
#include "controllers/job/model/job_json.h"

namespace vc::controllers::job {
namespace {

using nlohmann::json;

const json kJob = json::parse(R"({
  "apiVersion": "batch.volcano.sh/v1alpha1", "kind": "Job",
  "metadata": {"name": "llm", "namespace": "team-a", "uid": "u-42", "resourceVersion": "9",
               "labels": {"volcano.sh/preemptable": "true"},
               "annotations": {"volcano.sh/jdb-max-unavailable": "1"}},
  "spec": {
    "schedulerName": "volcano", "queue": "gpu", "minAvailable": 3, "maxRetry": 3,
    "priorityClassName": "batch",
    "networkTopology": {"mode": "hard", "highestTierAllowed": 2},
    "volumes": [{"mountPath": "/ckpt", "volumeClaimName": "ckpt"},
                {"mountPath": "/scratch", "volumeClaim": {"accessModes": ["ReadWriteOnce"],
                 "resources": {"requests": {"storage": "1Gi"}}}}],
    "tasks": [
      {"name": "head", "replicas": 1, "minAvailable": 1,
       "template": {"metadata": {"labels": {"role": "head"}},
                    "spec": {"priorityClassName": "urgent", "restartPolicy": "OnFailure",
                             "containers": [{"name": "c", "image": "ray",
                               "resources": {"requests": {"cpu": "2", "nvidia.com/gpu": "1"}}}]}}},
      {"name": "worker", "replicas": 4,
       "partitionPolicy": {"totalPartitions": 2, "partitionSize": 2, "minPartitions": 1},
       "topologyPolicy": "single-numa-node",
       "template": {"spec": {"containers": [{"name": "c", "image": "ray",
                               "resources": {"requests": {"cpu": "1"}}}]}}}
    ]
  },
  "status": {"state": {"phase": "Pending"}, "version": 2, "retryCount": 1}
})");

std::optional<std::int32_t> priorities(const std::string& name) {
  if (name == "urgent") return 100;
  return std::nullopt;
}

TEST(DeriveFromJson, PodgroupOfADecodedJob) {
  const auto job = job_from_json(kJob);
  const json pg = build_podgroup(*job, priorities);
  EXPECT_EQ(pg["metadata"]["name"], "llm-u-42");
  EXPECT_EQ(pg["metadata"]["namespace"], "team-a");
  EXPECT_EQ(pg["metadata"]["labels"], kJob["metadata"]["labels"]);
  EXPECT_EQ(pg["metadata"]["annotations"], kJob["metadata"]["annotations"]);
  EXPECT_EQ(pg["spec"]["minMember"], 3);
  EXPECT_EQ(pg["spec"]["minTaskMember"], (json{{"head", 1}, {"worker", 2}}));
  EXPECT_EQ(pg["spec"]["queue"], "gpu");
  EXPECT_EQ(pg["spec"]["priorityClassName"], "batch");
  // Σ(minAvailable ?? replicas) = 5 > 3: head (priority 100) then two workers.
  EXPECT_EQ(pg["spec"]["minResources"], (json{{"count/pods", "3"},
                                              {"cpu", "4"},
                                              {"nvidia.com/gpu", "1"},
                                              {"pods", "3"},
                                              {"requests.cpu", "4"},
                                              {"requests.nvidia.com/gpu", "1"}}));
  EXPECT_EQ(pg["spec"]["networkTopology"], (json{{"mode", "hard"}, {"highestTierAllowed", 2}}));
  ASSERT_EQ(pg["spec"]["subGroupPolicy"].size(), 1u);
  EXPECT_EQ(pg["spec"]["subGroupPolicy"][0]["name"], "worker");
  EXPECT_EQ(update_podgroup(*job, pg, priorities), std::nullopt);
}

TEST(DeriveFromJson, PodOfADecodedJob) {
  const auto job = job_from_json(kJob);
  const TaskSpec& worker = job->spec.tasks[1];
  int n = 0;
  const json pod =
      build_pod(*job, worker, 3, worker.template_json(), [&] { return "v" + std::to_string(++n); });
  EXPECT_EQ(pod["metadata"]["name"], "llm-worker-3");
  EXPECT_EQ(pod["metadata"]["labels"]["volcano.sh/partition-id"], "1");
  EXPECT_EQ(pod["metadata"]["labels"]["volcano.sh/preemptable"], "true");
  EXPECT_EQ(pod["metadata"]["annotations"]["volcano.sh/jdb-max-unavailable"], "1");
  EXPECT_EQ(pod["metadata"]["annotations"]["volcano.sh/job-version"], "2");
  EXPECT_EQ(pod["metadata"]["annotations"]["volcano.sh/job-retry-count"], "1");
  EXPECT_EQ(pod["metadata"]["annotations"]["volcano.sh/numa-topology-policy"], "single-numa-node");
  EXPECT_EQ(pod["spec"]["priorityClassName"], "batch");
  // The second volume has no claim name yet (the controller generates it before pods exist);
  // an empty claim name is still one distinct claim.
  EXPECT_EQ(pod["spec"]["volumes"].size(), 2u);
  EXPECT_EQ(pod["spec"]["containers"][0]["volumeMounts"][0],
            (json{{"name", "llm-v1"}, {"mountPath", "/ckpt"}}));
}

TEST(DeriveFromJson, PvcForAGeneratedClaim) {
  const auto job = job_from_json(kJob);
  const VolumeSpec& scratch = job->spec.volumes[1];
  ASSERT_TRUE(scratch.volume_claim_text.has_value());
  const json pvc =
      build_pvc(*job, generated_pvc_name(*job, random_name12), *scratch.volume_claim_text);
  EXPECT_EQ(pvc["spec"], kJob["spec"]["volumes"][1]["volumeClaim"]);
  EXPECT_TRUE(pvc["metadata"]["name"].get<std::string>().starts_with("llm-pvc-"));
}

}  // namespace
}  // namespace vc::controllers::job

#include "controllers/job/model/job_json.h"

#include <stdexcept>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/api/time.h"
#include "common/json/fast_parse.h"

namespace vc::controllers::job {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::ThrowsMessage;
using namespace std::chrono_literals;

api::TimePoint at(const char* text) {
  return *api::parse_time(text);
}

// A Job as the API server returns it, with every field the model reads set.
json realistic_job() {
  return json::parse(R"({
    "apiVersion": "batch.volcano.sh/v1alpha1",
    "kind": "Job",
    "metadata": {
      "name": "tf-job",
      "namespace": "team-a",
      "uid": "5f3c1c0e-2b7a-4a39-9d7e-0d6f1c2b3a4d",
      "resourceVersion": "123456",
      "generation": 2,
      "creationTimestamp": "2024-01-02T03:04:05Z",
      "deletionTimestamp": "2024-01-02T04:00:00Z",
      "labels": {"team": "a", "app": "tf"},
      "annotations": {"volcano.sh/preemptable": "true", "a.example/x": "1"},
      "managedFields": [{"manager": "kubectl", "operation": "Update"}]
    },
    "spec": {
      "schedulerName": "volcano",
      "minAvailable": 3,
      "minSuccess": 2,
      "queue": "research",
      "maxRetry": 5,
      "ttlSecondsAfterFinished": 600,
      "priorityClassName": "high",
      "runningEstimate": "2h",
      "networkTopology": {"mode": "soft", "highestTierAllowed": 2, "highestTierName": "spine"},
      "plugins": {"svc": ["--disable-network-policy"], "env": [], "ssh": null},
      "policies": [
        {"event": "PodEvicted", "action": "RestartJob"},
        {"events": ["PodFailed", "TaskFailed"], "event": "Unknown", "action": "AbortJob",
         "timeout": "1m30s"}
      ],
      "volumes": [
        {"mountPath": "/data", "volumeClaimName": "shared-data"},
        {"mountPath": "/scratch",
         "volumeClaim": {"accessModes": ["ReadWriteOnce"],
                         "resources": {"requests": {"storage": "1Gi"}}}}
      ],
      "tasks": [
        {
          "name": "ps",
          "replicas": 1,
          "template": {
            "metadata": {"labels": {"role": "ps"}},
            "spec": {"containers": [{"name": "tf", "image": "tf:2"}],
                     "restartPolicy": "Never", "priorityClassName": "ps-prio",
                     "hostname": "ps-host", "subdomain": "tf-sub"}
          }
        },
        {
          "name": "worker",
          "replicas": 4,
          "minAvailable": 2,
          "maxRetry": 7,
          "topologyPolicy": "single-numa-node",
          "dependsOn": {"name": ["ps"], "iteration": "any"},
          "partitionPolicy": {"totalPartitions": 2, "partitionSize": 2, "minPartitions": 1,
                              "networkTopology": {"mode": "hard", "highestTierAllowed": 1}},
          "policies": [{"exitCode": 3, "action": "RestartTask"},
                       {"event": "PodPending", "action": "RestartPod", "timeout": "300ms"}],
          "template": {"spec": {"containers": [{"name": "tf", "image": "tf:2"}]}}
        }
      ]
    },
    "status": {
      "state": {"phase": "Running", "reason": "r", "message": "m",
                "lastTransitionTime": "2024-01-02T03:10:00Z"},
      "minAvailable": 3,
      "taskStatusCount": {"ps": {"phase": {"Running": 1}},
                          "worker": {"phase": {"Running": 2, "Pending": 2}}},
      "pending": 2, "running": 3, "succeeded": 4, "failed": 5, "terminating": 6, "unknown": 7,
      "version": 8, "retryCount": 9,
      "runningDuration": "1m2s",
      "controlledResources": {"plugin-svc": "svc", "volume-pvc-shared-data": "shared-data"},
      "conditions": [{"status": "Pending", "lastTransitionTime": "2024-01-02T03:04:06Z"},
                     {"status": "Running", "lastTransitionTime": "2024-01-02T03:10:00Z"}]
    }
  })");
}

TEST(JobFromJson, DecodesMetadataOfARealisticJob) {
  auto job = job_from_json(realistic_job());
  EXPECT_EQ(job->namespace_, "team-a");
  EXPECT_EQ(job->name, "tf-job");
  EXPECT_EQ(job->uid, "5f3c1c0e-2b7a-4a39-9d7e-0d6f1c2b3a4d");
  EXPECT_EQ(job->resource_version, "123456");
  const kube::cache::Labels labels{{"app", "tf"}, {"team", "a"}};
  EXPECT_EQ(job->labels, labels);
  const std::vector<std::pair<std::string, std::string>> annotations{
      {"a.example/x", "1"}, {"volcano.sh/preemptable", "true"}};
  EXPECT_EQ(job->annotations, annotations);
  EXPECT_EQ(job->creation_timestamp, at("2024-01-02T03:04:05Z"));
  EXPECT_EQ(job->deletion_timestamp, at("2024-01-02T04:00:00Z"));
  EXPECT_EQ(job->key(), "team-a/tf-job");
}

TEST(JobFromJson, DecodesEveryJobSpecField) {
  const JobSpec spec = job_from_json(realistic_job())->spec;
  EXPECT_EQ(spec.scheduler_name, "volcano");
  EXPECT_EQ(spec.min_available, 3);
  EXPECT_EQ(spec.min_success, 2);
  EXPECT_EQ(spec.queue, "research");
  EXPECT_EQ(spec.max_retry, 5);
  EXPECT_EQ(spec.ttl_seconds_after_finished, 600);
  EXPECT_EQ(spec.priority_class_name, "high");
  EXPECT_EQ(spec.network_topology, (NetworkTopology{"soft", 2, "spine"}));

  const std::vector<std::pair<std::string, std::vector<std::string>>> plugins{
      {"env", {}}, {"ssh", {}}, {"svc", {"--disable-network-policy"}}};
  EXPECT_EQ(spec.plugins, plugins);

  ASSERT_EQ(spec.policies.size(), 2u);
  EXPECT_EQ(spec.policies[0], (LifecyclePolicy{"RestartJob", "PodEvicted", {}, {}, {}}));
  // Both forms kept: a policy may name events in `events` and in `event`.
  EXPECT_EQ(spec.policies[1],
            (LifecyclePolicy{"AbortJob", "Unknown", {"PodFailed", "TaskFailed"}, {}, 90s}));

  ASSERT_EQ(spec.volumes.size(), 2u);
  EXPECT_EQ(spec.volumes[0], (VolumeSpec{"/data", "shared-data", std::nullopt}));
  EXPECT_EQ(spec.volumes[1].mount_path, "/scratch");
  EXPECT_EQ(spec.volumes[1].volume_claim_name, "");
  ASSERT_TRUE(spec.volumes[1].volume_claim_text.has_value());
  EXPECT_EQ(json::parse(*spec.volumes[1].volume_claim_text),
            realistic_job()["spec"]["volumes"][1]["volumeClaim"]);
}

TEST(JobFromJson, DecodesEveryTaskSpecField) {
  const json source = realistic_job();
  const JobSpec spec = job_from_json(source)->spec;
  ASSERT_EQ(spec.tasks.size(), 2u);

  const TaskSpec& ps = spec.tasks[0];
  EXPECT_EQ(ps.name, "ps");
  EXPECT_EQ(ps.replicas, 1);
  EXPECT_EQ(ps.min_available, std::nullopt);
  EXPECT_EQ(ps.max_retry, 0);
  EXPECT_TRUE(ps.policies.empty());
  EXPECT_EQ(ps.depends_on, std::nullopt);
  EXPECT_EQ(ps.partition_policy, std::nullopt);
  EXPECT_EQ(ps.template_priority_class_name, "ps-prio");
  EXPECT_EQ(ps.template_hostname, "ps-host");
  EXPECT_EQ(ps.template_subdomain, "tf-sub");
  EXPECT_EQ(ps.template_json(), source["spec"]["tasks"][0]["template"]);

  const TaskSpec& worker = spec.tasks[1];
  EXPECT_EQ(worker.replicas, 4);
  EXPECT_EQ(worker.min_available, 2);
  EXPECT_EQ(worker.max_retry, 7);
  EXPECT_EQ(worker.topology_policy, "single-numa-node");
  EXPECT_EQ(worker.depends_on, (DependsOn{{"ps"}, "any"}));
  EXPECT_EQ(worker.partition_policy, (PartitionPolicy{2, 2, 1, NetworkTopology{"hard", 1, ""}}));
  ASSERT_EQ(worker.policies.size(), 2u);
  EXPECT_EQ(worker.policies[0], (LifecyclePolicy{"RestartTask", "", {}, 3, std::nullopt}));
  EXPECT_EQ(worker.policies[1], (LifecyclePolicy{"RestartPod", "PodPending", {}, {}, 300ms}));
  EXPECT_EQ(worker.template_priority_class_name, "");
  EXPECT_EQ(worker.template_json(), source["spec"]["tasks"][1]["template"]);
}

TEST(JobFromJson, VersionsOfAJobShareOneParsedTemplate) {
  json source = realistic_job();
  const JobPtr first = job_from_json(source);
  source["status"]["state"]["phase"] = "Completed";  // a status write: a new cached version
  const JobPtr second = job_from_json(source);
  ASSERT_TRUE(first && second);
  EXPECT_EQ(first->spec.tasks[0].pod_template.shared(),
            second->spec.tasks[0].pod_template.shared());
  source["spec"]["tasks"][0]["template"]["spec"]["hostname"] = "other";
  const JobPtr third = job_from_json(source);
  EXPECT_NE(first->spec.tasks[0].pod_template.shared(), third->spec.tasks[0].pod_template.shared());
  EXPECT_EQ(third->spec.tasks[0].template_json()["spec"]["hostname"], "other");
  EXPECT_EQ(first->spec.tasks[1].pod_template.shared(), third->spec.tasks[1].pod_template.shared());
}

TEST(JobFromJson, DecodesEveryStatusField) {
  const JobStatus s = job_from_json(realistic_job())->status;
  EXPECT_EQ(s.phase, "Running");
  EXPECT_EQ(s.reason, "r");
  EXPECT_EQ(s.message, "m");
  EXPECT_EQ(s.last_transition_time, at("2024-01-02T03:10:00Z"));
  EXPECT_EQ(s.min_available, 3);
  const std::map<std::string, TaskPhaseCounts> counts{{"ps", {{"Running", 1}}},
                                                      {"worker", {{"Pending", 2}, {"Running", 2}}}};
  EXPECT_EQ(s.task_status_count, counts);
  EXPECT_EQ(s.pending, 2);
  EXPECT_EQ(s.running, 3);
  EXPECT_EQ(s.succeeded, 4);
  EXPECT_EQ(s.failed, 5);
  EXPECT_EQ(s.terminating, 6);
  EXPECT_EQ(s.unknown, 7);
  EXPECT_EQ(s.version, 8);
  EXPECT_EQ(s.retry_count, 9);
  EXPECT_EQ(s.running_duration, "1m2s");
  const std::map<std::string, std::string> controlled{{"plugin-svc", "svc"},
                                                      {"volume-pvc-shared-data", "shared-data"}};
  EXPECT_EQ(s.controlled_resources, controlled);
  const std::vector<JobCondition> conditions{{"Pending", at("2024-01-02T03:04:06Z")},
                                             {"Running", at("2024-01-02T03:10:00Z")}};
  EXPECT_EQ(s.conditions, conditions);
}

TEST(JobFromJson, MissingAndNullFieldsAreDefaults) {
  auto job = job_from_json(json::parse(R"({
    "metadata": {"name": "j", "namespace": "ns", "labels": null},
    "spec": {"tasks": [{"name": "t", "template": null, "minAvailable": null}, null],
             "policies": null, "minSuccess": null},
    "status": null
  })"));
  EXPECT_EQ(job->name, "j");
  EXPECT_TRUE(job->labels.empty());
  EXPECT_EQ(job->creation_timestamp, std::nullopt);
  ASSERT_EQ(job->spec.tasks.size(), 2u);
  EXPECT_EQ(job->spec.tasks[0].template_json(), nlohmann::json::object());
  EXPECT_EQ(job->spec.tasks[0].min_available, std::nullopt);
  EXPECT_EQ(job->spec.tasks[1], TaskSpec{});
  EXPECT_EQ(job->spec.min_success, std::nullopt);
  EXPECT_EQ(job->status, JobStatus{});

  auto nulls = job_from_json(json::parse(
      R"({"spec": {"plugins": {"svc": [null]}, "policies": [{"events": [null, "PodFailed"]}]}})"));
  EXPECT_EQ(nulls->spec.plugins.at(0).second, std::vector<std::string>{""});
  EXPECT_EQ(nulls->spec.policies.at(0).events, (std::vector<std::string>{"", "PodFailed"}));

  auto empty = job_from_json(json::object());
  EXPECT_EQ(empty->spec, JobSpec{});
  EXPECT_EQ(empty->status, JobStatus{});
}

// Sets a field of the realistic job and returns the decoder's error message.
std::string error_for(const json::json_pointer& field, const json& value) {
  json job = realistic_job();
  job[field] = value;
  try {
    job_from_json(job);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(JobFromJson, MalformedFieldsThrowNamingTheFieldPath) {
  EXPECT_THAT(error_for("/spec/tasks/1/policies/1/timeout"_json_pointer, "5x"),
              HasSubstr("spec.tasks[1].policies[1].timeout: time: unknown unit \"x\""));
  EXPECT_THAT(error_for("/spec/tasks/1/policies/1/timeout"_json_pointer, 5),
              HasSubstr("spec.tasks[1].policies[1].timeout: expected a string, got number"));
  EXPECT_THAT(error_for("/spec/policies/0/timeout"_json_pointer, "soon"),
              HasSubstr("spec.policies[0].timeout: time: invalid duration \"soon\""));
  EXPECT_THAT(error_for("/spec/tasks/0/replicas"_json_pointer, "3"),
              HasSubstr("spec.tasks[0].replicas: expected an integer, got string"));
  EXPECT_THAT(error_for("/spec/tasks/0/replicas"_json_pointer, 2.5),
              HasSubstr("spec.tasks[0].replicas: expected an integer, got number"));
  EXPECT_THAT(error_for("/spec/minAvailable"_json_pointer, 4294967296LL),
              HasSubstr("spec.minAvailable: value 4294967296 overflows int32"));
  EXPECT_THAT(error_for("/spec/minAvailable"_json_pointer, -2147483649LL),
              HasSubstr("spec.minAvailable: value -2147483649 overflows int32"));
  EXPECT_THAT(error_for("/spec/tasks"_json_pointer, json::object()),
              HasSubstr("spec.tasks: expected an array, got object"));
  EXPECT_THAT(error_for("/spec/tasks/1/dependsOn/name/0"_json_pointer, 1),
              HasSubstr("spec.tasks[1].dependsOn.name[0]: expected a string"));
  EXPECT_THAT(
      error_for("/spec/tasks/1/partitionPolicy/networkTopology/highestTierAllowed"_json_pointer,
                "1"),
      HasSubstr("spec.tasks[1].partitionPolicy.networkTopology.highestTierAllowed:"));
  EXPECT_THAT(error_for("/spec/tasks/0/template"_json_pointer, "pod"),
              HasSubstr("spec.tasks[0].template: expected an object, got string"));
  EXPECT_THAT(error_for("/spec/tasks/0/template/spec/hostname"_json_pointer, 7),
              HasSubstr("spec.tasks[0].template.spec.hostname: expected a string"));
  EXPECT_THAT(error_for("/spec/volumes/1/volumeClaim"_json_pointer, json::array()),
              HasSubstr("spec.volumes[1].volumeClaim: expected an object, got array"));
  EXPECT_THAT(error_for("/spec/plugins/svc/0"_json_pointer, true),
              HasSubstr("spec.plugins[svc][0]: expected a string, got boolean"));
  EXPECT_THAT(error_for("/spec/networkTopology/mode"_json_pointer, 1),
              HasSubstr("spec.networkTopology.mode: expected a string"));
  EXPECT_THAT(error_for("/metadata/creationTimestamp"_json_pointer, "yesterday"),
              HasSubstr("metadata.creationTimestamp: invalid RFC 3339 time \"yesterday\""));
  EXPECT_THAT(error_for("/metadata/labels/team"_json_pointer, 1),
              HasSubstr("metadata.labels[team]: expected a string"));
  EXPECT_THAT(error_for("/status/state/lastTransitionTime"_json_pointer, "2024-02-30T00:00:00Z"),
              HasSubstr("status.state.lastTransitionTime: invalid RFC 3339 time"));
  EXPECT_THAT(error_for("/status/runningDuration"_json_pointer, "1 minute"),
              HasSubstr("status.runningDuration: time: "));
  EXPECT_THAT(error_for("/status/taskStatusCount/worker/phase/Running"_json_pointer, "2"),
              HasSubstr("status.taskStatusCount[worker].phase[Running]: expected an integer"));
  EXPECT_THAT(error_for("/status/conditions/1/lastTransitionTime"_json_pointer, 0),
              HasSubstr("status.conditions[1].lastTransitionTime: expected a string"));
}

TEST(JobFromJson, NonObjectDocumentThrows) {
  EXPECT_THROW(job_from_json(json::array()), std::invalid_argument);
  EXPECT_THROW(job_from_json(json("job")), std::invalid_argument);
}

TEST(JobAfterStatusWrite, IsTheSentJobWithTheRepliedVersionAndStatus) {
  // What the server returns for a status write: the job it had, with the new status and
  // version. Read through status_write_reads(), that must decode to the whole reply's job.
  json before = realistic_job();
  before["status"] = json::object();
  const auto sent = job_from_json(before);
  json reply = realistic_job();
  reply["metadata"]["resourceVersion"] = "9001";
  const auto whole = job_from_json(reply);
  const auto read =
      job_after_status_write(*sent, fastjson::parse(reply.dump(), status_write_reads()));
  EXPECT_EQ(read->resource_version, "9001");
  EXPECT_EQ(read->status, whole->status);
  EXPECT_EQ(read->spec, whole->spec);
  EXPECT_EQ(read->uid, whole->uid);
  EXPECT_EQ(read->labels, whole->labels);
  EXPECT_EQ(read->annotations, whole->annotations);
  EXPECT_EQ(read->creation_timestamp, whole->creation_timestamp);
  EXPECT_NE(read->status, sent->status);  // the status did come from the reply
  // The filter leaves the spec (templates and all) out of the parsed reply.
  EXPECT_FALSE(fastjson::parse(reply.dump(), status_write_reads()).contains("spec"));
  // A reply without a version or with a malformed status is an error naming the field.
  EXPECT_THAT([&] { job_after_status_write(*sent, json::parse(R"({"status":{}})")); },
              ThrowsMessage<std::invalid_argument>(HasSubstr("metadata.resourceVersion")));
  EXPECT_THAT(
      [&] {
        job_after_status_write(
            *sent, json::parse(R"({"metadata":{"resourceVersion":"2"},"status":{"failed":"x"}})"));
      },
      ThrowsMessage<std::invalid_argument>(HasSubstr("status.failed")));
  EXPECT_EQ(
      job_after_status_write(*sent, json::parse(R"({"metadata":{"resourceVersion":"3"}})"))->status,
      JobStatus{});
}

TEST(JobViewTransform, IsNamedJobViewAndCachesTheDecodedJob) {
  const kube::cache::Transform t = job_view_transform();
  EXPECT_EQ(t.name, "job-view");
  ASSERT_TRUE(t.fn);
  const kube::cache::ObjectPtr cached = t.fn(realistic_job());
  const JobPtr job = as_job(cached);
  ASSERT_NE(job, nullptr);
  EXPECT_EQ(job->key(), "team-a/tf-job");
  // The cached form holds exactly what a direct decode produces.
  const auto direct = job_from_json(realistic_job());
  EXPECT_EQ(job->spec, direct->spec);
  EXPECT_EQ(job->status, direct->status);
  EXPECT_EQ(job->annotations, direct->annotations);
}

TEST(JobViewTransform, MalformedJobThrowsSoTheReflectorSkipsIt) {
  json bad = realistic_job();
  bad["spec"]["maxRetry"] = "three";
  EXPECT_THROW(job_view_transform().fn(std::move(bad)), std::invalid_argument);
}

TEST(AsJob, IsNullForOtherCachedTypes) {
  EXPECT_EQ(as_job(kube::cache::json_transform(realistic_job())), nullptr);
  EXPECT_EQ(as_job(nullptr), nullptr);
}

}  // namespace
}  // namespace vc::controllers::job

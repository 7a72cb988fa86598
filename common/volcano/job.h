#pragma once
// The Volcano Job (batch.volcano.sh/v1alpha1), typed: the one model the webhook's job rules and
// the controllers read (spec job-controller.md §0, §4.7): spec and status, plus the metadata the
// controller copies onto PodGroups and pods. Decoded by job_decode.h; the job controller caches
// one instance per Job (its "job-view" informer transform) and shares it read-only by every
// worker.
//
// Memory: task pod templates are parsed once and shared between the Job's versions and between
// Jobs with the same template (pod_template.h), or borrowed from the request the webhook decoded;
// everything else is typed. The full JSON of the object is not kept: status writes send metadata
// + status only, and the rare spec update (generated PVC names, job-forwarding annotation)
// re-reads the object first.
//
// Threads: plain values; a cached Job is immutable (copy it to change it).

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/api/owner_ref.h"
#include "common/api/time.h"
#include "common/volcano/object_meta.h"
#include "common/volcano/pod_template.h"

namespace vc::volcano {

// Job phases (status.state.phase), spec job-controller.md §0.1.
namespace phase {
inline constexpr const char* kPending = "Pending";
inline constexpr const char* kAborting = "Aborting";
inline constexpr const char* kAborted = "Aborted";
inline constexpr const char* kRunning = "Running";
inline constexpr const char* kRestarting = "Restarting";
inline constexpr const char* kCompleting = "Completing";
inline constexpr const char* kCompleted = "Completed";
inline constexpr const char* kTerminating = "Terminating";
inline constexpr const char* kTerminated = "Terminated";
inline constexpr const char* kFailed = "Failed";
}  // namespace phase

// Keys of spec job-controller.md §0.4.
namespace keys {
inline constexpr const char* kTaskSpec = "volcano.sh/task-spec";
inline constexpr const char* kTaskIndex = "volcano.sh/task-index";
inline constexpr const char* kJobName = "volcano.sh/job-name";
inline constexpr const char* kJobNamespace = "volcano.sh/job-namespace";
inline constexpr const char* kQueueName = "volcano.sh/queue-name";
inline constexpr const char* kJobVersion = "volcano.sh/job-version";
inline constexpr const char* kJobRetryCount = "volcano.sh/job-retry-count";
inline constexpr const char* kTemplateUid = "volcano.sh/template-uid";
inline constexpr const char* kGroupName = "scheduling.k8s.io/group-name";
inline constexpr const char* kPartitionId = "volcano.sh/partition-id";
inline constexpr const char* kNumaPolicy = "volcano.sh/numa-topology-policy";
inline constexpr const char* kPreemptable = "volcano.sh/preemptable";
inline constexpr const char* kCooldownTime = "volcano.sh/cooldown-time";
inline constexpr const char* kRevocableZone = "volcano.sh/revocable-zone";
inline constexpr const char* kJdbMinAvailable = "volcano.sh/jdb-min-available";
inline constexpr const char* kJdbMaxUnavailable = "volcano.sh/jdb-max-unavailable";
inline constexpr const char* kJobForwarding = "volcano.sh/job-forwarding";
inline constexpr const char* kOutOfSync = "volcano.sh/controller-out-of-sync";
}  // namespace keys

inline constexpr const char* kJobApiVersion = "batch.volcano.sh/v1alpha1";
inline constexpr const char* kJobKind = "Job";

struct NetworkTopology {
  std::string mode;
  std::optional<std::int64_t> highest_tier_allowed;  // Go's *int
  std::string highest_tier_name;
  friend bool operator==(const NetworkTopology&, const NetworkTopology&) = default;
};

struct LifecyclePolicy {
  std::string action;
  std::string event;                // the single-event form
  std::vector<std::string> events;  // the list form; a policy may carry both
  std::optional<std::int32_t> exit_code;
  std::optional<std::chrono::nanoseconds> timeout;  // metav1.Duration, e.g. "5m"

  // Whether the policy names the event, in either form.
  bool names_event(std::string_view e) const;
  friend bool operator==(const LifecyclePolicy&, const LifecyclePolicy&) = default;
};

struct DependsOn {
  std::vector<std::string> name;
  std::string iteration;  // "any" or "all" (or empty)
  friend bool operator==(const DependsOn&, const DependsOn&) = default;
};

struct PartitionPolicy {
  std::int32_t total_partitions = 0;
  std::int32_t partition_size = 0;
  std::int32_t min_partitions = 0;
  std::optional<NetworkTopology> network_topology;
  friend bool operator==(const PartitionPolicy&, const PartitionPolicy&) = default;
};

struct TaskSpec {
  std::string name;
  std::int32_t replicas = 0;
  std::optional<std::int32_t> min_available;
  std::int32_t max_retry = 0;
  std::vector<LifecyclePolicy> policies;
  std::optional<DependsOn> depends_on;
  std::string topology_policy;
  std::optional<PartitionPolicy> partition_policy;
  // The v1.PodTemplateSpec ({} when absent), shared and immutable.
  PodTemplate pod_template;
  // Read from the template once at decode (used on every sync, not only at pod creation).
  std::string template_priority_class_name;  // template.spec.priorityClassName
  std::string template_hostname;             // template.spec.hostname
  std::string template_subdomain;            // template.spec.subdomain

  const nlohmann::json& template_json() const { return pod_template.json(); }
  friend bool operator==(const TaskSpec&, const TaskSpec&) = default;
};

struct VolumeSpec {
  std::string mount_path;
  std::string volume_claim_name;
  std::optional<std::string> volume_claim_text;  // v1.PersistentVolumeClaimSpec as JSON text
  bool has_volume_claim() const { return volume_claim_text.has_value(); }
  friend bool operator==(const VolumeSpec&, const VolumeSpec&) = default;
};

struct JobSpec {
  std::string scheduler_name;
  std::int32_t min_available = 0;
  std::optional<std::int32_t> min_success;
  std::vector<VolumeSpec> volumes;
  std::vector<TaskSpec> tasks;
  std::vector<LifecyclePolicy> policies;
  // spec.plugins: plugin name -> arguments, sorted by name (a Go map has no order).
  std::vector<std::pair<std::string, std::vector<std::string>>> plugins;
  std::optional<std::chrono::nanoseconds> running_estimate;  // metav1.Duration, e.g. "2h"
  std::string queue;
  std::int32_t max_retry = 0;
  std::optional<std::int32_t> ttl_seconds_after_finished;
  std::string priority_class_name;
  std::optional<NetworkTopology> network_topology;

  // Σ task.replicas.
  std::int32_t total_replicas() const;
  // The first task with that name, or null.
  const TaskSpec* task(std::string_view name) const;
  friend bool operator==(const JobSpec&, const JobSpec&) = default;
};

// status.taskStatusCount[task].phase: pod phase -> count.
using TaskPhaseCounts = std::map<std::string, std::int32_t>;

struct JobCondition {
  std::string status;  // a job phase
  std::optional<api::TimePoint> last_transition_time;
  friend bool operator==(const JobCondition&, const JobCondition&) = default;
};

struct JobStatus {
  // status.state
  std::string phase;  // "" for a brand-new Job
  std::string reason;
  std::string message;
  std::optional<api::TimePoint> last_transition_time;

  std::int32_t min_available = 0;
  std::map<std::string, TaskPhaseCounts> task_status_count;
  std::int32_t pending = 0;
  std::int32_t running = 0;
  std::int32_t succeeded = 0;
  std::int32_t failed = 0;
  std::int32_t terminating = 0;
  std::int32_t unknown = 0;
  std::int32_t version = 0;
  std::int32_t retry_count = 0;
  std::optional<std::string> running_duration;  // Go duration string, e.g. "1m2.5s"
  std::map<std::string, std::string> controlled_resources;
  std::vector<JobCondition> conditions;

  friend bool operator==(const JobStatus&, const JobStatus&) = default;
};

struct Job : ObjectMeta {
  // metadata.ownerReferences: a CronJob's or JobFlow's Jobs name it as their controller.
  std::vector<api::OwnerRef> owner_references;
  JobSpec spec;
  JobStatus status;

  // The owner reference with controller: true, or null.
  const api::OwnerRef* controller_ref() const;
};

using JobPtr = std::shared_ptr<const Job>;

}  // namespace vc::volcano

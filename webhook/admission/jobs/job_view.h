#pragma once
// A typed, read-only view of a Volcano Job (batch.volcano.sh/v1alpha1) as the jobs webhooks read
// it: the Volcano fields as C++ values, each task's pod template kept as JSON. Built by
// decode_job, which first checks the JSON against the Go types (schema.h, checked by
// common/go/json_types) so that a wrong type is reported the way Volcano reports it instead of
// being misread.
//
// Also object decoding with Volcano's messages, shared by every admit function in this folder
// (the resource check is expect_resource, webhook/admission/request_checks.h).
//
// Threads: plain values and pure functions.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/api/expected.h"
#include "common/go/json_types/json_types.h"
#include "webhook/admission/review.h"

namespace vc::webhook::jobs {

struct NetworkTopology {
  std::string mode;
  std::optional<std::int64_t> highest_tier_allowed;
  std::string highest_tier_name;
};

struct LifecyclePolicy {
  std::string action;
  std::string event;
  std::vector<std::string> events;
  std::optional<std::int32_t> exit_code;
};

struct PartitionPolicy {
  std::int32_t total_partitions = 0;
  std::int32_t partition_size = 0;
  std::optional<NetworkTopology> network_topology;
  std::int32_t min_partitions = 0;
};

// A null value with static lifetime, for pointers to absent JSON members.
const json& null_json();

struct TaskSpec {
  std::string name;
  std::int32_t replicas = 0;
  std::optional<std::int32_t> min_available;
  // v1.PodTemplateSpec as given (null when absent). It points into the object decode_job read,
  // which must outlive the TaskSpec: templates are most of a job's bytes, so they are not copied.
  const json* template_ = &null_json();
  std::vector<LifecyclePolicy> policies;
  std::string topology_policy;
  std::int32_t max_retry = 0;
  bool has_depends_on = false;
  std::vector<std::string> depends_on;
  std::optional<PartitionPolicy> partition_policy;
};

struct VolumeSpec {
  std::string mount_path;
  std::string volume_claim_name;
  bool has_volume_claim = false;
};

struct JobSpec {
  std::string scheduler_name;
  std::int32_t min_available = 0;
  std::vector<VolumeSpec> volumes;
  std::vector<TaskSpec> tasks;
  std::vector<LifecyclePolicy> policies;
  // nullopt when plugins is absent or null (a nil Go map); arguments keep JSON order.
  std::optional<std::map<std::string, std::vector<std::string>>> plugins;
  std::string queue;
  std::int32_t max_retry = 0;
  std::string priority_class_name;
  std::optional<NetworkTopology> network_topology;
};

struct Job {
  std::string name;
  std::string namespace_;
  JobSpec spec;
};

// Decodes object JSON as Volcano does: null or absent is an all-zero object; a type mismatch
// or an object nested deeper than Go accepts is an error with Go's message. The result points
// at `object` itself (or at a static empty object), never a copy: a job review is parsed once
// and must not be duplicated per check. It lives as long as `object`. nesting_bounded: the
// caller's decoder has refused deeper documents already (AdmissionRequest::nesting_bounded), so
// the depth is not measured again.
api::Expected<const json*> checked_object(const json& object, const go::GoType& type,
                                          bool nesting_bounded = false);

// check + typed view of a Job.
api::Expected<Job> decode_job(const json& object, bool nesting_bounded = false);
// The Job's templates point into `object`: a temporary would leave them dangling.
api::Expected<Job> decode_job(json&& object, bool nesting_bounded = false) = delete;

// Reading helpers for JSON already checked against the Go types: a missing field, null or a
// value of another type reads as the zero value.
std::string str_at(const json& obj, const char* key);
std::int64_t int_at(const json& obj, const char* key);
bool bool_at(const json& obj, const char* key);
const json& child_at(const json& obj, const char* key);  // null when missing
std::vector<std::string> strings_at(const json& obj, const char* key);

}  // namespace vc::webhook::jobs

#pragma once
// The unit of work of the job controller (spec job-controller.md §1.3, §1.4): what happened to
// which job, from an informer event or a bus Command. Requests are values compared field by
// field, so the work queue de-duplicates identical requests as Volcano's does.
//
// Threads: plain values.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace vc::controllers::job {

// bus.volcano.sh/v1alpha1 events (spec job-controller.md §0.2).
namespace event {
inline constexpr const char* kAny = "*";
inline constexpr const char* kPodFailed = "PodFailed";
inline constexpr const char* kPodEvicted = "PodEvicted";
inline constexpr const char* kPodPending = "PodPending";
inline constexpr const char* kPodRunning = "PodRunning";
inline constexpr const char* kJobUnknown = "Unknown";
inline constexpr const char* kTaskCompleted = "TaskCompleted";
inline constexpr const char* kOutOfSync = "OutOfSync";
inline constexpr const char* kCommandIssued = "CommandIssued";
inline constexpr const char* kJobUpdated = "JobUpdated";
inline constexpr const char* kTaskFailed = "TaskFailed";
}  // namespace event

// bus.volcano.sh/v1alpha1 actions (spec job-controller.md §0.3).
namespace action {
inline constexpr const char* kAbortJob = "AbortJob";
inline constexpr const char* kRestartJob = "RestartJob";
inline constexpr const char* kRestartTask = "RestartTask";
inline constexpr const char* kRestartPod = "RestartPod";
inline constexpr const char* kRestartPartition = "RestartPartition";
inline constexpr const char* kTerminateJob = "TerminateJob";
inline constexpr const char* kCompleteJob = "CompleteJob";
inline constexpr const char* kResumeJob = "ResumeJob";
inline constexpr const char* kSyncJob = "SyncJob";
inline constexpr const char* kEnqueueJob = "EnqueueJob";
inline constexpr const char* kSyncQueue = "SyncQueue";
inline constexpr const char* kOpenQueue = "OpenQueue";
inline constexpr const char* kCloseQueue = "CloseQueue";
}  // namespace action

struct Request {
  std::string namespace_;
  std::string job_name;
  std::string job_uid;  // controller ownerRef UID of the pod ("" for job/PodGroup/command events)
  std::string task_name;
  std::string pod_name;
  std::string pod_uid;
  std::string partition_id;
  std::string event;
  std::string action;  // non-empty only for commands
  std::int32_t exit_code = 0;
  std::int32_t job_version = 0;

  // "<namespace>/<job_name>": the shard key and the job cache key.
  std::string job_key() const;
  friend bool operator==(const Request&, const Request&) = default;
};

// A job-level request (no pod, task or command fields).
Request job_request(const std::string& ns, const std::string& name, std::string_view event);

// Requests are the job controller's work-queue keys (Queue<Request, RequestHash>).
struct RequestHash {
  std::size_t operator()(const Request& r) const;
};
// "<namespace>/<job> event=... action=..." with the fields that are set: a request in log lines.
std::string describe(const Request& r);

// Go's hash/fnv New32 (FNV-1, not FNV-1a) of the bytes: Volcano's job-key sharding
// (spec job-controller.md §1.4).
std::uint32_t fnv1_32(std::string_view bytes);
// The worker queue index of a job key: fnv1_32(key) % workers.
std::uint32_t shard_of(std::string_view job_key, std::uint32_t workers);

}  // namespace vc::controllers::job

#pragma once
// One sync of a CronJob, decided from a snapshot (spec controller-manager.md §5.4): which
// finished Jobs leave status.active, which old Jobs the history limits delete, which active
// references are stale, whether a run is due now, what the concurrency policy does with the
// Jobs still running, and the Job to create. The executor (executor.h) performs the API calls
// in the plan's order and writes the status.
//
// Threads: a pure function over plain data.

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/api/time.h"
#include "common/go/time_zone.h"
#include "common/volcano/cron_job.h"

namespace vc::controllers::cronjob {

// A Volcano Job whose controller reference is this CronJob (kind CronJob, same name and UID).
struct OwnedJob {
  std::string name{};
  std::string uid{};
  std::optional<api::TimePoint> created{};
  std::string phase{};                              // status.state.phase
  std::optional<api::TimePoint> last_transition{};  // status.state.lastTransitionTime
};

struct Snapshot {
  const volcano::CronJob* cron_job = nullptr;
  // spec.jobTemplate.spec as the API server stored it, as compact JSON text (empty or null when
  // absent): copied verbatim into each new Job.
  const std::string* job_template_spec = nullptr;
  std::vector<OwnedJob> owned{};
  // For each status.active name that no owned Job carries: the UID of the Job the cache holds
  // under that name, absent when there is none. Absence is not proof: the cache may not have seen
  // a Job we have just created, so such references are verified against the API server.
  std::map<std::string, std::string> active_name_uids{};
  api::TimePoint now;
  // The process's zone: a schedule without a zone runs in it (robfig's time.Local).
  std::shared_ptr<const go::Location> local;
};

struct Event {
  std::string type;  // "Normal" or "Warning"
  std::string reason;
  std::string message;
  friend bool operator==(const Event&, const Event&) = default;
};

// Steps, performed in order; a step that fails stops the sync.
struct DeleteForHistory {  // SuccessfulDelete or FailedDelete; a failure does not stop the sync
  std::string name;
  friend bool operator==(const DeleteForHistory&, const DeleteForHistory&) = default;
};
// Re-read the CronJob: OrphanedJob unless its active list has the Job, or the Job is gone or
// going (re-read too: the cache may still hold a Job we have just deleted).
struct CheckOrphan {
  std::string name;
  std::string uid;
  friend bool operator==(const CheckOrphan&, const CheckOrphan&) = default;
};
// Re-read an active reference's Job that the cache lacks (or holds under another UID): gone or
// replaced, StaleReference and it leaves status.active; the same UID, the cache lags and the
// reference stays.
struct VerifyActive {
  volcano::ObjectReference ref;
  friend bool operator==(const VerifyActive&, const VerifyActive&) = default;
};
struct Fail {  // stop: retried with backoff, status not written (as Volcano does)
  std::string error;
  friend bool operator==(const Fail&, const Fail&) = default;
};
struct ReplaceActive {  // Replace policy: read and delete each Job, then drop it from active
  std::vector<volcano::ObjectReference> jobs;
  friend bool operator==(const ReplaceActive&, const ReplaceActive&) = default;
};
struct CreateJob {
  nlohmann::json job;  // the whole object to POST
  api::TimePoint scheduled;
  std::chrono::milliseconds requeue_after{0};  // when the Job was made (or already is ours)
  friend bool operator==(const CreateJob&, const CreateJob&) = default;
};
using Step = std::variant<Event, DeleteForHistory, CheckOrphan, VerifyActive, Fail, ReplaceActive,
                          CreateJob>;

struct Plan {
  std::vector<Step> steps;
  volcano::CronJobStatus status;  // after the steps decided here (not the executor's results)
  bool status_changed = false;
  // When to look again if no Job is created; nullopt: only on the next event (suspended, or a
  // failure, which retries with backoff instead).
  std::optional<std::chrono::milliseconds> requeue_after;
};

Plan plan_sync(const Snapshot& snapshot);

// Volcano's name for the Job of a run: "<cronjob>-<scheduled unix minutes>".
std::string job_name(const std::string& cron_job_name, api::TimePoint scheduled);

// The Job a run creates: name, the template's labels and annotations plus
// volcano.sh/cronjob-scheduled-timestamp (the scheduled time in spec.timeZone, UTC without one,
// RFC 3339), a controller reference to the CronJob, and the template's spec.
nlohmann::json job_for_run(const volcano::CronJob& cron_job, const nlohmann::json& template_spec,
                           api::TimePoint scheduled, const go::Location& zone);

inline constexpr const char* kScheduledTimestampAnnotation =
    "volcano.sh/cronjob-scheduled-timestamp";

}  // namespace vc::controllers::cronjob

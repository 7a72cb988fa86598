#pragma once
// The Volcano CronJob (batch.volcano.sh/v1alpha1), typed: Kubernetes' CronJob with a Volcano Job
// spec as its template (spec controller-manager.md §5.1, §5.4). Decoded with the rules of
// json_read.h; the job template's spec by decode_job_spec (templates interned, as for a cached
// Job).
//
// encode_cron_job_status writes CronJobStatus as Go's encoding/json does: `active` (a list of
// v1.ObjectReference, each member omitted when empty) omitted when empty, `lastScheduleTime`
// and `lastSuccessfulTime` (*metav1.Time) omitted when unset; RFC 3339 with whole seconds.
//
// Threads: plain values and pure functions; a cached CronJob is immutable.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/api/time.h"
#include "common/volcano/job_decode.h"
#include "common/volcano/json_read.h"
#include "common/volcano/meta_types.h"
#include "common/volcano/object_meta.h"

namespace vc::volcano {

inline constexpr const char* kCronJobApiVersion = "batch.volcano.sh/v1alpha1";
inline constexpr const char* kCronJobKind = "CronJob";

// spec.concurrencyPolicy values; "" reads as Allow (the CRD defaults it).
namespace concurrency_policy {
inline constexpr const char* kAllow = "Allow";
inline constexpr const char* kForbid = "Forbid";
inline constexpr const char* kReplace = "Replace";
}  // namespace concurrency_policy

// spec.jobTemplate.metadata: the members the CRD declares. The controller copies labels and
// annotations onto the Jobs it creates (spec controller-manager.md §5.4).
struct JobTemplateMetadata {
  std::string name;
  std::string namespace_;
  std::map<std::string, std::string> labels;
  std::map<std::string, std::string> annotations;
  std::vector<std::string> finalizers;
  friend bool operator==(const JobTemplateMetadata&, const JobTemplateMetadata&) = default;
};

struct CronJobJobTemplate {
  JobTemplateMetadata metadata;
  JobSpec spec;
  friend bool operator==(const CronJobJobTemplate&, const CronJobJobTemplate&) = default;
};

struct CronJobSpec {
  std::string schedule;
  std::optional<std::string> time_zone;  // unset: the controller's zone; "" is an invalid zone
  std::optional<std::int64_t> starting_deadline_seconds;
  std::string concurrency_policy;
  std::optional<bool> suspend;  // CRD default false
  CronJobJobTemplate job_template;
  std::optional<std::int32_t> successful_jobs_history_limit;  // CRD default 3
  std::optional<std::int32_t> failed_jobs_history_limit;      // CRD default 1
  friend bool operator==(const CronJobSpec&, const CronJobSpec&) = default;
};

struct CronJobStatus {
  std::vector<ObjectReference> active;
  std::optional<api::TimePoint> last_schedule_time;
  std::optional<api::TimePoint> last_successful_time;
  friend bool operator==(const CronJobStatus&, const CronJobStatus&) = default;
};

struct CronJob : ObjectMeta {
  CronJobSpec spec;
  CronJobStatus status;
};

// Decodes a whole CronJob (metadata, spec, status) into out. Throws DecodeError. Pod templates
// of the job template are held as `templates` says (job_decode.h).
void decode_cron_job(const nlohmann::json& cron_job, CronJob& out,
                     const FieldPath& root = FieldPath(),
                     TemplateMode templates = TemplateMode::kIntern);
CronJobStatus decode_cron_job_status(const nlohmann::json& status, const FieldPath& at);

nlohmann::json encode_cron_job_status(const CronJobStatus& status);

}  // namespace vc::volcano

#include "common/volcano/cron_job.h"

#include "common/volcano/job_decode.h"
#include "common/volcano/json_write.h"

namespace vc::volcano {

using nlohmann::json;

namespace {

JobTemplateMetadata template_metadata_at(const json& job_template, const FieldPath& at) {
  JobTemplateMetadata out;
  const json* meta = read::object_at(job_template, "metadata", at);
  if (meta == nullptr) return out;
  const FieldPath p = at.key("metadata");
  out.name = read::string_at(*meta, "name", p);
  out.namespace_ = read::string_at(*meta, "namespace", p);
  out.labels = read::string_map_at(*meta, "labels", p);
  out.annotations = read::string_map_at(*meta, "annotations", p);
  out.finalizers = read::strings_at(*meta, "finalizers", p);
  return out;
}

CronJobSpec decode_spec(const json& spec, const FieldPath& at, TemplateMode templates) {
  CronJobSpec out;
  out.schedule = read::string_at(spec, "schedule", at);
  if (const json* zone = read::find(spec, "timeZone", at); zone != nullptr) {
    out.time_zone = read::string(*zone, at.key("timeZone"));
  }
  out.starting_deadline_seconds = read::opt_int64_at(spec, "startingDeadlineSeconds", at);
  out.concurrency_policy = read::string_at(spec, "concurrencyPolicy", at);
  out.suspend = read::opt_bool_at(spec, "suspend", at);
  if (const json* tmpl = read::object_at(spec, "jobTemplate", at); tmpl != nullptr) {
    const FieldPath tp = at.key("jobTemplate");
    out.job_template.metadata = template_metadata_at(*tmpl, tp);
    if (const json* job_spec = read::object_at(*tmpl, "spec", tp); job_spec != nullptr) {
      out.job_template.spec = decode_job_spec(*job_spec, tp.key("spec"), templates);
    }
  }
  out.successful_jobs_history_limit = read::opt_int32_at(spec, "successfulJobsHistoryLimit", at);
  out.failed_jobs_history_limit = read::opt_int32_at(spec, "failedJobsHistoryLimit", at);
  return out;
}

}  // namespace

CronJobStatus decode_cron_job_status(const json& status, const FieldPath& at) {
  CronJobStatus out;
  if (status.is_null()) return out;
  read::object(status, at);
  out.active = object_references_at(status, "active", at);
  out.last_schedule_time = read::time_at(status, "lastScheduleTime", at);
  out.last_successful_time = read::time_at(status, "lastSuccessfulTime", at);
  return out;
}

void decode_cron_job(const json& cron_job, CronJob& out, const FieldPath& root,
                     TemplateMode templates) {
  read::object(cron_job, root);
  decode_object_meta(cron_job, root, out);
  if (const json* spec = read::object_at(cron_job, "spec", root); spec != nullptr) {
    out.spec = decode_spec(*spec, root.key("spec"), templates);
  }
  if (const json* status = read::object_at(cron_job, "status", root); status != nullptr) {
    out.status = decode_cron_job_status(*status, root.key("status"));
  }
}

json encode_cron_job_status(const CronJobStatus& s) {
  json out = json::object();
  write::list(out, "active", s.active, encode_object_reference);
  write::time_if_set(out, "lastScheduleTime", s.last_schedule_time);
  write::time_if_set(out, "lastSuccessfulTime", s.last_successful_time);
  return out;
}

}  // namespace vc::volcano

#include "controllers/cronjob/plan.h"

#include <algorithm>
#include <cstdio>
#include <set>

#include "common/cron/schedule.h"
#include "common/go/strconv.h"
#include "controllers/cronjob/schedule_times.h"

namespace vc::controllers::cronjob {
namespace {

using nlohmann::json;

bool finished(const std::string& phase) {
  return phase == "Completed" || phase == "Failed" || phase == "Terminated";
}

std::int64_t unix_seconds(api::TimePoint t) {
  return std::chrono::floor<std::chrono::seconds>(t.time_since_epoch()).count();
}

// Go's Time.Format(time.RFC3339) in a zone: "Z" for a zero offset, else "+hh:mm".
std::string rfc3339_in(api::TimePoint t, const go::Location& zone) {
  const go::CivilTime c = go::civil_time(unix_seconds(t), zone);
  char buf[40];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d", c.year, c.month, c.day, c.hour,
                c.minute, c.second);
  std::string out = buf;
  if (c.offset == 0) return out + "Z";
  const int minutes = std::abs(c.offset) / 60;
  std::snprintf(buf, sizeof buf, "%c%02d:%02d", c.offset < 0 ? '-' : '+', minutes / 60,
                minutes % 60);
  return out + buf;
}

bool in_active(const volcano::CronJobStatus& s, const std::string& uid) {
  return !uid.empty() &&
         std::any_of(s.active.begin(), s.active.end(), [&](const auto& r) { return r.uid == uid; });
}

void remove_from_active(volcano::CronJobStatus& s, const std::string& uid) {
  std::erase_if(s.active, [&](const auto& r) { return r.uid == uid; });
}

// Oldest first: by creation time (Jobs without one last), then by name.
std::vector<const OwnedJob*> oldest_first(std::vector<const OwnedJob*> jobs) {
  std::stable_sort(jobs.begin(), jobs.end(), [](const OwnedJob* a, const OwnedJob* b) {
    if (a->created.has_value() != b->created.has_value()) return a->created.has_value();
    if (a->created != b->created) return *a->created < *b->created;
    return a->name < b->name;
  });
  return jobs;
}

void delete_beyond(std::vector<const OwnedJob*> jobs, std::optional<std::int32_t> limit,
                   Plan& plan) {
  if (!limit) return;
  const auto keep = static_cast<std::int64_t>(std::max<std::int32_t>(*limit, 0));
  const auto n = static_cast<std::int64_t>(jobs.size());
  if (n <= keep) return;
  const auto sorted = oldest_first(std::move(jobs));
  for (std::int64_t i = 0; i < n - keep; ++i)
    plan.steps.push_back(DeleteForHistory{sorted[i]->name});
}

// Finished Jobs leave status.active; Completed ones advance lastSuccessfulTime; the history
// limits delete the oldest beyond them.
void process_finished(const Snapshot& s, Plan& plan) {
  std::vector<const OwnedJob*> succeeded;
  std::vector<const OwnedJob*> failed;
  for (const OwnedJob& job : s.owned) {
    if (!finished(job.phase)) continue;
    if (in_active(plan.status, job.uid)) {
      remove_from_active(plan.status, job.uid);
      plan.steps.push_back(Event{"Normal", "SawCompletedJob",
                                 "Saw completed job: " + job.name + " in active, remove"});
      plan.status_changed = true;
    }
    if (job.phase == "Completed") {
      auto& last = plan.status.last_successful_time;
      if (job.last_transition && (!last || *job.last_transition > *last)) {
        last = job.last_transition;
        plan.status_changed = true;
      }
      succeeded.push_back(&job);
    } else if (job.phase == "Failed") {
      failed.push_back(&job);
    }
  }
  const auto& spec = s.cron_job->spec;
  delete_beyond(std::move(succeeded), spec.successful_jobs_history_limit, plan);
  delete_beyond(std::move(failed), spec.failed_jobs_history_limit, plan);
}

// Running Jobs the active list does not know are checked against a fresh read. Active references
// to Jobs the cache lacks, or holds under another UID, are verified against the API server before
// they are dropped: a Job we created a moment ago may not be in the cache yet. Until verified they
// count as active (the concurrency policy and "already made" below see them), which is what they
// almost always are.
void process_active(const Snapshot& s, Plan& plan) {
  std::set<std::string> owned_uids;
  for (const OwnedJob& job : s.owned) {
    owned_uids.insert(job.uid);
    if (!in_active(plan.status, job.uid) && !finished(job.phase)) {
      plan.steps.push_back(CheckOrphan{job.name, job.uid});
    }
  }
  for (const auto& ref : plan.status.active) {
    if (owned_uids.contains(ref.uid)) continue;
    const auto it = s.active_name_uids.find(ref.name);
    if (it != s.active_name_uids.end() && it->second == ref.uid) continue;  // someone else's Job
    plan.steps.push_back(VerifyActive{ref});
  }
}

}  // namespace

std::string job_name(const std::string& cron_job_name, api::TimePoint scheduled) {
  const std::int64_t s = unix_seconds(scheduled);
  // Go's integer division truncates toward zero.
  return cron_job_name + "-" + std::to_string(s / 60);
}

json job_for_run(const volcano::CronJob& cron_job, const json& template_spec,
                 api::TimePoint scheduled, const go::Location& zone) {
  const auto& meta = cron_job.spec.job_template.metadata;
  json labels = json::object();
  for (const auto& [k, v] : meta.labels) labels[k] = v;
  json annotations = json::object();
  for (const auto& [k, v] : meta.annotations) annotations[k] = v;
  annotations[kScheduledTimestampAnnotation] = rfc3339_in(scheduled, zone);
  json job = {{"apiVersion", "batch.volcano.sh/v1alpha1"},
              {"kind", "Job"},
              {"metadata",
               {{"name", job_name(cron_job.name, scheduled)},
                {"namespace", cron_job.namespace_},
                {"labels", std::move(labels)},
                {"annotations", std::move(annotations)},
                {"ownerReferences", json::array({{{"apiVersion", volcano::kCronJobApiVersion},
                                                  {"kind", volcano::kCronJobKind},
                                                  {"name", cron_job.name},
                                                  {"uid", cron_job.uid},
                                                  {"controller", true},
                                                  {"blockOwnerDeletion", true}}})}}},
              {"spec", template_spec.is_null() ? json::object() : template_spec}};
  if (job["metadata"]["labels"].empty()) job["metadata"].erase("labels");
  return job;
}

Plan plan_sync(const Snapshot& s) {
  const volcano::CronJob& cj = *s.cron_job;
  Plan plan;
  plan.status = cj.status;
  process_finished(s, plan);
  process_active(s, plan);
  if (cj.spec.suspend.value_or(false)) return plan;

  // The zone: spec.timeZone must load; a TZ inside the schedule wins over it (with a warning).
  if (cj.spec.time_zone) {
    if (auto zone = go::Location::load(*cj.spec.time_zone); !zone) {
      plan.steps.push_back(
          Event{"Warning", "InvalidTimeZone",
                "Invalid time zone " + go::quote(*cj.spec.time_zone) + ": " + zone.error()});
      plan.steps.push_back(Fail{zone.error()});
      return plan;
    }
  }
  std::string schedule_text = cj.spec.schedule;
  if (schedule_text.find("TZ") != std::string::npos) {
    plan.steps.push_back(
        Event{"Warning", "UnsupportedSchedule",
              "CRON_TZ or TZ in the schedule " + go::quote(cj.spec.schedule) +
                  " is not officially supported. If set, the TimeZone field will be ignored during "
                  "execution."});
  } else if (cj.spec.time_zone) {
    schedule_text = "TZ=" + *cj.spec.time_zone + " " + schedule_text;
  }
  const auto schedule = cron::Schedule::parse(schedule_text, s.local);
  if (!schedule) {
    plan.steps.push_back(Fail{schedule.error()});
    return plan;
  }

  const ScheduleClock clock{.created = cj.creation_timestamp.value_or(api::TimePoint{}),
                            .last_schedule = plan.status.last_schedule_time,
                            .starting_deadline_s = cj.spec.starting_deadline_seconds};
  const MostRecent due = next_schedule_time(clock, s.now, *schedule);
  if (!due.time) {
    if (!due.error.empty()) {
      plan.steps.push_back(
          Event{"Warning", "InvalidSchedule", "Error getting schedule time: " + due.error});
      plan.steps.push_back(Fail{due.error});
      return plan;
    }
    plan.requeue_after = next_requeue_delay(clock, s.now, *schedule);
    return plan;
  }
  if (due.missed == Missed::kMany) {
    plan.steps.push_back(Event{"Warning", "TooManyMissedTimes",
                               "too many missed start times. Set or decrease "
                               ".spec.startingDeadlineSeconds or check clock skew"});
  }
  plan.requeue_after = next_requeue_delay(clock, s.now, *schedule);

  // Already made: the run's Job is active, or this run is the last one recorded.
  const std::string name = job_name(cj.name, *due.time);
  const bool made =
      std::any_of(plan.status.active.begin(), plan.status.active.end(),
                  [&](const auto& r) { return r.name == name && r.namespace_ == cj.namespace_; }) ||
      plan.status.last_schedule_time == due.time;
  if (made) return plan;

  const std::string& policy = cj.spec.concurrency_policy;
  if (!plan.status.active.empty()) {
    if (policy == volcano::concurrency_policy::kForbid) {
      plan.steps.push_back(Event{"Warning", "ForbidConcurrent",
                                 "Skipping job creation because another job is already running"});
      return plan;
    }
    if (policy == volcano::concurrency_policy::kReplace) {
      plan.steps.push_back(
          Event{"Warning", "ReplaceConcurrent", "Replacing active job for CronJob"});
      plan.steps.push_back(ReplaceActive{plan.status.active});
    }
  }

  // The zone of the annotation: spec.timeZone, UTC without one (not the process's zone).
  const auto zone = go::Location::load(cj.spec.time_zone.value_or(""));
  ScheduleClock after = clock;
  after.last_schedule = due.time;
  // Parsed only here: the cache keeps the text, a fraction of a parsed tree's memory.
  json template_spec;
  if (s.job_template_spec != nullptr && !s.job_template_spec->empty()) {
    template_spec = json::parse(*s.job_template_spec, nullptr, /*allow_exceptions=*/false);
    if (template_spec.is_discarded()) {
      plan.steps.push_back(Fail{"spec.jobTemplate.spec: not valid JSON"});
      return plan;
    }
  }
  plan.steps.push_back(CreateJob{
      .job = job_for_run(cj, template_spec, *due.time, zone ? **zone : *go::Location::utc()),
      .scheduled = *due.time,
      .requeue_after = next_requeue_delay(after, s.now, *schedule)});
  return plan;
}

}  // namespace vc::controllers::cronjob

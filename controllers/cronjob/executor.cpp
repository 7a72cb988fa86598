#include "controllers/cronjob/executor.h"

#include <algorithm>

#include "common/go/strconv.h"
#include "common/kube/resource.h"
#include "common/volcano/job_decode.h"

namespace vc::controllers::cronjob {
namespace {

using nlohmann::json;
namespace resources = kube::resources;

// One sync's state: the status being built and the way back to the API server.
class Run {
 public:
  Run(const Plan& plan, const CronJobView& cj, kube::Client& client,
      kube::events::EventRecorder& recorder)
      : plan_(plan),
        cj_(cj),
        client_(client),
        recorder_(recorder),
        status_(plan.status),
        changed_(plan.status_changed),
        requeue_(plan.requeue_after) {}

  Outcome go() {
    for (const Step& step : plan_.steps) {
      std::string error = std::visit([this](const auto& s) { return perform(s); }, step);
      if (!error.empty()) return {std::move(error), std::nullopt, ""};
    }
    if (changed_) {
      if (std::string error = write_status(); !error.empty()) {
        return {std::move(error), std::nullopt, ""};
      }
      if (gone_) return {"", std::nullopt, ""};
    }
    return {"", requeue_, written_version_};
  }

 private:
  void record(const std::string& type, const std::string& reason, const std::string& message) {
    recorder_.event(
        reference(),
        type == "Warning" ? kube::events::EventType::Warning : kube::events::EventType::Normal,
        reason, message);
  }

  kube::events::ObjectReference reference() const {
    return {.kind = volcano::kCronJobKind,
            .namespace_ = cj_.namespace_,
            .name = cj_.name,
            .uid = cj_.uid,
            .api_version = volcano::kCronJobApiVersion,
            .resource_version = cj_.resource_version,
            .field_path = ""};
  }

  void forget_active(const std::string& uid) {
    std::erase_if(status_.active, [&](const auto& r) { return r.uid == uid; });
  }

  // Deletes a Job; SuccessfulDelete or FailedDelete. True when it is gone.
  bool delete_job(const std::string& name, const std::string& uid) {
    auto r = client_.remove(resources::jobs, cj_.namespace_, name);
    // Already gone: a sync that ran before the cache saw the deletion asks again.
    if (!r && r.error().kind == kube::ErrorKind::NotFound) {
      if (!uid.empty()) forget_active(uid);
      return true;
    }
    if (!r) {
      record("Warning", "FailedDelete",
             "Error deleting job \"" + name + "\": " + r.error().message);
      return false;
    }
    if (!uid.empty()) forget_active(uid);
    record("Normal", "SuccessfulDelete", "Deleted job \"" + name + "\"");
    return true;
  }

  std::string perform(const Event& e) {
    record(e.type, e.reason, e.message);
    return "";
  }

  std::string perform(const DeleteForHistory& d) {
    delete_job(d.name, "");  // a failure is reported, not fatal
    return "";
  }

  std::string perform(const CheckOrphan& c) {
    auto fresh = client_.get(resources::cronjobs, cj_.namespace_, cj_.name);
    if (!fresh) return "re-reading CronJob " + cj_.key() + ": " + fresh.error().describe();
    volcano::CronJobStatus status;
    if (const auto it = fresh->find("status"); it != fresh->end() && it->is_object()) {
      try {
        status = volcano::decode_cron_job_status(*it, volcano::FieldPath().key("status"));
      } catch (const volcano::DecodeError& e) {
        return "re-reading CronJob " + cj_.key() + ": " + e.what();
      }
    }
    const bool known = std::any_of(status.active.begin(), status.active.end(),
                                   [&](const auto& r) { return r.uid == c.uid; });
    if (known) return "";
    // The cache may still show a Job this controller has just deleted (Replace, history): only a
    // Job that is still there, under that UID and not being deleted, is an orphan.
    auto job = client_.get(resources::jobs, cj_.namespace_, c.name);
    if (!job && job.error().kind == kube::ErrorKind::NotFound) return "";
    if (!job)
      return "re-reading job " + cj_.namespace_ + "/" + c.name + ": " + job.error().describe();
    const json& meta = (*job)["metadata"];
    if (meta.value("uid", "") != c.uid || meta.contains("deletionTimestamp")) return "";
    record("Warning", "OrphanedJob",
           "Detected orphaned job forgotten or not managed by controller: " + c.name +
               " (UID: " + c.uid + ")");
    return "";
  }

  std::string perform(const VerifyActive& v) {
    const auto& ref = v.ref;
    auto job = client_.get(resources::jobs, ref.namespace_, ref.name);
    if (!job && job.error().kind != kube::ErrorKind::NotFound) {
      return "verifying active job " + ref.namespace_ + "/" + ref.name + ": " +
             job.error().describe();
    }
    if (job) {
      const std::string uid = (*job)["metadata"].value("uid", "");
      if (uid == ref.uid) return "";  // there: the cache has not caught up with it yet
      record("Warning", "StaleReference",
             "Active job reference " + go::quote(ref.name) +
                 " points to a different UID (expected: " + ref.uid + ", actual: " + uid + ")");
    } else {
      record("Warning", "StaleReference",
             "Active job " + go::quote(ref.name) + " no longer exists (UID: " + ref.uid + ")");
    }
    forget_active(ref.uid);
    changed_ = true;
    return "";
  }

  std::string perform(const Fail& f) { return f.error; }

  std::string perform(const ReplaceActive& replace) {
    for (const auto& ref : replace.jobs) {
      auto job = client_.get(resources::jobs, ref.namespace_, ref.name);
      // Already gone: a Replace whose Job create failed deleted it, and its status write, which
      // would have dropped it from status.active, never happened. Nothing left to replace.
      if (!job && job.error().kind == kube::ErrorKind::NotFound) {
        forget_active(ref.uid);
        changed_ = true;
        continue;
      }
      if (!job) {
        record("Warning", "FailedGet", "Get job: " + job.error().message);
        return "reading active job " + ref.namespace_ + "/" + ref.name + ": " +
               job.error().describe();
      }
      const std::string uid = (*job)["metadata"].value("uid", "");
      if (!delete_job(ref.name, uid)) {
        return "could not replace job " + ref.namespace_ + "/" + ref.name;
      }
      changed_ = true;
    }
    return "";
  }

  // The Job already under the run's name: ours and running counts as made; anything else is
  // left alone.
  std::optional<json> existing_job(const std::string& name, std::string& error) {
    auto got = client_.get(resources::jobs, cj_.namespace_, name);
    if (!got) {
      error = got.error().kind == kube::ErrorKind::NotFound
                  ? "job " + name + " disappeared after a creation conflict"
                  : "failed to fetch conflicting job: " + got.error().describe();
      return std::nullopt;
    }
    volcano::Job existing;
    try {
      volcano::decode_job(*got, existing, volcano::TemplateMode::kBorrow);
    } catch (const volcano::DecodeError& e) {
      error = std::string("failed to read conflicting job: ") + e.what();
      return std::nullopt;
    }
    const api::OwnerRef* owner = existing.controller_ref();
    if (owner == nullptr || owner->uid != cj_.uid) {
      record("Warning", "ForeignJob",
             "Job " + name + " exists but is not owned by this CronJob (current owner: " +
                 (owner ? owner->name : std::string("none")) + ")");
      return std::nullopt;
    }
    const std::string& phase = existing.status.phase;
    if (phase == "Completed" || phase == "Failed" || phase == "Terminated") return std::nullopt;
    return std::move(*got);
  }

  std::string perform(const CreateJob& create) {
    const std::string name = create.job["metadata"]["name"].get<std::string>();
    auto made = client_.create(resources::jobs, cj_.namespace_, create.job);
    json job;
    if (made) {
      job = std::move(*made);
      record("Normal", "SuccessfulCreate",
             "Created job " + name + " for CronJob " + cj_.namespace_ + "/" + cj_.name);
    } else if (made.error().has_cause(kube::kNamespaceTerminatingCause)) {
      record("Warning", "NamespaceTerminating",
             "Namespace " + cj_.namespace_ + " is terminating, skipping job creation");
      return made.error().describe();
    } else if (made.error().kind == kube::ErrorKind::AlreadyExists) {
      std::string error;
      auto existing = existing_job(name, error);
      if (!existing) return error;  // "" when the Job is foreign or finished: nothing more
      job = std::move(*existing);
    } else {
      record("Warning", "FailedCreate", "Failed to create job: " + made.error().message);
      return made.error().describe();
    }
    const json& meta = job["metadata"];
    const std::string uid = meta.value("uid", "");
    requeue_ = create.requeue_after;
    if (std::any_of(status_.active.begin(), status_.active.end(),
                    [&](const auto& r) { return r.uid == uid; })) {
      return "";
    }
    status_.active.push_back({.kind = "Job",
                              .namespace_ = cj_.namespace_,
                              .name = name,
                              .uid = uid,
                              .api_version = "batch.volcano.sh/v1alpha1",
                              .resource_version = meta.value("resourceVersion", ""),
                              .field_path = ""});
    status_.last_schedule_time = create.scheduled;
    changed_ = true;
    return "";
  }

  std::string write_status() {
    const json body = {{"apiVersion", volcano::kCronJobApiVersion},
                       {"kind", volcano::kCronJobKind},
                       {"metadata",
                        {{"name", cj_.name},
                         {"namespace", cj_.namespace_},
                         {"resourceVersion", cj_.resource_version}}},
                       {"status", volcano::encode_cron_job_status(status_)}};
    auto r = client_.update_status(resources::cronjobs, cj_.namespace_, body);
    if (!r && r.error().kind == kube::ErrorKind::NotFound) {
      // The CronJob was deleted after the copy we planned from (the cache trails its delete, as
      // in a namespace's teardown): nothing is left to update, and its delete event forgets the
      // key. A retry would plan from the same stale copy and repeat its events.
      gone_ = true;
      return "";
    }
    if (!r) return "updating status of CronJob " + cj_.key() + ": " + r.error().describe();
    if (const auto meta = r->find("metadata"); meta != r->end() && meta->is_object()) {
      written_version_ = meta->value("resourceVersion", "");
    }
    return "";
  }

  const Plan& plan_;
  const CronJobView& cj_;
  kube::Client& client_;
  kube::events::EventRecorder& recorder_;
  volcano::CronJobStatus status_;
  bool changed_;
  std::optional<std::chrono::milliseconds> requeue_;
  std::string written_version_;  // of the status write, when there was one
  bool gone_ = false;            // the status write found the CronJob deleted
};

}  // namespace

Outcome execute(const Plan& plan, const CronJobView& cron_job, kube::Client& client,
                kube::events::EventRecorder& recorder) {
  return Run(plan, cron_job, client, recorder).go();
}

}  // namespace vc::controllers::cronjob

#include "controllers/cronjob/cronjob_controller.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/kube/cache/informer.h"
#include "common/kube/resource.h"
#include "common/kube/workqueue/rate_limiting_queue.h"
#include "common/log/log.h"
#include "controllers/cronjob/cron_job_view.h"
#include "controllers/cronjob/executor.h"
#include "controllers/cronjob/plan.h"
#include "controllers/cronjob/schedule_times.h"
#include "controllers/framework/own_writes.h"
#include "controllers/framework/worker_loop.h"
#include "controllers/job/model/job_json.h"

namespace vc::controllers::cronjob {

namespace {

using log::kv;
namespace cache = kube::cache;
namespace workqueue = kube::workqueue;

// The schedule a CronJob runs on, for the update handler (no events: the sync reports them).
std::string schedule_text(const volcano::CronJob& cj) {
  if (cj.spec.schedule.find("TZ") == std::string::npos && cj.spec.time_zone &&
      go::Location::load(*cj.spec.time_zone)) {
    return "TZ=" + *cj.spec.time_zone + " " + cj.spec.schedule;
  }
  return cj.spec.schedule;
}

// Jobs by the UID of the CronJob that controls them, so that a sync visits its own Jobs: walking
// the namespace's Jobs on every sync took a fifth of the controller's CPU at 500 CronJobs.
constexpr const char* kCronJobOwnerIndex = "cronjob-owner-uid";
std::vector<std::string> cron_job_owner_uid(const cache::Object& obj) {
  const auto* job = dynamic_cast<const job::Job*>(&obj);
  const api::OwnerRef* ref = job != nullptr ? job->controller_ref() : nullptr;
  if (ref == nullptr || ref->kind != volcano::kCronJobKind ||
      ref->api_version != volcano::kCronJobApiVersion) {
    return {};
  }
  return {ref->uid};
}

// CronJobController: shared informers on Volcano Jobs (the job controller's views) and CronJobs,
// one rate-limited queue of "ns/name" CronJob keys, --worker-threads-for-cronjob workers on the
// framework's worker loop. A CronJob waiting for its next run is parked with requeue_after.
//
// Threads: initialize/run/stop on the control thread (see Controller). Informer handlers only
// enqueue (and record UnParseableCronJobSchedule). Workers call sync(); the queue guarantees one
// key is never synced by two at once.
class CronJobController final : public Controller {
 public:
  explicit CronJobController(CronJobControllerOptions options) : options_(std::move(options)) {
    if (!options_.now) options_.now = [] { return std::chrono::system_clock::now(); };
  }
  ~CronJobController() override { stop(); }

  std::string name() const override { return kControllerName; }

  api::Status initialize(ControllerContext& ctx) override {
    if (!ctx.options.cron_volcano_job_support || !ctx.options.volcano_job_support) {
      return api::Unexpected{"needs the CronVolcanoJobSupport and VolcanoJobSupport feature gates"};
    }
    client_ = &ctx.client;
    recorder_ = &ctx.recorder;
    workers_ = std::max<std::uint32_t>(1, ctx.options.worker_threads_for_cronjob);
    if (auto local = go::Location::load("Local")) {
      local_ = *local;
    } else {
      VC_LOG_WARN("cannot load the local time zone, schedules without one run in UTC",
                  kv("error", local.error()));
      local_ = go::Location::utc();
    }
    workqueue::QueueOptions queue_options;
    queue_options.name = kControllerName;
    queue_options.clock = options_.clock;
    queue_ = std::make_shared<workqueue::RateLimitingQueue<std::string>>(std::move(queue_options));

    cache::InformerSpec job_spec;
    job_spec.transform = job::job_view_transform();  // shared with the job controller
    jobs_ = ctx.informers.informer(kube::resources::jobs, job_spec);
    jobs_->add_indexer(kCronJobOwnerIndex, cron_job_owner_uid);
    cache::InformerSpec cron_spec;
    cron_spec.transform = cron_job_view_transform();
    cron_jobs_ = ctx.informers.informer(kube::resources::cronjobs, cron_spec);

    // The handlers hold what they use, not the controller: the shared informers may outlive us.
    cache::EventHandler on_cron;
    on_cron.on_add = [q = queue_](const cache::ObjectPtr& obj) { q->add(obj->key()); };
    on_cron.on_delete = [q = queue_](const cache::ObjectPtr& obj) { q->add(obj->key()); };
    on_cron.on_update = [q = queue_, recorder = recorder_, now = options_.now, local = local_](
                            const cache::ObjectPtr& old_obj, const cache::ObjectPtr& new_obj) {
      on_cron_job_update(*q, *recorder, now(), local, old_obj, new_obj);
    };
    cron_handler_ = cron_jobs_->add_event_handler(std::move(on_cron));

    cache::EventHandler on_job;
    const auto owner = [cron = cron_jobs_, q = queue_](const volcano::Job& job) {
      enqueue_owner(*q, *cron, job);
    };
    on_job.on_add = [owner](const cache::ObjectPtr& obj) {
      if (auto job = job::as_job(obj)) owner(*job);
    };
    on_job.on_delete = on_job.on_add;
    on_job.on_update = [owner](const cache::ObjectPtr& old_obj, const cache::ObjectPtr& new_obj) {
      const auto before = job::as_job(old_obj);
      const auto after = job::as_job(new_obj);
      if (!before || !after || before->resource_version == after->resource_version) return;
      owner(*after);
      const api::OwnerRef* a = before->controller_ref();
      const api::OwnerRef* b = after->controller_ref();
      if (!(a == nullptr && b == nullptr) && (a == nullptr || b == nullptr || !(*a == *b))) {
        owner(*before);
      }
    };
    job_handler_ = jobs_->add_event_handler(std::move(on_job));
    return api::ok_status();
  }

  void run() override {
    // Keys are retried without limit (spec controller-manager.md §1.11).
    workers_running_ = run_workers(*queue_, static_cast<int>(workers_),
                                   [this](const std::string& key) { return sync(key); },
                                   {.name = kControllerName, .max_requeue = -1});
  }

  void stop() override {
    if (jobs_) jobs_->remove_event_handler(job_handler_);
    if (cron_jobs_) cron_jobs_->remove_event_handler(cron_handler_);
    if (queue_) queue_->shutdown();
    workers_running_.stop();
  }

 private:
  // A Job event wakes the CronJob that controls it, if the cache has that CronJob (same UID).
  static void enqueue_owner(workqueue::Queue<std::string>& queue, const cache::Informer& cron_jobs,
                            const volcano::Job& job) {
    const api::OwnerRef* ref = job.controller_ref();
    if (ref == nullptr || ref->api_version != volcano::kCronJobApiVersion ||
        ref->kind != volcano::kCronJobKind) {
      return;
    }
    const std::string key = cache::object_key(job.namespace_, ref->name);
    const auto cj = cron_jobs.store().get(key);
    if (cj != nullptr && cj->uid == ref->uid) queue.add(key);
  }

  // A changed schedule or zone waits for its next run (a schedule that does not parse is
  // reported and not queued); any other change is synced at once.
  static void on_cron_job_update(workqueue::RateLimitingQueue<std::string>& queue,
                                 kube::events::EventRecorder& recorder, api::TimePoint now,
                                 const std::shared_ptr<const go::Location>& local,
                                 const cache::ObjectPtr& old_obj, const cache::ObjectPtr& new_obj) {
    const auto before = as_cron_job(old_obj);
    const auto after = as_cron_job(new_obj);
    if (!before || !after || before->resource_version == after->resource_version) return;
    if (before->spec.schedule == after->spec.schedule &&
        before->spec.time_zone == after->spec.time_zone) {
      queue.add(after->key());
      return;
    }
    const auto schedule = cron::Schedule::parse(schedule_text(*after), local);
    if (!schedule) {
      recorder.event({.kind = volcano::kCronJobKind,
                      .namespace_ = after->namespace_,
                      .name = after->name,
                      .uid = after->uid,
                      .api_version = volcano::kCronJobApiVersion,
                      .resource_version = after->resource_version,
                      .field_path = ""},
                     kube::events::EventType::Warning, "UnParseableCronJobSchedule",
                     "unparseable schedule for cronjob: " + after->spec.schedule);
      return;
    }
    const ScheduleClock clock{.created = after->creation_timestamp.value_or(api::TimePoint{}),
                              .last_schedule = after->status.last_schedule_time,
                              .starting_deadline_s = after->spec.starting_deadline_seconds};
    const auto delay = next_requeue_delay(clock, now, *schedule);
    if (delay.count() <= 0) {
      queue.add(after->key());
    } else {
      queue.add_after(after->key(), delay);
    }
  }

  Snapshot snapshot_of(const CronJobView& cj) const {
    Snapshot s;
    s.cron_job = &cj;
    s.job_template_spec = &cj.job_template_spec;
    s.now = options_.now();
    s.local = local_;
    std::vector<std::string> owned_uids;
    jobs_->store().for_each_in_index(kCronJobOwnerIndex, cj.uid, [&](const cache::Object& obj) {
      const auto& job = dynamic_cast<const job::Job&>(obj);  // the index files only Jobs
      const api::OwnerRef* ref = job.controller_ref();
      if (job.namespace_ != cj.namespace_ || ref == nullptr || ref->name != cj.name) return;
      s.owned.push_back({.name = job.name,
                         .uid = job.uid,
                         .created = job.creation_timestamp,
                         .phase = job.status.phase,
                         .last_transition = job.status.last_transition_time});
      owned_uids.push_back(job.uid);
    });
    for (const auto& ref : cj.status.active) {
      if (std::find(owned_uids.begin(), owned_uids.end(), ref.uid) != owned_uids.end()) continue;
      if (const auto job = jobs_->store().get(cache::object_key(ref.namespace_, ref.name))) {
        s.active_name_uids[ref.name] = job->uid;
      }
    }
    return s;
  }

  // One sync: plan from the caches, execute. A CronJob that is gone or being deleted is done. A
  // cache that has not yet seen our last status write is not planned from: its status.active and
  // lastScheduleTime are the ones that write replaced (own_writes.h). The write's watch event
  // wakes the key again; the requeue is for a watch that loses it.
  ReconcileResult sync(const std::string& key) {
    const auto cj = as_cron_job(cron_jobs_->store().get(key));
    if (cj == nullptr || cj->deletion_timestamp) {
      own_writes_.forget(key);
      return ReconcileResult::ok();
    }
    if (own_writes_.cache_behind(key, cj->resource_version)) {
      VC_LOG_DEBUG("cronjob cache has not seen our status write yet", kv("cronjob", key),
                   kv("resource_version", cj->resource_version));
      return ReconcileResult::requeue_after(kOwnWriteRetry);
    }
    const Plan plan = plan_sync(snapshot_of(*cj));
    const Outcome outcome = execute(plan, *cj, *client_, *recorder_);
    own_writes_.wrote(key, cj->resource_version, outcome.status_written);
    if (!outcome.error.empty()) return ReconcileResult::error(outcome.error);
    if (!outcome.requeue_after) return ReconcileResult::ok();
    VC_LOG_DEBUG("cronjob waits for its next run", kv("cronjob", key),
                 kv("after_ms", outcome.requeue_after->count()));
    return ReconcileResult::requeue_after(
        std::max(*outcome.requeue_after, std::chrono::milliseconds(0)));
  }

  CronJobControllerOptions options_;
  kube::Client* client_ = nullptr;
  kube::events::EventRecorder* recorder_ = nullptr;
  std::shared_ptr<const go::Location> local_;
  std::uint32_t workers_ = 1;
  std::shared_ptr<cache::Informer> jobs_;
  std::shared_ptr<cache::Informer> cron_jobs_;
  cache::HandlerId job_handler_ = 0;
  cache::HandlerId cron_handler_ = 0;
  std::shared_ptr<workqueue::RateLimitingQueue<std::string>> queue_;
  OwnWrites own_writes_;
  Workers workers_running_;
};

}  // namespace

std::unique_ptr<Controller> make_cronjob_controller() {
  return make_cronjob_controller({});
}

std::unique_ptr<Controller> make_cronjob_controller(CronJobControllerOptions options) {
  return std::make_unique<CronJobController>(std::move(options));
}

}  // namespace vc::controllers::cronjob

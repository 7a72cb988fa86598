#include "controllers/jobtemplate/jobtemplate_controller.h"

#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/kube/cache/informer.h"
#include "common/kube/cache/label_index.h"
#include "common/kube/resource.h"
#include "common/kube/workqueue/rate_limiting_queue.h"
#include "common/log/log.h"
#include "controllers/framework/worker_loop.h"
#include "controllers/job/model/job_json.h"
#include "controllers/jobflow/views.h"
#include "controllers/jobtemplate/executor.h"
#include "controllers/jobtemplate/plan.h"

namespace vc::controllers::jobtemplate {

namespace {

using log::kv;
namespace cache = kube::cache;
namespace workqueue = kube::workqueue;

// JobTemplateController: shared informers on JobTemplates (the JobFlow controller's view) and
// Volcano Jobs (the job controller's), one rate-limited queue of "ns/name" template keys and one
// worker, as Volcano runs it. A new template, and a new Job labelled as made from one, queue the
// template. A key is retried up to --max-requeue-num times, then dropped with a Warning event.
class JobTemplateController final : public Controller {
 public:
  ~JobTemplateController() override { stop(); }

  std::string name() const override { return kControllerName; }

  api::Status initialize(ControllerContext& ctx) override {
    client_ = &ctx.client;
    recorder_ = &ctx.recorder;
    max_requeue_ = ctx.options.max_requeue_num < 0 ? -1 : ctx.options.max_requeue_num;
    transient_max_delay_ = std::chrono::duration_cast<std::chrono::milliseconds>(
        ctx.options.transient_retry_max_delay);
    workqueue::QueueOptions queue_options;
    queue_options.name = kControllerName;
    queue_ = std::make_shared<workqueue::RateLimitingQueue<std::string>>(std::move(queue_options));

    cache::InformerSpec template_spec;
    template_spec.transform = jobflow::job_template_view_transform();
    templates_ = ctx.informers.informer(kube::resources::jobtemplates, template_spec);
    cache::InformerSpec job_spec;
    job_spec.transform = job::job_view_transform();
    jobs_ = ctx.informers.informer(kube::resources::jobs, job_spec);
    // A template's Jobs by their label: a sync reads those, not the namespace's every Job.
    jobs_->add_indexer(cache::label_index_name(kCreatedByJobTemplate),
                       cache::label_index(kCreatedByJobTemplate));

    cache::EventHandler on_template;
    on_template.on_add = [q = queue_](const cache::ObjectPtr& obj) { q->add(obj->key()); };
    template_handler_ = templates_->add_event_handler(std::move(on_template));
    cache::EventHandler on_job;
    on_job.on_add = [q = queue_](const cache::ObjectPtr& obj) {
      if (const auto job = job::as_job(obj)) {
        if (auto key = template_key_of(*job)) q->add(std::move(*key));
      }
    };
    job_handler_ = jobs_->add_event_handler(std::move(on_job));
    return api::ok_status();
  }

  void run() override {
    workers_ = run_workers(
        *queue_, 1, [this](const std::string& key) { return sync(key); },
        {.name = kControllerName,
         .max_requeue = max_requeue_,
         .on_drop = [this](const std::string& key, const std::string& error) { drop(key, error); },
         .transient_max_delay = transient_max_delay_});
  }

  void stop() override {
    if (templates_) templates_->remove_event_handler(template_handler_);
    if (jobs_) jobs_->remove_event_handler(job_handler_);
    if (queue_) queue_->shutdown();
    workers_.stop();
  }

 private:
  // Volcano's event here has an empty reason and a message that starts with a space.
  void drop(const std::string& key, const std::string& error) {
    const auto jt = jobflow::as_job_template(templates_->store().get(key));
    if (!jt) return;
    const auto& resource = kube::resources::jobtemplates;
    recorder_->event({.kind = std::string(resource.kind),
                      .namespace_ = jt->namespace_,
                      .name = jt->name,
                      .uid = jt->uid,
                      .api_version = resource.api_version(),
                      .resource_version = jt->resource_version,
                      .field_path = ""},
                     kube::events::EventType::Warning, "", " JobTemplate failed for " + error);
  }

  ReconcileResult sync(const std::string& key) {
    const auto jt = jobflow::as_job_template(templates_->store().get(key));
    if (!jt) return ReconcileResult::ok();  // deleted
    std::vector<cache::ObjectPtr> held;     // keeps the Jobs alive while we point into them
    std::vector<const volcano::Job*> jobs;
    const std::string mark = jt->namespace_ + "." + jt->name;
    for (auto& obj : jobs_->store().by_index(cache::label_index_name(kCreatedByJobTemplate),
                                             cache::label_index_value(jt->namespace_, mark))) {
      if (const auto job = job::as_job(obj)) {
        jobs.push_back(job.get());
        held.push_back(std::move(obj));
      }
    }
    const auto names = plan_depends_on(jt->namespace_, jt->name, jt->job_depends_on_list, jobs);
    if (!names) return ReconcileResult::ok();
    if (std::string error = write_depends_on(*client_, *jt, *names); !error.empty()) {
      return ReconcileResult::error(std::move(error));
    }
    VC_LOG_DEBUG("jobtemplate synced", kv("jobtemplate", key), kv("jobs", names->size()));
    return ReconcileResult::ok();
  }

  kube::Client* client_ = nullptr;
  kube::events::EventRecorder* recorder_ = nullptr;
  int max_requeue_ = -1;
  std::chrono::milliseconds transient_max_delay_{std::chrono::seconds(30)};
  std::shared_ptr<cache::Informer> templates_;
  std::shared_ptr<cache::Informer> jobs_;
  cache::HandlerId template_handler_ = 0;
  cache::HandlerId job_handler_ = 0;
  std::shared_ptr<workqueue::RateLimitingQueue<std::string>> queue_;
  Workers workers_;
};

}  // namespace

std::unique_ptr<Controller> make_jobtemplate_controller() {
  return std::make_unique<JobTemplateController>();
}

}  // namespace vc::controllers::jobtemplate

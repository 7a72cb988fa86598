#include "controllers/jobflow/jobflow_controller.h"

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
#include "controllers/jobflow/executor.h"
#include "controllers/jobflow/plan.h"
#include "controllers/jobflow/prober.h"
#include "controllers/jobflow/views.h"

namespace vc::controllers::jobflow {

namespace {

using log::kv;
namespace cache = kube::cache;
namespace workqueue = kube::workqueue;

// The JobFlow a Job belongs to: the name of an owner of kind JobFlow from a Volcano API group,
// when the Job's controller is a flow.volcano.sh/v1alpha1 JobFlow (Volcano's two checks).
std::string owning_flow(const volcano::Job& job) {
  const api::OwnerRef* controller = job.controller_ref();
  if (controller == nullptr || controller->api_version != volcano::kJobFlowApiVersion ||
      controller->kind != volcano::kJobFlowKind) {
    return "";
  }
  for (const api::OwnerRef& r : job.owner_references) {
    if (r.kind == volcano::kJobFlowKind && r.api_version.find("volcano") != std::string::npos) {
      return r.name;
    }
  }
  return "";
}

// JobFlowController: shared informers on JobFlows, JobTemplates and Volcano Jobs (the job
// controller's views), one rate-limited queue of "ns/name" JobFlow keys and one worker, as
// Volcano runs it. A key is retried up to --max-requeue-num times, then dropped with a
// SyncJobFlow Warning event.
class JobFlowController final : public Controller {
 public:
  explicit JobFlowController(JobFlowControllerOptions options) : options_(std::move(options)) {
    if (!options_.now) options_.now = [] { return std::chrono::system_clock::now(); };
  }
  ~JobFlowController() override { stop(); }

  std::string name() const override { return kControllerName; }

  api::Status initialize(ControllerContext& ctx) override {
    client_ = &ctx.client;
    recorder_ = &ctx.recorder;
    max_requeue_ = ctx.options.max_requeue_num < 0 ? -1 : ctx.options.max_requeue_num;
    transient_max_delay_ = std::chrono::duration_cast<std::chrono::milliseconds>(
        ctx.options.transient_retry_max_delay);
    workqueue::QueueOptions queue_options;
    queue_options.name = kControllerName;
    queue_options.clock = options_.clock;
    queue_ = std::make_shared<workqueue::RateLimitingQueue<std::string>>(std::move(queue_options));

    cache::InformerSpec flow_spec;
    flow_spec.transform = job_flow_view_transform();
    flows_ = ctx.informers.informer(kube::resources::jobflows, flow_spec);
    cache::InformerSpec template_spec;
    template_spec.transform = job_template_view_transform();
    templates_ = ctx.informers.informer(kube::resources::jobtemplates, template_spec);
    cache::InformerSpec job_spec;
    job_spec.transform = job::job_view_transform();  // shared with the job controller
    jobs_ = ctx.informers.informer(kube::resources::jobs, job_spec);
    // A flow's Jobs by their label: a sync reads those and its steps' names, not the namespace.
    jobs_->add_indexer(cache::label_index_name(kCreatedByJobFlow),
                       cache::label_index(kCreatedByJobFlow));

    // A new flow is synced; a changed one only once it has Succeeded with retain policy delete
    // (its Jobs go); Job updates wake the flow that owns them.
    cache::EventHandler on_flow;
    on_flow.on_add = [q = queue_](const cache::ObjectPtr& obj) { q->add(obj->key()); };
    on_flow.on_update = [q = queue_](const cache::ObjectPtr& old_obj,
                                     const cache::ObjectPtr& new_obj) {
      const auto after = as_job_flow(new_obj);
      if (!after || old_obj->resource_version == new_obj->resource_version) return;
      if (after->status.phase == volcano::flow_phase::kSucceed &&
          after->spec.job_retain_policy == volcano::retain_policy::kDelete) {
        q->add(after->key());
      }
    };
    flow_handler_ = flows_->add_event_handler(std::move(on_flow));

    cache::EventHandler on_job;
    on_job.on_update = [q = queue_](const cache::ObjectPtr& old_obj,
                                    const cache::ObjectPtr& new_obj) {
      const auto job = job::as_job(new_obj);
      if (!job || old_obj->resource_version == new_obj->resource_version) return;
      if (const std::string flow = owning_flow(*job); !flow.empty()) {
        q->add(cache::object_key(job->namespace_, flow));
      }
    };
    job_handler_ = jobs_->add_event_handler(std::move(on_job));

    patches_ = ctx.options.jobflow_patches;
    if (ctx.options.jobflow_probes) {
      kube::Client* client = client_;
      prober_ = std::make_unique<Prober>(
          [client](const std::string& ns, const std::string& selector) {
            kube::ListOptions options;
            options.label_selector = selector;
            return client->list(kube::resources::pods, ns, options);
          },
          [q = queue_](const std::string& flow_key) { q->add(flow_key); }, options_.prober);
    }
    return api::ok_status();
  }

  void run() override {
    if (prober_) prober_->start();
    workers_ = run_workers(
        *queue_, 1, [this](const std::string& key) { return sync(key); },
        {.name = kControllerName,
         .max_requeue = max_requeue_,
         .on_drop = [this](const std::string& key, const std::string& error) { drop(key, error); },
         .transient_max_delay = transient_max_delay_});
  }

  void stop() override {
    if (flows_) flows_->remove_event_handler(flow_handler_);
    if (jobs_) jobs_->remove_event_handler(job_handler_);
    if (queue_) queue_->shutdown();
    workers_.stop();
    if (prober_) prober_->stop();
  }

 private:
  void drop(const std::string& key, const std::string& error) {
    const auto jf = as_job_flow(flows_->store().get(key));
    if (!jf) return;
    recorder_->event(reference_to(*jf), kube::events::EventType::Warning, "SyncJobFlow",
                     "SyncJobFlow JobFlow failed for " + error);
  }

  ReconcileResult sync(const std::string& key) {
    const auto jf = as_job_flow(flows_->store().get(key));
    if (!jf) return ReconcileResult::ok();  // deleted
    // The cached objects the snapshot points into stay alive until the sync ends.
    std::vector<cache::ObjectPtr> held;
    Snapshot s;
    s.flow = jf.get();
    s.now = options_.now();
    const std::string mark = jf->namespace_ + "." + jf->name;
    for (auto& obj : jobs_->store().by_index(cache::label_index_name(kCreatedByJobFlow),
                                             cache::label_index_value(jf->namespace_, mark))) {
      if (const auto job = job::as_job(obj)) {
        s.flow_jobs.push_back(job.get());
        held.push_back(std::move(obj));
      }
    }
    // The plan asks only about the Jobs of the flow's steps and their targets, and the steps'
    // templates: looked up by name.
    const auto find_job = [&](const std::string& step) {
      const std::string job_name = flow_job_name(jf->name, step);
      if (s.jobs_by_name.contains(job_name)) return;
      if (auto job = job::as_job(jobs_->store().get(cache::object_key(jf->namespace_, job_name)))) {
        s.jobs_by_name[job_name] = job.get();
        held.push_back(std::move(job));
      }
    };
    for (const volcano::Flow& step : jf->spec.flows) {
      find_job(step.name);
      if (step.depends_on) {
        for (const std::string& target : step.depends_on->targets) find_job(target);
      }
      if (auto t = as_job_template(
              templates_->store().get(cache::object_key(jf->namespace_, step.name)))) {
        s.templates[step.name] = t.get();
        held.push_back(std::move(t));
      }
    }
    s.patches = patches_;
    if (prober_) {
      s.probes = true;
      s.probe_results = prober_->fresh_results();
    }
    const Plan plan = plan_sync(s);
    if (!plan.act) return ReconcileResult::ok();
    if (std::string error = execute(plan, *jf, *client_, *recorder_); !error.empty()) {
      return ReconcileResult::error(std::move(error));
    }
    VC_LOG_DEBUG("jobflow synced", kv("jobflow", key), kv("phase", plan.status.phase),
                 kv("created", plan.creates.size()), kv("deleted", plan.deletes.size()));
    if (!plan.probe_waits.empty()) {
      for (const std::string& wait : plan.probe_waits) {
        VC_LOG_DEBUG("jobflow step waits on its probe", kv("jobflow", key), kv("step", wait));
      }
      if (!plan.probe_checks.empty()) {
        // The prober wakes the flow when a check ends; a failed one is tried again once stale.
        // The margin puts the next sync after the result has gone stale (the sync the prober's
        // wake-up causes runs just after the result was stored).
        prober_->request(plan.probe_checks, key);
        return ReconcileResult::requeue_after(options_.prober.fresh +
                                              std::chrono::milliseconds(250));
      }
    }
    return ReconcileResult::ok();
  }

  JobFlowControllerOptions options_;
  kube::Client* client_ = nullptr;
  kube::events::EventRecorder* recorder_ = nullptr;
  int max_requeue_ = -1;
  std::chrono::milliseconds transient_max_delay_{std::chrono::seconds(30)};
  std::shared_ptr<cache::Informer> flows_;
  std::shared_ptr<cache::Informer> templates_;
  std::shared_ptr<cache::Informer> jobs_;
  cache::HandlerId flow_handler_ = 0;
  cache::HandlerId job_handler_ = 0;
  std::unique_ptr<Prober> prober_;  // with --jobflow-probes only
  bool patches_ = false;            // --jobflow-patches
  std::shared_ptr<workqueue::RateLimitingQueue<std::string>> queue_;
  Workers workers_;
};

}  // namespace

std::unique_ptr<Controller> make_jobflow_controller() {
  return make_jobflow_controller({});
}

std::unique_ptr<Controller> make_jobflow_controller(JobFlowControllerOptions options) {
  return std::make_unique<JobFlowController>(std::move(options));
}

}  // namespace vc::controllers::jobflow

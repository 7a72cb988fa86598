// pg-controller (spec controller-manager.md §3): gives every pod of our schedulers that has no
// PodGroup one, named after its owner, and joins the pod to it.
//
// Work flows through two queues:
//   - pods: pod add events (including the initial list) enqueue "ns/name"; worker_threads_for_
//     podgroup workers run sync_pod with unlimited retries (spec controller-manager.md §1.11);
//   - workloads (only with WorkLoadSupport): ReplicaSet and StatefulSet add/update events enqueue
//     "<Kind>/ns/name"; one worker runs sync_workload, which logs errors and does not retry
//     (spec controller-manager.md §3.6). Volcano runs this path inside the event handler; a queue
//     keeps the informer thread free and still reads the newest object.

#include "controllers/podgroup/podgroup_controller.h"

#include <algorithm>
#include <map>
#include <memory>
#include <string>

#include "common/kube/cache/informer.h"
#include "common/kube/workqueue/rate_limiting_queue.h"
#include "common/log/log.h"
#include "controllers/framework/worker_loop.h"
#include "controllers/podgroup/executor.h"
#include "controllers/podgroup/plan.h"
#include "controllers/views/pod_view.h"
#include "controllers/views/podgroup_view.h"

namespace vc::controllers::podgroup {

namespace {

using kube::cache::ObjectPtr;
using RateLimitingQueue = kube::workqueue::RateLimitingQueue<std::string>;

constexpr const char* kName = "pg-controller";

// Threads: initialize/run/stop on the process's control thread; sync_pod and sync_workload on
// worker threads; event handlers on informer threads, where they only enqueue keys.
class PodGroupController : public Controller {
 public:
  std::string name() const override { return kName; }

  api::Status initialize(ControllerContext& ctx) override {
    client_ = &ctx.client;
    options_ = &ctx.options;
    executor_ = std::make_unique<Executor>(ctx.client, ctx.options);
    pod_queue_ = make_queue("pg-controller");
    workload_queue_ = make_queue("pg-controller-workloads");

    kube::cache::InformerSpec pod_spec;
    pod_spec.transform = views::pod_view_transform();
    pods_ = ctx.informers.informer(kube::resources::pods, pod_spec);
    kube::cache::InformerSpec pg_spec;
    pg_spec.transform = views::podgroup_view_transform();
    podgroups_ = ctx.informers.informer(kube::resources::podgroups, pg_spec);
    // The handlers hold the queues, not the controller: an informer may still deliver an event
    // after stop(), into a queue that has shut down and ignores it.
    kube::cache::EventHandler on_pod;
    on_pod.on_add = [q = pod_queue_](const ObjectPtr& obj) { q->add(obj->key()); };
    pods_->add_event_handler(std::move(on_pod));
    if (ctx.options.workload_support) {
      watch_workload(ctx, kube::resources::replicasets);
      watch_workload(ctx, kube::resources::statefulsets);
    }
    return api::ok_status();
  }

  void run() override {
    WorkerOptions<std::string> pod_opts;
    pod_opts.name = kName;
    pod_opts.max_requeue = -1;  // unlimited (spec controller-manager.md §1.11)
    const int n =
        static_cast<int>(std::max<std::uint32_t>(1, options_->worker_threads_for_podgroup));
    pod_workers_ = run_workers(
        *pod_queue_, n, [this](const std::string& key) { return sync_pod(key); }, pod_opts);
    if (options_->workload_support) {
      WorkerOptions<std::string> workload_opts;
      workload_opts.name = kName;
      workload_workers_ = run_workers(
          *workload_queue_, 1, [this](const std::string& key) { return sync_workload(key); },
          workload_opts);
    }
  }

  void stop() override {
    pod_workers_.stop();
    workload_workers_.stop();
  }

 private:
  static std::shared_ptr<RateLimitingQueue> make_queue(const char* name) {
    kube::workqueue::QueueOptions opts;
    opts.name = name;
    return std::make_shared<RateLimitingQueue>(std::move(opts));
  }

  void watch_workload(ControllerContext& ctx, const kube::Resource& resource) {
    auto informer = ctx.informers.informer(resource);
    const std::string prefix = std::string(resource.kind) + "/";
    kube::cache::EventHandler handler;
    handler.on_add = [q = workload_queue_, prefix](const ObjectPtr& obj) {
      q->add(prefix + obj->key());
    };
    handler.on_update = [q = workload_queue_, prefix](const ObjectPtr&, const ObjectPtr& obj) {
      q->add(prefix + obj->key());
    };
    informer->add_event_handler(std::move(handler));
    workloads_[std::string(resource.kind)] = std::move(informer);
  }

  ReconcileResult sync_pod(const std::string& key) {
    const views::PodViewPtr pod = views::as_pod_view(pods_->store().get(key));
    bool cached = false;
    if (pod) {
      const std::string pg_key = kube::cache::object_key(pod->namespace_, podgroup_name(*pod));
      cached = podgroups_->store().get(pg_key) != nullptr;
    }
    const PodPlan plan = plan_pod(pod.get(), cached, options_->scheduler_names);
    if (!plan.skip_reason.empty()) {
      // A pod gone from the cache is dropped without retry
      // (spec controller-manager.md §3.2 step 1).
      VC_LOG_DEBUG("pod needs no PodGroup", kv("pod", key), kv("reason", plan.skip_reason));
      return ReconcileResult::ok();
    }
    auto st = executor_->apply(*pod, plan);
    return st.ok() ? ReconcileResult::ok() : ReconcileResult::error(st.error().describe());
  }

  // Errors are logged by the executor and not retried (spec controller-manager.md §3.6).
  ReconcileResult sync_workload(const std::string& key) {
    const auto slash = key.find('/');
    const std::string kind = key.substr(0, slash);
    const std::string object_key = key.substr(slash + 1);
    auto it = workloads_.find(kind);
    if (it == workloads_.end()) return ReconcileResult::ok();
    auto obj = std::dynamic_pointer_cast<const kube::cache::JsonObject>(
        it->second->store().get(object_key));
    if (!obj) return ReconcileResult::ok();  // deleted since: Kubernetes collects its PodGroup
    const WorkloadPlan plan = plan_workload(kind, obj->json);
    if (plan.action == WorkloadPlan::Action::DeletePodGroup) {
      (void)executor_->delete_podgroup(plan.namespace_, plan.podgroup_name);
    } else if (plan.action == WorkloadPlan::Action::SyncFromFirstPod) {
      views::PodViewPtr pod =
          kind == "ReplicaSet" ? first_pod_from_api(plan, key) : first_pod_from_cache(plan);
      std::string why_not;
      if (pod && needs_podgroup(*pod, options_->scheduler_names, &why_not)) {
        (void)executor_->create_or_update(*pod);
      }
    }
    return ReconcileResult::ok();
  }

  // ReplicaSet: the first pod the API lists with the selector (spec controller-manager.md §3.6).
  views::PodViewPtr first_pod_from_api(const WorkloadPlan& plan, const std::string& key) {
    kube::ListOptions opts;
    opts.label_selector = plan.label_selector;
    opts.limit = 1;  // the API lists in key order, so the first page holds the first pod
    auto list = client_->list(kube::resources::pods, plan.namespace_, opts);
    if (!list.ok()) {
      VC_LOG_ERROR("cannot list the pods of a workload", kv("workload", key),
                   kv("error", list.error().describe()));
      return nullptr;
    }
    const auto& items = (*list)["items"];
    if (!items.is_array() || items.empty()) return nullptr;
    try {
      return views::make_pod_view(items.front());
    } catch (const std::exception& e) {
      VC_LOG_ERROR("cannot read a listed pod", kv("workload", key), kv("error", e.what()));
      return nullptr;
    }
  }

  // StatefulSet: a cached pod of the current revision. Volcano searches every namespace; we
  // search the StatefulSet's own (see docs/compat.md), and take the first by name so that the
  // choice does not depend on hash order.
  views::PodViewPtr first_pod_from_cache(const WorkloadPlan& plan) {
    views::PodViewPtr best;
    for (const ObjectPtr& obj :
         pods_->store().by_index(kube::cache::kNamespaceIndex, plan.namespace_)) {
      auto pod = views::as_pod_view(obj);
      if (pod && matches(plan, *pod) && (!best || pod->name < best->name)) best = pod;
    }
    return best;
  }

  kube::Client* client_ = nullptr;
  const ControllerOptions* options_ = nullptr;
  std::unique_ptr<Executor> executor_;
  std::shared_ptr<RateLimitingQueue> pod_queue_;
  std::shared_ptr<RateLimitingQueue> workload_queue_;
  std::shared_ptr<kube::cache::Informer> pods_;
  std::shared_ptr<kube::cache::Informer> podgroups_;
  std::map<std::string, std::shared_ptr<kube::cache::Informer>> workloads_;
  Workers pod_workers_;
  Workers workload_workers_;
};

}  // namespace

std::unique_ptr<Controller> make_podgroup_controller() {
  return std::make_unique<PodGroupController>();
}

}  // namespace vc::controllers::podgroup

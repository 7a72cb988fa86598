#include "controllers/colocation/colocation_controller.h"

#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/kube/cache/informer.h"
#include "common/kube/cache/store.h"
#include "common/kube/resource.h"
#include "common/kube/workqueue/rate_limiting_queue.h"
#include "common/log/log.h"
#include "controllers/colocation/config_view.h"
#include "controllers/colocation/executor.h"
#include "controllers/colocation/plan.h"
#include "controllers/framework/worker_loop.h"
#include "controllers/views/pod_view.h"

namespace vc::controllers::colocation {

namespace {

using log::kv;
namespace cache = kube::cache;
namespace workqueue = kube::workqueue;
using Queue = workqueue::RateLimitingQueue<std::string>;

// Volcano queues every pod key a second late (spec controller-manager.md §5.6 "Work"), which
// folds a burst of label and configuration changes into one sync.
constexpr std::chrono::seconds kEnqueueDelay{1};

constexpr kube::Resource kColocationConfigurations{
    "config.volcano.sh", "v1alpha1", "colocationconfigurations", "ColocationConfiguration", true};

// ColocationController: the shared pod informer (the compact pod view, which keeps labels and
// every volcano.sh/ annotation) and a ColocationConfiguration informer, one rate-limited queue
// of pod keys and one worker, retried without limit, as Volcano runs it.
//
// Threads: initialize/run/stop on the control thread; handlers on informer threads, where they
// only read the pod cache and enqueue keys; sync on the worker thread.
class ColocationController final : public Controller {
 public:
  ~ColocationController() override { stop(); }

  std::string name() const override { return kControllerName; }

  api::Status initialize(ControllerContext& ctx) override {
    client_ = &ctx.client;
    workqueue::QueueOptions queue_options;
    queue_options.name = kControllerName;
    if (ctx.clock) queue_options.clock = ctx.clock;
    queue_ = std::make_shared<Queue>(std::move(queue_options));

    cache::InformerSpec pod_spec;
    pod_spec.transform = views::pod_view_transform();
    pods_ = ctx.informers.informer(kube::resources::pods, pod_spec);
    cache::InformerSpec config_spec;
    config_spec.transform = colocation_config_view_transform();
    configs_ = ctx.informers.informer(kColocationConfigurations, config_spec);

    // The handlers hold the queue and the pod informer, not the controller: an informer may
    // still deliver an event after stop(), into a queue that has shut down and ignores it.
    cache::EventHandler on_pod;
    on_pod.on_add = [q = queue_](const cache::ObjectPtr& obj) {
      q->add_after(obj->key(), kEnqueueDelay);
    };
    on_pod.on_update = [q = queue_](const cache::ObjectPtr& old_obj,
                                    const cache::ObjectPtr& new_obj) {
      if (old_obj->labels != new_obj->labels) q->add_after(new_obj->key(), kEnqueueDelay);
    };
    pod_handler_ = pods_->add_event_handler(std::move(on_pod));

    cache::EventHandler on_config;
    on_config.on_add = [q = queue_, pods = pods_](const cache::ObjectPtr& obj) {
      enqueue_selected(*q, *pods, as_colocation_config(obj));
    };
    on_config.on_delete = on_config.on_add;
    on_config.on_update = [q = queue_, pods = pods_](const cache::ObjectPtr& old_obj,
                                                     const cache::ObjectPtr& new_obj) {
      const auto before = as_colocation_config(old_obj);
      const auto after = as_colocation_config(new_obj);
      if (!before || !after) return;
      const bool selector_changed = before->selector != after->selector;
      if (selector_changed) enqueue_selected(*q, *pods, before);
      if (selector_changed || before->configuration != after->configuration) {
        enqueue_selected(*q, *pods, after);
      }
    };
    config_handler_ = configs_->add_event_handler(std::move(on_config));
    return api::ok_status();
  }

  void run() override {
    workers_ = run_workers(*queue_, 1, [this](const std::string& key) { return sync(key); },
                           {.name = kControllerName, .max_requeue = -1});
  }

  void stop() override {
    if (pods_) pods_->remove_event_handler(pod_handler_);
    if (configs_) configs_->remove_event_handler(config_handler_);
    if (queue_) queue_->shutdown();
    workers_.stop();
  }

 private:
  // The cached pods of the configuration's namespace that its selector selects
  // (spec controller-manager.md §5.6 "Work"). Selection is compared semantically by Volcano and
  // as stored JSON here: a needless enqueue only costs a sync that writes nothing.
  static void enqueue_selected(Queue& queue, cache::Informer& pods,
                               const ColocationConfigViewPtr& config) {
    if (!config || !config->match) return;
    for (const auto& pod : pods.store().by_index(cache::kNamespaceIndex, config->namespace_)) {
      if (config->selects(pod->labels)) queue.add_after(pod->key(), kEnqueueDelay);
    }
  }

  ReconcileResult sync(const std::string& key) {
    const views::PodViewPtr pod = views::as_pod_view(pods_->store().get(key));
    if (!pod) return ReconcileResult::ok();  // deleted

    std::vector<cache::ObjectPtr> held;  // keeps the configurations alive while we point into them
    std::vector<const ColocationConfigView*> configs;
    for (auto& obj : configs_->store().by_index(cache::kNamespaceIndex, pod->namespace_)) {
      if (const auto config = as_colocation_config(obj)) {
        configs.push_back(config.get());
        held.push_back(std::move(obj));
      }
    }
    const ColocationConfigView* governing = governing_configuration(pod->labels, configs);
    PodAnnotations current;
    if (const std::string* v = pod->annotation(kConfigNameAnnotation)) current.config_name = *v;
    if (const std::string* v = pod->annotation(kConfigAnnotation)) current.config = *v;
    const auto change = plan_pod(current, governing);
    if (!change) return ReconcileResult::ok();
    if (std::string error =
            write_annotations(*client_, pod->namespace_, pod->name, pod->resource_version, *change);
        !error.empty()) {
      return ReconcileResult::error(std::move(error));
    }
    VC_LOG_V(3, "colocation annotations written", kv("pod", key),
             kv("colocationconfig", governing ? governing->name : std::string()));
    return ReconcileResult::ok();
  }

  kube::Client* client_ = nullptr;
  std::shared_ptr<cache::Informer> pods_;
  std::shared_ptr<cache::Informer> configs_;
  cache::HandlerId pod_handler_ = 0;
  cache::HandlerId config_handler_ = 0;
  std::shared_ptr<Queue> queue_;
  Workers workers_;
};

}  // namespace

std::unique_ptr<Controller> make_colocation_controller() {
  return std::make_unique<ColocationController>();
}

}  // namespace vc::controllers::colocation

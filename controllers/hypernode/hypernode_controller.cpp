#include "controllers/hypernode/hypernode_controller.h"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <memory>
#include <mutex>
#include <stop_token>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "common/kube/cache/informer.h"
#include "common/kube/resource.h"
#include "common/kube/stoppable_sleep.h"
#include "common/kube/workqueue/rate_limiting_queue.h"
#include "common/log/log.h"
#include "controllers/framework/worker_loop.h"
#include "controllers/hypernode/cache_views.h"
#include "controllers/hypernode/executor.h"
#include "controllers/hypernode/label_topology.h"
#include "controllers/hypernode/node_count.h"
#include "controllers/hypernode/reconcile_plan.h"
#include "controllers/hypernode/sources.h"
#include "controllers/hypernode/ufm_client.h"

namespace vc::controllers::hypernode {
namespace {

using log::kv;
namespace cache = kube::cache;
namespace resources = kube::resources;
using Queue = kube::workqueue::RateLimitingQueue<std::string>;
using Types = std::vector<TopologyType>;

// The one key of the configuration queue and of the label source's queue.
constexpr const char* kConfigKeyName = "config";
constexpr const char* kLabelRoundKey = "label";

// What the node and HyperNode handlers need to start a label discovery round
// (spec controller-manager.md §5.5.3): the running label source's topology types (null while it
// does not run) and its queue. Shared with the handlers, which may outlive the controller.
class LabelTrigger {
 public:
  explicit LabelTrigger(std::shared_ptr<Queue> queue) : queue_(std::move(queue)) {}

  std::shared_ptr<const Types> types() const {
    std::lock_guard lock(mu_);
    return types_;
  }
  // Starts (types set: a round at once) or stops (null) the label source.
  void set(std::shared_ptr<const Types> types) {
    const bool round = types != nullptr;
    {
      std::lock_guard lock(mu_);
      types_ = std::move(types);
    }
    if (round) queue_->add(kLabelRoundKey);
  }

  // A node added or deleted that carries a tier label.
  void node_came_or_went(const cache::ObjectPtr& node) {
    const auto t = types();
    if (t != nullptr && !tier_label_values(*t, *node).empty()) queue_->add(kLabelRoundKey);
  }
  // A node whose tier labels changed.
  void node_changed(const cache::ObjectPtr& before, const cache::ObjectPtr& after) {
    const auto t = types();
    if (t != nullptr && tier_label_values(*t, *before) != tier_label_values(*t, *after)) {
      queue_->add(kLabelRoundKey);
    }
  }
  // Any HyperNode deleted: the round puts back what it still wants.
  void hyper_node_deleted() {
    if (types() != nullptr) queue_->add(kLabelRoundKey);
  }
  // A HyperNode added (before null) or updated: a round when label_round_needed says so.
  void hyper_node_changed(const cache::ObjectPtr& before, const cache::ObjectPtr& after) {
    if (types() == nullptr) return;
    const auto now = as_hyper_node(after);
    if (now != nullptr && label_round_needed(as_hyper_node(before).get(), *now)) {
      queue_->add(kLabelRoundKey);
    }
  }

  Queue& queue() { return *queue_; }

 private:
  const std::shared_ptr<Queue> queue_;
  mutable std::mutex mu_;
  std::shared_ptr<const Types> types_;  // guarded by mu_
};

// The running ufm source (spec controller-manager.md §5.5.4): one thread that discovers at
// once and then every interval, and hands each result to `reconcile`. A failed round is logged
// and skipped. Destroying it stops the thread (an exchange in flight is cut short) and joins it.
class UfmSource {
 public:
  using Reconcile = std::function<void(std::vector<DesiredHyperNode>)>;

  UfmSource(UfmSettings settings, UfmCredentials credentials, std::chrono::nanoseconds interval,
            Reconcile reconcile)
      : thread_([settings = std::move(settings), credentials = std::move(credentials), interval,
                 reconcile = std::move(reconcile)](std::stop_token stop) {
          do {
            auto ports = fetch_ufm_ports(settings, credentials, stop);
            if (stop.stop_requested()) return;
            if (!ports) {
              VC_LOG_ERROR("UFM discovery failed", kv("endpoint", settings.endpoint),
                           kv("error", ports.error()));
              continue;
            }
            VC_LOG_INFO("UFM discovery done", kv("ports", ports->size()));
            reconcile(ufm_hyper_nodes(*ports));
          } while (kube::sleep_unless_stopped(interval, stop));
        }) {}

 private:
  std::jthread thread_;
};

// HyperNodeController: shared informers on HyperNodes (typed) and nodes (name and labels), its
// own informer on the one ConfigMap, and three queues with one worker each: status.nodeCount
// (key: the HyperNode's name), the configuration (one key) and label discovery rounds (one
// key). The ufm source runs on its own thread. Rounds of both sources are reconciled one at a
// time (round_mu_).
//
// Threads: initialize/run/stop on the control thread. Handlers only enqueue. sources_mu_ guards
// the running sources, changed by the configuration worker and by stop().
class HyperNodeController final : public Controller {
 public:
  ~HyperNodeController() override { stop(); }

  std::string name() const override { return kControllerName; }

  api::Status initialize(ControllerContext& ctx) override {
    client_ = &ctx.client;
    config_map_ = config_map_ref(std::getenv(kReleaseNameEnv), std::getenv(kNamespaceEnv));
    const auto make_queue = [&](const char* name) {
      kube::workqueue::QueueOptions options;
      options.name = name;
      options.clock = ctx.clock;
      return std::make_shared<Queue>(std::move(options));
    };
    status_queue_ = make_queue("hypernode");
    config_queue_ = make_queue("hypernode-config");
    trigger_ = std::make_shared<LabelTrigger>(make_queue("hypernode-label"));

    cache::InformerSpec hyper_node_spec;
    hyper_node_spec.transform = hyper_node_view_transform();
    hyper_nodes_ = ctx.informers.informer(resources::hypernodes, hyper_node_spec);
    cache::InformerSpec node_spec;
    node_spec.transform = node_meta_transform();
    nodes_ = ctx.informers.informer(resources::nodes, node_spec);
    cache::InformerSpec config_map_spec;
    config_map_spec.namespace_ = config_map_.namespace_;
    config_map_spec.field_selector = "metadata.name=" + config_map_.name;
    config_maps_ = ctx.informers.informer(resources::configmaps, config_map_spec);

    // The handlers hold what they use, not the controller: the shared informers may outlive us.
    cache::EventHandler on_hyper_node;
    on_hyper_node.on_add = [q = status_queue_, t = trigger_](const cache::ObjectPtr& obj) {
      q->add(obj->name);
      t->hyper_node_changed(nullptr, obj);
    };
    on_hyper_node.on_update = [q = status_queue_, t = trigger_](const cache::ObjectPtr& before,
                                                                const cache::ObjectPtr& obj) {
      q->add(obj->name);
      t->hyper_node_changed(before, obj);
    };
    on_hyper_node.on_delete = [t = trigger_](const cache::ObjectPtr&) { t->hyper_node_deleted(); };
    hyper_node_handler_ = hyper_nodes_->add_event_handler(std::move(on_hyper_node));

    cache::EventHandler on_node;
    on_node.on_add = [t = trigger_](const cache::ObjectPtr& obj) { t->node_came_or_went(obj); };
    on_node.on_delete = on_node.on_add;
    on_node.on_update = [t = trigger_](const cache::ObjectPtr& before,
                                       const cache::ObjectPtr& after) {
      t->node_changed(before, after);
    };
    node_handler_ = nodes_->add_event_handler(std::move(on_node));

    cache::EventHandler on_config;
    on_config.on_add = [q = config_queue_](const cache::ObjectPtr&) { q->add(kConfigKeyName); };
    on_config.on_update = [q = config_queue_](const cache::ObjectPtr&, const cache::ObjectPtr&) {
      q->add(kConfigKeyName);
    };
    on_config.on_delete = on_config.on_add;
    config_handler_ = config_maps_->add_event_handler(std::move(on_config));
    return api::ok_status();
  }

  void run() override {
    // Every queue retries without limit (spec controller-manager.md §5.5.1, §5.5.5).
    status_workers_ =
        run_workers(*status_queue_, 1, [this](const std::string& key) { return sync_count(key); },
                    {.name = kControllerName, .max_requeue = -1});
    config_workers_ =
        run_workers(*config_queue_, 1, [this](const std::string&) { return apply_config(); },
                    {.name = kControllerName, .max_requeue = -1, .first_index = 1});
    label_workers_ =
        run_workers(trigger_->queue(), 1, [this](const std::string&) { return label_round(); },
                    {.name = kControllerName, .max_requeue = -1, .first_index = 2});
    // No ConfigMap at all is an empty configuration: nothing to start, but said once.
    config_queue_->add(kConfigKeyName);
  }

  void stop() override {
    if (hyper_nodes_) hyper_nodes_->remove_event_handler(hyper_node_handler_);
    if (nodes_) nodes_->remove_event_handler(node_handler_);
    if (config_maps_) config_maps_->remove_event_handler(config_handler_);
    if (config_queue_) config_queue_->shutdown();
    config_workers_.stop();
    if (trigger_) {
      trigger_->set(nullptr);
      trigger_->queue().shutdown();
    }
    label_workers_.stop();
    if (status_queue_) status_queue_->shutdown();
    status_workers_.stop();
    std::lock_guard lock(sources_mu_);
    ufm_.reset();
    running_.clear();
  }

 private:
  // The ConfigMap changed (or appeared, or went): stop the sources not enabled any more, restart
  // the enabled ones in order; the first that cannot start fails the step
  // (spec controller-manager.md §5.5.1).
  ReconcileResult apply_config() {
    const auto config =
        config_of(config_maps_->store()
                      .get(cache::object_key(config_map_.namespace_, config_map_.name))
                      .get());
    if (!config) return ReconcileResult::error(config.error());
    std::lock_guard lock(sources_mu_);
    const SourceChanges changes = source_changes(running_, *config);
    for (const std::string& source : changes.stop) stop_source(source);
    for (const std::string& source : changes.start) {
      stop_source(source);
      if (auto started = start_source(*config->enabled(source)); !started) {
        return ReconcileResult::error(started.error());
      }
      running_.push_back(source);
      VC_LOG_INFO("network topology discovery started", kv("source", source));
    }
    return ReconcileResult::ok();
  }

  // Needs sources_mu_.
  void stop_source(const std::string& source) {
    const auto it = std::find(running_.begin(), running_.end(), source);
    if (it == running_.end()) return;
    running_.erase(it);
    if (source == source::kLabel) trigger_->set(nullptr);
    if (source == source::kUfm) ufm_.reset();
    VC_LOG_INFO("network topology discovery stopped", kv("source", source));
  }

  // Needs sources_mu_.
  api::Status start_source(const DiscoverySource& entry) {
    if (entry.source == source::kLabel) {
      for (const std::string& skipped : entry.label.skipped) {
        VC_LOG_ERROR("label discovery skips a topology type", kv("reason", skipped));
      }
      if (!entry.label.error.empty()) {
        VC_LOG_ERROR("label discovery has no topology types", kv("error", entry.label.error));
      }
      trigger_->set(std::make_shared<const Types>(entry.label.types));
      return api::ok_status();
    }
    if (entry.source == source::kUfm) return start_ufm(entry);
    return api::Unexpected{"unsupported discoverer type: " + entry.source};
  }

  api::Status start_ufm(const DiscoverySource& entry) {
    if (!entry.ufm.error.empty()) return api::Unexpected{entry.ufm.error};
    UfmCredentials credentials;
    if (entry.secret_ref) {
      const SecretRef& ref = *entry.secret_ref;
      auto secret = client_->get(resources::secrets, ref.namespace_, ref.name);
      api::Expected<UfmCredentials> read =
          api::Unexpected{"failed to get secret " + ref.namespace_ + "/" + ref.name + ": " +
                          (secret ? std::string() : secret.error().describe())};
      if (secret) read = credentials_from_secret(*secret, ref);
      if (read) {
        credentials = std::move(*read);
      } else {
        VC_LOG_ERROR("failed to get UFM credentials from secret", kv("error", read.error()));
      }
    }
    if (entry.ufm.endpoint.empty()) return api::Unexpected{"UFM endpoint is not configured"};
    if (credentials.username.empty() || credentials.password.empty()) {
      return api::Unexpected{"UFM authentication credentials are not configured"};
    }
    if (entry.ufm.insecure_skip_verify) {
      VC_LOG_WARN("UFM TLS certificate verification is disabled, which is insecure",
                  kv("endpoint", entry.ufm.endpoint));
    }
    ufm_ = std::make_unique<UfmSource>(
        entry.ufm, std::move(credentials), entry.effective_interval(),
        [this](std::vector<DesiredHyperNode> desired) { reconcile(source::kUfm, desired); });
    return api::ok_status();
  }

  // One label discovery round from the caches (spec controller-manager.md §5.5.3).
  ReconcileResult label_round() {
    const auto types = trigger_->types();
    if (types == nullptr) return ReconcileResult::ok();  // stopped meanwhile
    const auto nodes = nodes_->store().list();
    const auto hyper_nodes = typed_hyper_nodes();
    LabelSnapshot snapshot;
    snapshot.types = types.get();
    for (const auto& node : nodes) snapshot.nodes.push_back(node.get());
    for (const auto& h : hyper_nodes) snapshot.hyper_nodes.push_back(h.get());
    auto desired = label_hyper_nodes(snapshot);
    if (!desired) return ReconcileResult::error("label discovery: " + desired.error());
    reconcile(source::kLabel, *desired);
    return ReconcileResult::ok();
  }

  // One result against the HyperNodes the source owns, one round at a time
  // (spec controller-manager.md §5.5.2).
  void reconcile(const char* source, const std::vector<DesiredHyperNode>& desired) {
    std::lock_guard lock(round_mu_);
    const auto hyper_nodes = typed_hyper_nodes();
    std::vector<const volcano::HyperNode*> existing;
    for (const auto& h : hyper_nodes) existing.push_back(h.get());
    const ReconcilePlan plan = plan_reconcile(source, desired, existing);
    if (plan.empty()) return;
    const RoundOutcome outcome = execute_plan(plan, source, desired, *client_);
    VC_LOG_INFO("network topology reconciled", kv("source", source), kv("written", outcome.written),
                kv("failed", outcome.failed));
  }

  std::vector<std::shared_ptr<const volcano::HyperNode>> typed_hyper_nodes() const {
    std::vector<std::shared_ptr<const volcano::HyperNode>> out;
    for (const auto& obj : hyper_nodes_->store().list()) {
      if (auto h = as_hyper_node(obj)) out.push_back(std::move(h));
    }
    return out;
  }

  // status.nodeCount of one HyperNode (spec controller-manager.md §5.5.5).
  ReconcileResult sync_count(const std::string& name) {
    const auto hyper_node = as_hyper_node(hyper_nodes_->store().get(name));
    if (hyper_node == nullptr) return ReconcileResult::ok();
    const auto nodes = nodes_->store().list();
    std::vector<const cache::Object*> node_ptrs;
    node_ptrs.reserve(nodes.size());
    for (const auto& node : nodes) node_ptrs.push_back(node.get());
    const auto count = count_nodes(hyper_node->spec, node_ptrs);
    if (!count) {
      VC_LOG_DEBUG("HyperNode has a regexMatch member, its nodeCount is not kept",
                   kv("hypernode", name));
      return ReconcileResult::ok();
    }
    const auto patch = node_count_patch(*hyper_node, *count);
    if (!patch) return ReconcileResult::ok();
    if (std::string error = write_node_count(*client_, name, *patch); !error.empty()) {
      return ReconcileResult::error(std::move(error));
    }
    VC_LOG_DEBUG("HyperNode nodeCount written", kv("hypernode", name), kv("nodeCount", *count));
    return ReconcileResult::ok();
  }

  kube::Client* client_ = nullptr;
  ConfigMapRef config_map_;
  std::shared_ptr<cache::Informer> hyper_nodes_;
  std::shared_ptr<cache::Informer> nodes_;
  std::shared_ptr<cache::Informer> config_maps_;
  cache::HandlerId hyper_node_handler_ = 0;
  cache::HandlerId node_handler_ = 0;
  cache::HandlerId config_handler_ = 0;
  std::shared_ptr<Queue> status_queue_;
  std::shared_ptr<Queue> config_queue_;
  std::shared_ptr<LabelTrigger> trigger_;
  Workers status_workers_;
  Workers config_workers_;
  Workers label_workers_;
  std::mutex round_mu_;  // one discovery result reconciled at a time
  std::mutex sources_mu_;
  std::vector<std::string> running_;  // started sources, in start order; guarded by sources_mu_
  std::unique_ptr<UfmSource> ufm_;    // guarded by sources_mu_
};

}  // namespace

std::unique_ptr<Controller> make_hypernode_controller() {
  return std::make_unique<HyperNodeController>();
}

}  // namespace vc::controllers::hypernode

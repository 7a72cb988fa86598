#include "controllers/sharding/sharding_controller.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "common/go/duration.h"
#include "common/kube/cache/informer.h"
#include "common/kube/resource.h"
#include "common/kube/stoppable_sleep.h"
#include "common/kube/workqueue/rate_limiting_queue.h"
#include "common/log/log.h"
#include "controllers/framework/worker_loop.h"
#include "controllers/sharding/config.h"
#include "controllers/sharding/executor.h"
#include "controllers/sharding/plan.h"
#include "controllers/sharding/policies.h"
#include "controllers/sharding/utilization.h"

namespace vc::controllers::sharding {
namespace {

using log::kv;
namespace cache = kube::cache;
namespace resources = kube::resources;
using Queue = kube::workqueue::RateLimitingQueue<std::string>;
using SteadyClock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// Keys of the shard queue besides NodeShard names ('#' cannot be in a name).
constexpr const char* kSyncKey = "#sync";      // a global assignment
constexpr const char* kConfigKey = "#config";  // the ConfigMap changed
constexpr const char* kNodeIndex = "sharding-node";

// spec controller-manager.md §5.7.5: timings.
constexpr auto kDefaultSyncPeriod = 120s;    // a period <= 0 reads as this
constexpr auto kAssignmentRetention = 5min;  // a cached assignment older than this is unused
constexpr auto kMetricsRefreshPeriod = 80s;  // the refresh of missing or old metrics
constexpr auto kMetricsMaxAge = 2min;        // what the refresh counts as old
constexpr auto kEventSyncDelay = 200ms;      // a significant change syncs after this
constexpr int kShardRequeues = 3;            // a NodeShard write is retried 3 times

struct Metrics {
  NodeMetrics value;
  SteadyClock::time_point updated;
};

// What the event handlers share with the controller: they may outlive it.
struct Shared {
  std::shared_ptr<Queue> shards;
  std::shared_ptr<Queue> node_events;
  std::atomic<bool> node_event_trigger{true};
  std::mutex metrics_mu;
  std::map<std::string, Metrics> metrics;  // guarded by metrics_mu

  // Node and pod events count only while the trigger is on (spec controller-manager.md §5.7.5).
  void node_event(const std::string& node) {
    if (node_event_trigger.load()) node_events->add(node);
  }
};

class ShardingController final : public Controller {
 public:
  ~ShardingController() override { stop(); }

  std::string name() const override { return kControllerName; }

  api::Status initialize(ControllerContext& ctx) override {
    client_ = &ctx.client;
    options_ = ctx.options.sharding;
    const auto make_queue = [&](const char* name) {
      kube::workqueue::QueueOptions options;
      options.name = name;
      options.clock = ctx.clock;
      return std::make_shared<Queue>(std::move(options));
    };
    shared_ = std::make_shared<Shared>();
    shared_->shards = make_queue(kControllerName);
    shared_->node_events = make_queue("sharding-controller-node-events");
    shared_->node_event_trigger = options_.enable_node_event_trigger;
    sync_period_ = options_.shard_sync_period;

    cache::InformerSpec node_spec;
    node_spec.transform = node_capacity_transform();
    nodes_ = ctx.informers.informer(resources::nodes, node_spec);
    cache::InformerSpec pod_spec;
    pod_spec.transform = pod_usage_transform();
    pods_ = ctx.informers.informer(resources::pods, pod_spec);
    pods_->add_indexer(kNodeIndex, [](const cache::Object& o) -> std::vector<std::string> {
      const auto* pod = dynamic_cast<const PodUsage*>(&o);
      if (pod == nullptr || pod->node_name.empty()) return {};
      return {pod->node_name};
    });
    shards_ = ctx.informers.informer(resources::nodeshards);
    if (!options_.sharding_configmap.empty() && !options_.sharding_configmap_namespace.empty()) {
      cache::InformerSpec cm_spec;
      cm_spec.namespace_ = options_.sharding_configmap_namespace;
      cm_spec.field_selector = "metadata.name=" + options_.sharding_configmap;
      config_maps_ = ctx.informers.informer(resources::configmaps, cm_spec);
    } else {
      use_flag_configs();
    }

    cache::EventHandler on_node;
    on_node.on_add = [s = shared_](const cache::ObjectPtr& obj) { s->node_event(obj->name); };
    on_node.on_update = [s = shared_](const cache::ObjectPtr& before,
                                      const cache::ObjectPtr& after) {
      const auto b = as_node(before);
      const auto a = as_node(after);
      if (b == nullptr || a == nullptr || node_changed(*b, *a)) s->node_event(after->name);
    };
    on_node.on_delete = [s = shared_](const cache::ObjectPtr& obj) {
      {
        std::lock_guard lock(s->metrics_mu);
        s->metrics.erase(obj->name);
      }
      s->node_event(obj->name);
    };
    node_handler_ = nodes_->add_event_handler(std::move(on_node));

    cache::EventHandler on_pod;
    on_pod.on_add = [s = shared_](const cache::ObjectPtr& obj) {
      const auto pod = as_pod(obj);
      if (pod != nullptr && !pod->node_name.empty()) s->node_event(pod->node_name);
    };
    on_pod.on_update = [s = shared_](const cache::ObjectPtr& before,
                                     const cache::ObjectPtr& after) {
      const auto b = as_pod(before);
      const auto a = as_pod(after);
      if (b == nullptr || a == nullptr) return;
      if (b->node_name != a->node_name && !a->node_name.empty()) {
        if (!b->node_name.empty()) s->node_event(b->node_name);
        s->node_event(a->node_name);
        return;
      }
      if (pod_requests_changed(*b, *a) && !a->node_name.empty()) s->node_event(a->node_name);
    };
    on_pod.on_delete = on_pod.on_add;
    pod_handler_ = pods_->add_event_handler(std::move(on_pod));

    cache::EventHandler on_shard;
    on_shard.on_add = [s = shared_](const cache::ObjectPtr& obj) { s->shards->add(obj->name); };
    on_shard.on_update = [s = shared_](const cache::ObjectPtr& before,
                                       const cache::ObjectPtr& after) {
      if (before->resource_version != after->resource_version) s->shards->add(after->name);
    };
    on_shard.on_delete = on_shard.on_add;
    shard_handler_ = shards_->add_event_handler(std::move(on_shard));

    if (config_maps_) {
      cache::EventHandler on_config;
      on_config.on_add = [s = shared_](const cache::ObjectPtr&) { s->shards->add(kConfigKey); };
      on_config.on_update = [s = shared_](const cache::ObjectPtr& before,
                                          const cache::ObjectPtr& after) {
        if (before->resource_version != after->resource_version) s->shards->add(kConfigKey);
      };
      on_config.on_delete = [](const cache::ObjectPtr& obj) {
        VC_LOG_WARN("sharding ConfigMap deleted; retaining last known scheduler configs",
                    kv("configmap", obj->key()));
      };
      config_handler_ = config_maps_->add_event_handler(std::move(on_config));
    }
    return api::ok_status();
  }

  void run() override {
    // The ConfigMap when it exists, else the flags (spec controller-manager.md §5.7.1).
    if (config_maps_) {
      const auto cm = config_maps_->store().get(
          cache::object_key(options_.sharding_configmap_namespace, options_.sharding_configmap));
      if (cm != nullptr) {
        reload(*cm);
      } else {
        VC_LOG_INFO("sharding ConfigMap not found; using --scheduler-configs until it is created",
                    kv("configmap",
                       options_.sharding_configmap_namespace + "/" + options_.sharding_configmap));
        use_flag_configs();
      }
    }
    refresh_metrics();
    shared_->shards->add(kSyncKey);
    shard_workers_ =
        run_workers(*shared_->shards, 1, [this](const std::string& key) { return handle(key); },
                    {.name = kControllerName, .max_requeue = kShardRequeues});
    node_workers_ = run_workers(*shared_->node_events, 1,
                                [this](const std::string& node) { return node_event(node); },
                                {.name = kControllerName, .max_requeue = 0, .first_index = 1});
    periodic_ = std::jthread([this](std::stop_token stop) { periodic_loop(stop); });
    refresher_ = std::jthread([this](std::stop_token stop) {
      while (kube::sleep_unless_stopped(kMetricsRefreshPeriod, stop)) refresh_metrics();
    });
  }

  void stop() override {
    if (nodes_) nodes_->remove_event_handler(node_handler_);
    if (pods_) pods_->remove_event_handler(pod_handler_);
    if (shards_) shards_->remove_event_handler(shard_handler_);
    if (config_maps_) config_maps_->remove_event_handler(config_handler_);
    if (periodic_.joinable()) {
      periodic_.request_stop();
      periodic_.join();
    }
    if (refresher_.joinable()) {
      refresher_.request_stop();
      refresher_.join();
    }
    if (shared_) {
      shared_->shards->shutdown();
      shared_->node_events->shutdown();
    }
    shard_workers_.stop();
    node_workers_.stop();
  }

 private:
  // ---- configuration (spec controller-manager.md §5.7.1)

  void use_flag_configs() {
    std::string error;
    auto specs = flag_scheduler_specs(options_.scheduler_configs, &error);
    if (!error.empty()) {
      VC_LOG_WARN("failed to parse --scheduler-configs; using the defaults", kv("error", error));
    }
    VC_LOG_WARN("--scheduler-configs is deprecated; migrate to the sharding ConfigMap");
    set_schedulers(specs);
  }

  void set_schedulers(const std::vector<SchedulerSpec>& specs) {
    auto resolved = resolve_chains(specs);
    if (!resolved.error.empty()) {
      VC_LOG_ERROR("failed to initialize shard policies", kv("error", resolved.error));
    }
    std::lock_guard lock(config_mu_);
    chains_ = std::move(resolved.chains);
    for (const auto& c : chains_) {
      VC_LOG_INFO("scheduler shard configured", kv("scheduler", c.name),
                  kv("policies", c.policies.size()));
    }
  }

  // Applies the ConfigMap; a missing key or a bad document keeps what runs.
  void reload(const cache::Object& object) {
    const auto* cm = dynamic_cast<const cache::JsonObject*>(&object);
    const nlohmann::json* text = nullptr;
    if (cm != nullptr && cm->json.contains("data") && cm->json["data"].is_object()) {
      auto it = cm->json["data"].find(kConfigMapKey);
      if (it != cm->json["data"].end() && it->is_string()) text = &*it;
    }
    if (text == nullptr) {
      VC_LOG_WARN("sharding ConfigMap has no key sharding.yaml; skipping reload",
                  kv("configmap", object.key()));
      return;
    }
    auto cfg = parse_sharding_yaml(text->get<std::string>());
    if (!cfg) {
      VC_LOG_ERROR("failed to parse the sharding ConfigMap; keeping the previous config",
                   kv("configmap", object.key()), kv("error", cfg.error()));
      return;
    }
    set_schedulers(cfg->schedulers);
    if (!cfg->shard_sync_period.empty()) {
      if (auto d = go::parse_duration(cfg->shard_sync_period)) {
        set_sync_period(*d);
      } else {
        VC_LOG_WARN("invalid shardSyncPeriod in the sharding ConfigMap",
                    kv("value", cfg->shard_sync_period), kv("error", d.error()));
      }
    }
    if (cfg->enable_node_event_trigger)
      shared_->node_event_trigger = *cfg->enable_node_event_trigger;
    std::vector<std::string> names;
    {
      std::lock_guard lock(config_mu_);
      assignments_.reset();
      for (const auto& c : chains_) names.push_back(c.name);
    }
    for (const auto& n : names) shared_->shards->add(n);
  }

  void set_sync_period(std::chrono::nanoseconds d) {
    {
      std::lock_guard lock(timer_mu_);
      if (sync_period_ == d) return;
      sync_period_ = d;
      period_changed_ = true;
    }
    timer_cv_.notify_all();
    VC_LOG_INFO("shardSyncPeriod updated from the ConfigMap", kv("period", go::format_duration(d)));
  }

  void periodic_loop(std::stop_token stop) {
    std::unique_lock lock(timer_mu_);
    while (!stop.stop_requested()) {
      const auto period = sync_period_ <= std::chrono::nanoseconds::zero()
                              ? std::chrono::nanoseconds(kDefaultSyncPeriod)
                              : sync_period_;
      timer_cv_.wait_for(lock, stop, period, [this] { return period_changed_; });
      if (stop.stop_requested()) return;
      if (period_changed_) {
        period_changed_ = false;  // start the wait again with the new period
        continue;
      }
      shared_->shards->add(kSyncKey);
    }
  }

  // ---- metrics (spec controller-manager.md §5.7.3)

  std::optional<NodeMetrics> compute(const std::string& node_name) const {
    const auto node = as_node(nodes_->store().get(node_name));
    if (node == nullptr) return std::nullopt;
    const auto objects = pods_->store().by_index(kNodeIndex, node_name);
    std::vector<std::shared_ptr<const PodUsage>> keep;
    std::vector<const PodUsage*> pods;
    for (const auto& o : objects) {
      if (auto p = as_pod(o)) {
        pods.push_back(p.get());
        keep.push_back(std::move(p));
      }
    }
    return node_metrics(*node, pods);
  }

  // Stores new metrics; true when they changed significantly.
  bool store_metrics(const std::string& node, const NodeMetrics& m) {
    std::lock_guard lock(shared_->metrics_mu);
    auto it = shared_->metrics.find(node);
    std::optional<NodeMetrics> before;
    if (it != shared_->metrics.end()) before = it->second.value;
    shared_->metrics[node] = {.value = m, .updated = SteadyClock::now()};
    return utilization_changed(before, m);
  }

  void refresh_metrics() {
    const auto now = SteadyClock::now();
    for (const auto& obj : nodes_->store().list()) {
      {
        std::lock_guard lock(shared_->metrics_mu);
        auto it = shared_->metrics.find(obj->name);
        if (it != shared_->metrics.end() && now - it->second.updated <= kMetricsMaxAge) continue;
      }
      const auto m = compute(obj->name);
      if (m && store_metrics(obj->name, *m)) shared_->node_event(obj->name);
    }
  }

  ReconcileResult node_event(const std::string& node) {
    const auto m = compute(node);
    if (!m) return ReconcileResult::ok();  // gone: the next sync drops it
    if (store_metrics(node, *m)) {
      VC_LOG_DEBUG("node utilization changed significantly; scheduling a shard sync",
                   kv("node", node));
      shared_->shards->add_after(kSyncKey, kEventSyncDelay);
    }
    return ReconcileResult::ok();
  }

  std::vector<NodeFacts> node_facts() const {
    std::vector<NodeFacts> facts;
    std::lock_guard lock(shared_->metrics_mu);
    for (const auto& obj : nodes_->store().list()) {
      NodeFacts f{.name = obj->name, .labels = obj->labels, .cpu_utilization = std::nullopt};
      if (auto it = shared_->metrics.find(obj->name); it != shared_->metrics.end()) {
        f.cpu_utilization = it->second.value.cpu;
      }
      facts.push_back(std::move(f));
    }
    std::sort(facts.begin(), facts.end(),
              [](const NodeFacts& a, const NodeFacts& b) { return a.name < b.name; });
    return facts;
  }

  // ---- the shard queue (spec controller-manager.md §5.7.4)

  ReconcileResult handle(const std::string& key) {
    if (key == kConfigKey) {
      const auto cm = config_maps_
                          ? config_maps_->store().get(cache::object_key(
                                options_.sharding_configmap_namespace, options_.sharding_configmap))
                          : nullptr;
      if (cm != nullptr) {
        VC_LOG_INFO("sharding ConfigMap changed; reloading", kv("configmap", cm->key()));
        reload(*cm);
      }
      return ReconcileResult::ok();
    }
    if (key == kSyncKey) {
      sync_all();
      return ReconcileResult::ok();
    }
    if (std::string error = sync_shard(key); !error.empty()) {
      return ReconcileResult::error(std::move(error));
    }
    return ReconcileResult::ok();
  }

  void sync_all() {
    const auto facts = node_facts();
    std::vector<Assignment> assignments;
    {
      std::lock_guard lock(config_mu_);
      assignments = assign_nodes(chains_, facts);
      std::map<std::string, std::vector<std::string>> by_name;
      for (const auto& a : assignments) by_name[a.scheduler] = a.nodes;
      assignments_ = Cached{.at = SteadyClock::now(), .nodes = std::move(by_name)};
      synced_once_ = true;
    }
    std::vector<std::string> names;
    for (const auto& a : assignments) {
      VC_LOG_INFO("scheduler shard assigned", kv("scheduler", a.scheduler),
                  kv("nodes", a.nodes.size()));
      names.push_back(a.scheduler);
      shared_->shards->add(a.scheduler);
    }
    std::vector<std::string> existing;
    for (const auto& obj : shards_->store().list()) existing.push_back(obj->name);
    for (const auto& stale : stale_shards(existing, names)) {
      if (std::string error = delete_shard(*client_, stale); !error.empty()) {
        VC_LOG_ERROR("NodeShard cleanup failed", kv("error", error));
      }
    }
    VC_LOG_INFO("global shard sync completed", kv("schedulers", assignments.size()),
                kv("nodes", facts.size()));
  }

  std::string sync_shard(const std::string& name) {
    std::optional<std::vector<std::string>> desired;
    {
      std::lock_guard lock(config_mu_);
      // Names queued before the first global sync (the cache's first NodeShards, the first
      // ConfigMap load) wait for it: it queues every configured name again. Volcano runs that
      // sync before its workers start.
      if (!synced_once_) return "";
      if (assignments_ && SteadyClock::now() - assignments_->at <= kAssignmentRetention) {
        if (auto it = assignments_->nodes.find(name); it != assignments_->nodes.end()) {
          desired = it->second;
        }
      }
    }
    if (!desired) {
      // No fresh global result: this scheduler alone over every node (Volcano's fallback).
      const auto facts = node_facts();
      std::lock_guard lock(config_mu_);
      const auto chain = std::find_if(chains_.begin(), chains_.end(),
                                      [&](const SchedulerChain& c) { return c.name == name; });
      if (chain == chains_.end()) return "scheduler config not found for " + name;
      std::vector<const NodeFacts*> all;
      for (const auto& f : facts) all.push_back(&f);
      desired = run_chain(*chain, all);
    }
    const auto cached =
        std::dynamic_pointer_cast<const cache::JsonObject>(shards_->store().get(name));
    const ShardWrite write = plan_shard(name, *desired, cached ? &cached->json : nullptr);
    return apply_write(*client_, name, write);
  }

  struct Cached {
    SteadyClock::time_point at;
    std::map<std::string, std::vector<std::string>> nodes;
  };

  kube::Client* client_ = nullptr;
  ShardingOptions options_;
  std::shared_ptr<Shared> shared_;
  std::shared_ptr<cache::Informer> nodes_;
  std::shared_ptr<cache::Informer> pods_;
  std::shared_ptr<cache::Informer> shards_;
  std::shared_ptr<cache::Informer> config_maps_;
  cache::HandlerId node_handler_ = 0;
  cache::HandlerId pod_handler_ = 0;
  cache::HandlerId shard_handler_ = 0;
  cache::HandlerId config_handler_ = 0;
  Workers shard_workers_;
  Workers node_workers_;
  std::jthread periodic_;
  std::jthread refresher_;

  std::mutex config_mu_;
  std::vector<SchedulerChain> chains_;  // guarded by config_mu_
  std::optional<Cached> assignments_;   // guarded by config_mu_
  bool synced_once_ = false;            // guarded by config_mu_

  std::mutex timer_mu_;
  std::condition_variable_any timer_cv_;
  std::chrono::nanoseconds sync_period_{0};  // guarded by timer_mu_
  bool period_changed_ = false;              // guarded by timer_mu_
};

}  // namespace

std::unique_ptr<Controller> make_sharding_controller() {
  return std::make_unique<ShardingController>();
}

}  // namespace vc::controllers::sharding

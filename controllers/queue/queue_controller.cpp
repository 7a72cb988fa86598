// queue-controller (spec controller-manager.md §2): keeps each Queue's status.state, the
// hierarchy bookkeeping and the per-queue PodGroup gauges, and turns bus.volcano.sh Commands
// aimed at queues into requests.
//
// Shape: informer handlers turn changes into requests on the queue work queue (and commands into
// keys on the command work queue); worker_threads_for_queue workers drain each queue; a queue
// request is planned from the caches (plan.h, pure) and performed by the Executor.
//
// Threads: initialize/run/stop on the process's control thread; handlers on informer threads
// (they only enqueue, or remove metric series); sync_request/sync_command on worker threads.

#include "controllers/queue/queue_controller.h"

#include <chrono>

#include <fmt/format.h>

#include "common/kube/cache/object.h"
#include "common/kube/resource.h"
#include "common/kube/workqueue/rate_limiting_queue.h"
#include "common/log/log.h"
#include "controllers/framework/own_writes.h"
#include "controllers/framework/worker_loop.h"
#include "controllers/queue/command.h"
#include "controllers/queue/executor.h"
#include "controllers/queue/metrics.h"
#include "controllers/queue/plan.h"
#include "controllers/views/command_view.h"
#include "controllers/views/podgroup_view.h"
#include "controllers/views/queue_view.h"

namespace vc::controllers::queue {

namespace {

using kube::cache::EventHandler;
using kube::cache::Object;
using kube::cache::ObjectPtr;
using kube::workqueue::QueueOptions;
// Requests are queued as values: identical requests are one item
// (spec controller-manager.md §2.2).
using RequestQueue = kube::workqueue::RateLimitingQueue<Request, RequestHash>;
using CommandQueue = kube::workqueue::RateLimitingQueue<std::string>;

constexpr const char* kName = "queue-controller";
// Indexes this controller adds to the shared informers.
constexpr const char* kParentIndex = "queue-controller/spec.parent";
constexpr const char* kQueueIndex = "queue-controller/spec.queue";

QueueOptions queue_options(std::string name, std::shared_ptr<kube::workqueue::Clock> clock) {
  QueueOptions o;
  o.name = std::move(name);
  o.clock = std::move(clock);
  return o;
}

std::string queue_parent(const kube::cache::Object& obj) {
  const volcano::Queue* q = views::as_queue(obj);
  return q ? q->spec.parent : std::string();
}

std::string queue_state(const kube::cache::Object& obj) {
  const volcano::Queue* q = views::as_queue(obj);
  return q ? q->status.state : std::string();
}

class QueueController final : public Controller {
 public:
  std::string name() const override { return kName; }

  api::Status initialize(ControllerContext& ctx) override {
    options_ = &ctx.options;
    recorder_ = &ctx.recorder;
    queue_work_ = std::make_unique<RequestQueue>(queue_options("queue-controller", ctx.clock));
    executor_ = std::make_unique<Executor>(ctx.client, ctx.recorder, QueueMetrics::instance(),
                                           [this](const Request& r) { queue_work_->add(r); });

    kube::cache::InformerSpec queue_spec;
    queue_spec.transform = views::queue_view_transform();
    queues_ = ctx.informers.informer(kube::resources::queues, queue_spec);
    kube::cache::InformerSpec podgroup_spec;
    podgroup_spec.transform = views::podgroup_view_transform();
    podgroups_ = ctx.informers.informer(kube::resources::podgroups, podgroup_spec);
    queues_->add_indexer(kParentIndex, [](const kube::cache::Object& obj) {
      std::string parent = queue_parent(obj);
      return parent.empty() ? std::vector<std::string>{} : std::vector<std::string>{parent};
    });
    podgroups_->add_indexer(kQueueIndex, [](const kube::cache::Object& obj) {
      const auto* pg = dynamic_cast<const views::PodGroupView*>(&obj);
      return pg && !pg->queue.empty() ? std::vector<std::string>{pg->queue}
                                      : std::vector<std::string>{};
    });
    queues_->add_event_handler(queue_handler());
    podgroups_->add_event_handler(podgroup_handler());

    if (ctx.options.queue_command_sync) {
      command_work_ =
          std::make_unique<CommandQueue>(queue_options("queue-controller-command", ctx.clock));
      kube::cache::InformerSpec command_spec;
      command_spec.transform = views::command_view_transform();
      commands_ = ctx.informers.informer(kube::resources::commands, command_spec);
      // Only additions: a command is acted on once; updates and deletes are ignored
      // (spec controller-manager.md §2.2).
      EventHandler on_command;
      on_command.on_add = [this](const ObjectPtr& obj) {
        const auto c = views::as_command(obj);
        if (c && targets_queue(*c)) command_work_->add(obj->key());
      };
      commands_->add_event_handler(std::move(on_command));
    }
    return api::ok_status();
  }

  void run() override {
    const int n = static_cast<int>(options_->worker_threads_for_queue);
    queue_workers_ =
        run_workers(*queue_work_, n, [this](const Request& r) { return sync_request(r); },
                    {.name = kName,
                     .max_requeue = options_->max_requeue_num,
                     .on_drop = [this](const Request& r,
                                       const std::string& error) { on_request_dropped(r, error); },
                     .transient_max_delay = transient_max_delay()});
    if (command_work_) {
      command_workers_ = run_workers(*command_work_, n,
                                     [this](const std::string& key) { return sync_command(key); },
                                     {.name = "queue-controller-command",
                                      .max_requeue = options_->max_requeue_num,
                                      .on_drop = nullptr,
                                      .transient_max_delay = transient_max_delay()});
    }
  }

  std::chrono::milliseconds transient_max_delay() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
        options_->transient_retry_max_delay);
  }

  void stop() override {
    queue_workers_.stop();
    command_workers_.stop();
  }

 private:
  // delay: see kPodGroupBatch; a queue's own events are synced at once.
  void enqueue(std::string queue, std::chrono::milliseconds delay = {}) {
    if (queue.empty()) return;  // a PodGroup without spec.queue: no queue to sync
    queue_work_->add_after(
        Request{std::move(queue), std::string(kOutOfSyncEvent), std::string(kSyncQueueAction)},
        delay);
  }

  EventHandler queue_handler() {
    return {
        .on_add = [this](const ObjectPtr& obj) { enqueue(obj->name); },
        // Volcano syncs on a parent change only (spec controller-manager.md §2.2). We also sync
        // when status.state changed, our own writes included: a SYNC planned while the cache
        // still showed the state before our CLOSE (parked, or on another worker) writes nothing,
        // and with its last PodGroup gone no other event would move the queue from Closing to
        // Closed. A sync writes only what it finds out of date (what Volcano's next sync of the
        // queue would write), so the extra one only makes the queue converge sooner; that
        // includes a state edited by someone else, which Volcano leaves until the next PodGroup
        // event or Command (spec controller-manager.md §6.3.3). Other status writes (the
        // scheduler's) do not sync.
        .on_update =
            [this](const ObjectPtr& old_obj, const ObjectPtr& new_obj) {
              if (queue_parent(*old_obj) != queue_parent(*new_obj) ||
                  queue_state(*old_obj) != queue_state(*new_obj)) {
                enqueue(new_obj->name);
              }
            },
        .on_delete = [](const ObjectPtr& obj) { QueueMetrics::instance().remove(obj->name); },
    };
  }

  // A queue sync reads every PodGroup of the queue, and a busy queue sees a PodGroup change
  // for each of its jobs' steps: one sync per this period covers a burst of them (the queue's
  // counts and Closing -> Closed follow its PodGroups within it).
  static constexpr std::chrono::milliseconds kPodGroupBatch{500};

  EventHandler podgroup_handler() {
    auto view = [](const ObjectPtr& obj) { return views::as_podgroup_view(obj); };
    return {
        .on_add =
            [this, view](const ObjectPtr& obj) {
              if (auto pg = view(obj)) enqueue(pg->queue, kPodGroupBatch);
            },
        .on_update =
            [this, view](const ObjectPtr& old_obj, const ObjectPtr& new_obj) {
              auto before = view(old_obj);
              auto after = view(new_obj);
              if (!before || !after) return;
              // A PodGroup that moved leaves its old queue (which may be waiting to close).
              if (before->queue != after->queue) {
                enqueue(before->queue, kPodGroupBatch);
                enqueue(after->queue, kPodGroupBatch);
              } else if (before->phase != after->phase) {
                enqueue(after->queue, kPodGroupBatch);
              }
            },
        .on_delete =
            [this, view](const ObjectPtr& obj) {
              if (auto pg = view(obj)) enqueue(pg->queue, kPodGroupBatch);
            },
    };
  }

  std::optional<QueueInfo> cached_queue(const std::string& name) const {
    const volcano::QueuePtr q = views::as_queue(queues_->store().get(name));
    if (!q) return std::nullopt;
    return queue_info(*q);
  }

  Snapshot snapshot_of(QueueInfo queue) const {
    Snapshot s;
    s.queue = std::move(queue);
    if (std::string parent = effective_parent(s.queue); !parent.empty()) {
      s.parent = cached_queue(parent);
    }
    for (const ObjectPtr& child : queues_->store().by_index(kParentIndex, s.queue.name)) {
      if (const volcano::Queue* c = views::as_queue(*child)) s.children.push_back(queue_info(*c));
    }
    // Runs on every podgroup change of the queue, over all its podgroups: no copies out.
    podgroups_->store().for_each_in_index(kQueueIndex, s.queue.name, [&](const Object& obj) {
      if (const auto* pg = dynamic_cast<const views::PodGroupView*>(&obj)) {
        s.podgroup_phases.emplace_back(pg->phase);
      }
    });
    return s;
  }

  // The queues of a snapshot, with the versions the cache holds: the one the request is about,
  // its parent and its children.
  static std::vector<std::pair<std::string, std::string>> versions_of(const Snapshot& s) {
    std::vector<std::pair<std::string, std::string>> out{{s.queue.name, s.queue.resource_version}};
    if (s.parent) out.emplace_back(s.parent->name, s.parent->resource_version);
    for (const QueueInfo& c : s.children) out.emplace_back(c.name, c.resource_version);
    return out;
  }

  // A request is planned from the queue, its parent and its children as cached. Right after our
  // own write to one of them (another request's CLOSE marking the children, OPEN of the parent)
  // the cache may still hold the version that write replaced: a plan from it would undo the
  // write (close again a child just reopened, open again a queue just closed) or skip what it
  // asked for. Such a request waits for the cache (own_writes.h).
  ReconcileResult sync_request(const Request& request) {
    std::optional<QueueInfo> queue = cached_queue(request.queue);
    if (!queue) {  // deleted meanwhile: nothing to do
      own_writes_.forget(request.queue);
      return ReconcileResult::ok();
    }
    const Snapshot snapshot = snapshot_of(std::move(*queue));
    const auto versions = versions_of(snapshot);
    for (const auto& [name, version] : versions) {
      if (own_writes_.cache_behind(name, version)) {
        VC_LOG_DEBUG("queue cache has not seen our write yet", kv("queue", request.queue),
                     kv("action", request.action), kv("behind", name));
        return ReconcileResult::requeue_after(kOwnWriteRetry);
      }
    }
    const Plan plan = plan_request(request, snapshot);
    if (log::v(4)) {
      VC_LOG_DEBUG("queue plan", kv("queue", request.queue), kv("action", request.action),
                   kv("steps", fmt::format("{}", fmt::join(describe(plan), "; "))));
    }
    Executor::Written written;
    kube::Status status = executor_->execute(plan, &written);
    for (const auto& [name, version] : versions) {
      if (const auto w = written.find(name); w != written.end()) {
        own_writes_.wrote(name, version, w->second);
      }
    }
    if (status) return ReconcileResult::ok();
    return ReconcileResult::error(
        fmt::format("sync queue {} failed for {}, event is {}, action is {}", request.queue,
                    error_text(status.error()), request.event, request.action));
  }

  // The last failure of a request: a Warning event on the queue, reason = the action.
  void on_request_dropped(const Request& request, const std::string& error) {
    QueueInfo queue;
    queue.name = request.queue;
    if (auto cached = cached_queue(request.queue)) queue = std::move(*cached);
    recorder_->event(queue.reference(), kube::events::EventType::Warning, request.action,
                     fmt::format("{} queue failed for {}", request.action, error));
  }

  ReconcileResult sync_command(const std::string& key) {
    ObjectPtr obj = commands_->store().get(key);
    const auto command = views::as_command(obj);
    // Gone from the cache: deleted by someone else, which Volcano's delete would see as
    // NotFound and skip as well.
    if (!command) return ReconcileResult::ok();
    const std::optional<Request> request = command_request(*command);
    if (!request) return ReconcileResult::ok();
    kube::Status status = executor_->execute_command(obj->namespace_, obj->name, *request);
    if (status) return ReconcileResult::ok();
    return ReconcileResult::error(
        fmt::format("failed to delete command {}: {}", key, error_text(status.error())));
  }

  const ControllerOptions* options_ = nullptr;
  kube::events::EventRecorder* recorder_ = nullptr;
  std::shared_ptr<kube::cache::Informer> queues_;
  std::shared_ptr<kube::cache::Informer> podgroups_;
  std::shared_ptr<kube::cache::Informer> commands_;  // null without QueueCommandSync
  std::unique_ptr<RequestQueue> queue_work_;
  std::unique_ptr<CommandQueue> command_work_;  // null without QueueCommandSync
  std::unique_ptr<Executor> executor_;
  OwnWrites own_writes_;
  Workers queue_workers_;
  Workers command_workers_;
};

}  // namespace

std::unique_ptr<Controller> make_queue_controller() {
  return std::make_unique<QueueController>();
}

}  // namespace vc::controllers::queue

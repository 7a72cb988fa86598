// job-controller (spec job-controller.md): turns each Volcano Job into a PodGroup and pods and
// drives its phase from its pods, its PodGroup, its policies and bus Commands.
//
// Work flows through:
//   - worker_threads shard queues of Requests (Queue<Request>): every request of one job goes to
//     the queue fnv1(ns/name) % workers, each drained by one thread, so a job is processed by one
//     thread at a time (spec job-controller.md §1.4);
//   - one command queue of Command keys (spec job-controller.md §6);
//   - a timer thread for delayed (timeout) actions: when one is due it is put on the job's shard
//     queue as a request carrying the action, so it runs serialized with the job's other work
//     (Volcano runs it in a goroutine of its own, concurrently with the worker,
//     spec job-controller.md §8.25).
// Informer handlers only build requests and enqueue them (their classification lives in
// state/pod_events.h); what a worker does with a request is JobProcessor's (job_processor.h),
// which the unit tests drive directly (job_processor_test.cpp).

#include "controllers/job/job_controller.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "common/go/duration.h"
#include "common/kube/cache/informer.h"
#include "common/kube/resource.h"
#include "common/kube/workqueue/rate_limiting_queue.h"
#include "common/log/log.h"
#include "common/process/thread_name.h"
#include "controllers/framework/worker_loop.h"
#include "controllers/job/job_processor.h"
#include "controllers/job/job_store.h"
#include "controllers/job/job_syncer.h"
#include "controllers/job/model/command.h"
#include "controllers/job/model/job_json.h"
#include "controllers/job/model/metrics.h"
#include "controllers/job/pod_event_batch.h"
#include "controllers/job/state/delayed_actions.h"
#include "controllers/job/state/pod_events.h"
#include "controllers/job/state/policy.h"
#include "controllers/job/state/state_machine.h"
#include "controllers/job/sync/status_finish.h"
#include "controllers/job/verdict/verdict_monitor.h"
#include "controllers/views/command_view.h"
#include "controllers/views/pod_view.h"
#include "controllers/views/podgroup_view.h"
#include "controllers/views/queue_view.h"

namespace vc::controllers::job {

namespace {

using kube::cache::ObjectPtr;
// Requests are queued as values, so equal requests are one item (spec job-controller.md §1.3).
using RequestQueue = kube::workqueue::RateLimitingQueue<Request, RequestHash>;
using CommandQueue = kube::workqueue::RateLimitingQueue<std::string>;
using SteadyClock = std::chrono::steady_clock;

constexpr const char* kName = "job-controller";

// What informer handlers and the timer thread share with the controller. Held by shared_ptr
// so a late informer callback after stop() finds live (shut-down) queues, never freed memory.
struct Shared {
  std::vector<std::shared_ptr<RequestQueue>> shards;
  std::shared_ptr<CommandQueue> commands;
  std::shared_ptr<kube::cache::Informer> jobs;
  std::shared_ptr<kube::cache::Informer> pods;
  std::unique_ptr<JobStore> job_store;
  // The syncer's creates and deletes the informers have not shown yet (job_pods.h).
  PendingWrites pending;
  DelayedActions delayed;
  std::mutex timer_mu;
  std::condition_variable timer_cv;
  bool timer_stop = false;

  RequestQueue& shard_for(const Request& req) const {
    return *shards[shard_of(req.job_key(), static_cast<std::uint32_t>(shards.size()))];
  }
  // delay <= 0 queues at once (add_after's own rule).
  void enqueue(const Request& req, std::chrono::milliseconds delay = {}) {
    shard_for(req).add_after(req, delay);
  }
  // An informer event's request, as the job's OutOfSync request when that is all processing it
  // could do (is_plain_sync), so that the queue merges a burst of them into one sync; for a pod
  // event that plain sync waits pod_event_batch (a PodGroup's admission must not wait). job: the
  // cached job when the caller has it at hand.
  void enqueue_event(const Request& req, JobPtr job = nullptr, bool batch_pod_event = false) {
    if (!job) job = job_store->get(req.job_key());
    if (job && is_plain_sync(*job, req)) {
      Request plain = job_request(req.namespace_, req.job_name, event::kOutOfSync);
      std::chrono::milliseconds delay{};
      if (batch_pod_event) {
        const RequestQueue& shard = shard_for(plain);
        delay = pod_event_batch(shard.len() + shard.waiting());
      }
      return enqueue(plain, delay);
    }
    enqueue(req);
  }
  void wake_timer() {
    std::lock_guard lock(timer_mu);
    timer_cv.notify_all();
  }
};

// Threads: initialize/run/stop on the control thread; the processor on worker threads; handlers on
// informer threads; the timer loop on its own thread.
class JobController : public Controller {
 public:
  std::string name() const override { return kName; }

  api::Status initialize(ControllerContext& ctx) override {
    if (!ctx.options.volcano_job_support)
      return api::Unexpected{"the VolcanoJobSupport feature gate is off"};
    options_ = &ctx.options;
    register_job_metrics();  // the histogram shows on /metrics from start-up, as Volcano's does
    shared_ = std::make_shared<Shared>();
    const std::uint32_t n = std::max<std::uint32_t>(1, ctx.options.worker_threads);
    for (std::uint32_t i = 0; i < n; ++i) {
      kube::workqueue::QueueOptions qo;
      qo.name = std::string(kName) + "-" + std::to_string(i);
      shared_->shards.push_back(std::make_shared<RequestQueue>(std::move(qo)));
    }
    kube::workqueue::QueueOptions cq;
    cq.name = std::string(kName) + "-commands";
    shared_->commands = std::make_shared<CommandQueue>(std::move(cq));

    kube::cache::InformerSpec job_spec;
    job_spec.transform = job_view_transform();
    shared_->jobs = ctx.informers.informer(kube::resources::jobs, job_spec);
    kube::cache::InformerSpec pod_spec;
    pod_spec.transform = views::pod_view_transform();
    shared_->pods = ctx.informers.informer(kube::resources::pods, pod_spec);
    shared_->pods->add_indexer(kJobPodsIndex, job_pods_index);
    kube::cache::InformerSpec pg_spec;
    pg_spec.transform = views::podgroup_view_transform();
    podgroups_ = ctx.informers.informer(kube::resources::podgroups, pg_spec);
    kube::cache::InformerSpec queue_spec;
    queue_spec.transform = views::queue_view_transform();
    queues_ = ctx.informers.informer(kube::resources::queues, queue_spec);
    pvcs_ = ctx.informers.informer(kube::resources::persistentvolumeclaims);
    if (ctx.options.priority_class) {
      priorities_ = ctx.informers.informer(kube::resources::priorityclasses);
    }
    if (ctx.options.queue_command_sync) {
      kube::cache::InformerSpec command_spec;
      command_spec.transform = views::command_view_transform();
      commands_ = ctx.informers.informer(kube::resources::commands, command_spec);
    }
    shared_->job_store =
        std::make_unique<JobStore>(shared_->jobs->store(), &shared_->jobs->written());
    writer_ = std::make_unique<kube::ClientObjectWriter>(ctx.client);
    syncer_ = std::make_unique<JobSyncer>(
        *writer_, ctx.recorder,
        SyncerCaches{shared_->pods->store(), podgroups_->store(), queues_->store(), pvcs_->store(),
                     priorities_ ? &priorities_->store() : nullptr},
        *shared_->job_store, shared_->pending);
    std::weak_ptr<Shared> weak = shared_;
    ProcessorHooks hooks;
    hooks.enqueue = [weak](const Request& req) {
      if (auto s = weak.lock()) s->enqueue(req);
    };
    hooks.wake_timer = [weak] {
      if (auto s = weak.lock()) s->wake_timer();
    };
    processor_ = std::make_unique<JobProcessor>(
        *shared_->job_store, *syncer_, shared_->delayed, ctx.recorder, *writer_,
        commands_ ? &commands_->store() : nullptr, std::move(hooks));
    verdict::MonitorOptions vo;
    vo.period = ctx.options.job_verdict_period;
    vo.pass.max_diagnoses = ctx.options.job_verdicts_per_period;
    verdicts_ = std::make_unique<verdict::VerdictMonitor>(
        ctx.client, ctx.recorder, shared_->jobs->store(), shared_->pods->store(), vo);
    add_handlers();
    return api::ok_status();
  }

  void run() override {
    WorkerOptions<Request> wo;
    wo.name = kName;
    wo.max_requeue = options_->max_requeue_num < 0 ? -1 : options_->max_requeue_num;
    // Only failures about the job count toward it: a sync that failed on a transient API error
    // (another webhook down, an API server restart) or on an exception is retried without end,
    // never turned into a TerminateJob (controllers/framework/retry_policy.h).
    wo.transient_max_delay =
        std::chrono::duration_cast<std::chrono::milliseconds>(options_->transient_retry_max_delay);
    wo.on_drop = [this](const Request& req, const std::string& error) {
      processor_->give_up(req, error);
    };
    for (std::size_t i = 0; i < shared_->shards.size(); ++i) {
      wo.first_index = static_cast<int>(i);  // one thread per shard: w0, w1, ... in top and perf
      workers_.push_back(run_workers(
          *shared_->shards[i], 1, [this](const Request& req) { return processor_->process(req); },
          wo));
    }
    if (commands_) {
      WorkerOptions<std::string> co;
      co.name = std::string(kName) + "-commands";
      co.max_requeue = -1;
      co.transient_max_delay = wo.transient_max_delay;
      command_workers_ = run_workers(
          *shared_->commands, 1,
          [this](const std::string& key) { return processor_->process_command(key); }, co);
    }
    timer_ = std::thread([s = shared_] {
      set_thread_name("job-delays");
      timer_loop(*s);
    });
    verdicts_->start();
  }

  void stop() override {
    if (verdicts_) verdicts_->stop();
    if (shared_) {
      {
        std::lock_guard lock(shared_->timer_mu);
        shared_->timer_stop = true;
      }
      shared_->timer_cv.notify_all();
    }
    if (timer_.joinable()) timer_.join();
    for (auto& w : workers_) w.stop();
    command_workers_.stop();
    if (shared_) {
      for (auto& q : shared_->shards) q->shutdown();
      shared_->commands->shutdown();
    }
  }

 private:
  void add_handlers() {
    std::weak_ptr<Shared> weak = shared_;
    kube::cache::EventHandler on_job;
    on_job.on_add = [weak](const ObjectPtr& obj) {
      auto s = weak.lock();
      auto job = as_job(obj);
      if (!s || !job) return;
      s->enqueue(job_request(job->namespace_, job->name, event::kOutOfSync));
    };
    on_job.on_update = [weak](const ObjectPtr& old_obj, const ObjectPtr& new_obj) {
      auto s = weak.lock();
      auto old_job = as_job(old_obj);
      auto job = as_job(new_obj);
      if (!s || !old_job || !job || old_job->resource_version == job->resource_version) return;
      // Only spec or phase changes are work (spec job-controller.md §1.3): status-only writes, most
      // of them our own, would otherwise loop.
      if (old_job->spec == job->spec && old_job->status.phase == job->status.phase) return;
      s->enqueue(job_request(job->namespace_, job->name, event::kOutOfSync));
    };
    on_job.on_delete = [weak](const ObjectPtr& obj) {
      auto s = weak.lock();
      auto job = as_job(obj);
      if (!s || !job) return;
      delete_job_series(job->namespace_, job->name, job->spec.queue);
      s->delayed.forget_job(job->key());
      s->job_store->forget(job->key());
    };
    shared_->jobs->add_event_handler(std::move(on_job));

    kube::cache::EventHandler on_pod;
    on_pod.on_add = [weak](const ObjectPtr& obj) {
      auto s = weak.lock();
      auto pod = views::as_pod_view(obj);
      if (!s || !pod) return;
      auto req = base_request_for_pod(*pod);
      if (!req) return;
      // The informer shows the pod: if we created it, the cache now tells the truth about it.
      s->pending.pods_created.forget(req->job_key(), pod->uid);
      PodEvent ev = classify_pod_add(*pod);
      req->event = ev.event;
      req->exit_code = ev.exit_code;
      s->enqueue_event(*req, nullptr, /*batch_pod_event=*/true);
    };
    on_pod.on_update = [weak](const ObjectPtr& old_obj, const ObjectPtr& new_obj) {
      auto s = weak.lock();
      auto old_pod = views::as_pod_view(old_obj);
      auto pod = views::as_pod_view(new_obj);
      if (!s || !old_pod || !pod || old_pod->resource_version == pod->resource_version) return;
      auto req = base_request_for_pod(*pod);
      if (!req) return;
      JobPtr job = s->job_store->get(req->job_key());
      // The task verdicts must not count the pods we have just killed (state/current_pod.h);
      // without the job there is no verdict to reach.
      std::vector<views::PodViewPtr> pods;
      if (job) {
        pods = job_pods(s->pods->store(), req->job_key(), s->pending,
                        std::chrono::system_clock::now());
      }
      PodEvent ev = classify_pod_update(*old_pod, *pod, job.get(), pods);
      req->event = ev.event;
      req->exit_code = ev.exit_code;
      s->enqueue_event(*req, std::move(job), /*batch_pod_event=*/true);
    };
    on_pod.on_delete = [weak](const ObjectPtr& obj) {
      auto s = weak.lock();
      auto pod = views::as_pod_view(obj);
      if (!s || !pod) return;
      auto req = base_request_for_pod(*pod);
      if (!req) return;
      PodEvent ev = classify_pod_delete(*pod, true);
      req->event = ev.event;
      req->exit_code = ev.exit_code;
      s->enqueue_event(*req, nullptr, /*batch_pod_event=*/true);
    };
    shared_->pods->add_event_handler(std::move(on_pod));

    kube::cache::EventHandler on_pg;
    on_pg.on_update = [weak](const ObjectPtr& old_obj, const ObjectPtr& new_obj) {
      auto s = weak.lock();
      auto old_pg = views::as_podgroup_view(old_obj);
      auto pg = views::as_podgroup_view(new_obj);
      if (!s || !old_pg || !pg) return;
      if (auto req = request_for_podgroup_update(*old_pg, *pg)) s->enqueue_event(*req);
    };
    podgroups_->add_event_handler(std::move(on_pg));

    if (commands_) {
      kube::cache::EventHandler on_cmd;
      on_cmd.on_add = [weak](const ObjectPtr& obj) {
        auto s = weak.lock();
        auto cmd = views::as_command(obj);
        if (!s || !cmd || !job_command(*cmd)) return;
        s->commands->add(obj->key());
      };
      commands_->add_event_handler(std::move(on_cmd));
    }
  }

  // Puts due delayed actions on their job's queue as requests carrying the action.
  static void timer_loop(Shared& s) {
    std::unique_lock lock(s.timer_mu);
    while (!s.timer_stop) {
      auto next = s.delayed.next_due();
      if (next) {
        s.timer_cv.wait_until(lock, *next);
      } else {
        s.timer_cv.wait(lock);
      }
      if (s.timer_stop) break;
      lock.unlock();
      for (DelayedAction& due : s.delayed.pop_due(SteadyClock::now())) {
        Request req = due.request;
        req.action = due.action;
        // The action decides what runs (policy step 1); without the triggering event the request
        // cannot cancel other timers of its pod, as a pod event would (spec job-controller.md §3.4
        // applies to new pod events, not to a timer firing).
        req.event.clear();
        s.enqueue(req);
      }
      lock.lock();
    }
  }

  const ControllerOptions* options_ = nullptr;
  std::shared_ptr<Shared> shared_;
  std::shared_ptr<kube::cache::Informer> podgroups_;
  std::shared_ptr<kube::cache::Informer> queues_;
  std::shared_ptr<kube::cache::Informer> pvcs_;
  std::shared_ptr<kube::cache::Informer> priorities_;
  std::shared_ptr<kube::cache::Informer> commands_;
  std::unique_ptr<kube::ClientObjectWriter> writer_;
  std::unique_ptr<JobSyncer> syncer_;
  std::unique_ptr<JobProcessor> processor_;
  std::vector<Workers> workers_;
  Workers command_workers_;
  std::thread timer_;
  std::unique_ptr<verdict::VerdictMonitor> verdicts_;
};

}  // namespace

std::unique_ptr<Controller> make_job_controller() {
  return std::make_unique<JobController>();
}

}  // namespace vc::controllers::job

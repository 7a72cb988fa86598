#include "controllers/garbagecollector/gc_controller.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "common/kube/cache/informer.h"
#include "common/kube/resource.h"
#include "common/kube/workqueue/rate_limiting_queue.h"
#include "common/log/log.h"
#include "controllers/garbagecollector/cleaner.h"
#include "controllers/garbagecollector/decision.h"
#include "controllers/garbagecollector/job_view.h"
#include "controllers/job/model/job_json.h"

namespace vc::controllers::gc {

namespace {

using log::kv;
namespace cache = kube::cache;
namespace workqueue = kube::workqueue;

// GcController: the shared informer on Volcano Jobs (the job controller's job views), one
// rate-limited queue of "ns/name" keys, and --worker-threads-for-gc workers. Keys are retried
// without limit (spec controller-manager.md §1.11); a job that is not due yet is parked with
// add_after until it is.
//
// Threads: initialize/run/stop on the control thread (see Controller). Informer handlers only
// enqueue. Workers call sync(); the queue guarantees one key is never synced by two at once.
class GcController final : public Controller {
 public:
  explicit GcController(GcControllerOptions options) : options_(std::move(options)) {
    if (!options_.now) options_.now = [] { return std::chrono::system_clock::now(); };
  }
  ~GcController() override { stop(); }

  std::string name() const override { return kControllerName; }

  api::Status initialize(ControllerContext& ctx) override {
    client_ = &ctx.client;
    workers_ = std::max<std::uint32_t>(1, ctx.options.worker_threads_for_gc);
    workqueue::QueueOptions queue_options;
    queue_options.name = kControllerName;
    queue_options.clock = options_.clock;
    queue_ = std::make_shared<workqueue::RateLimitingQueue<std::string>>(std::move(queue_options));
    kube::cache::InformerSpec spec;
    spec.transform = job::job_view_transform();  // shared with the job controller
    jobs_ = ctx.informers.informer(kube::resources::jobs, spec);
    // The handlers hold the queue, not the controller: the shared informer may outlive us.
    // Job deletions need no handler: a deleted job has nothing left to collect, and a key
    // already queued finds it missing from the cache.
    cache::EventHandler handler;
    handler.on_add = [q = queue_](const cache::ObjectPtr& obj) { enqueue_if_candidate(*q, obj); };
    handler.on_update = [q = queue_](const cache::ObjectPtr&, const cache::ObjectPtr& obj) {
      enqueue_if_candidate(*q, obj);
    };
    handler_ = jobs_->add_event_handler(std::move(handler));
    return api::ok_status();
  }

  void run() override {
    for (std::uint32_t i = 0; i < workers_; ++i) {
      threads_.emplace_back([this] { worker(); });
    }
  }

  void stop() override {
    if (jobs_) jobs_->remove_event_handler(handler_);
    if (queue_) queue_->shutdown();
    for (auto& t : threads_) t.join();
    threads_.clear();
  }

 private:
  static void enqueue_if_candidate(workqueue::Queue<std::string>& queue,
                                   const cache::ObjectPtr& obj) {
    const job::JobPtr job = job::as_job(obj);
    if (job != nullptr && is_cleanup_candidate(gc_job_of(*job))) queue.add(job->key());
  }

  // The classic loop: pop a key, sync it, forget or back off, done.
  void worker() {
    while (auto key = queue_->get()) {
      sync(*key);
      queue_->done(*key);
    }
  }

  void sync(const std::string& key) {
    const cache::ObjectPtr cached = jobs_->store().get(key);
    const job::JobPtr cached_job = job::as_job(cached);
    if (cached_job == nullptr) {
      queue_->forget(key);
      return;
    }
    const Decision d = decide(gc_job_of(*cached_job), options_.now());
    switch (d.kind) {
      case Decision::Kind::Keep:
        queue_->forget(key);
        return;
      case Decision::Kind::Error:
        fail(key, d.error);
        return;
      case Decision::Kind::RecheckAfter:
        recheck_after(key, d);
        return;
      case Decision::Kind::DeleteNow:
        break;
    }
    const auto [ns, name] = cache::split_key(key);
    const CleanupOutcome outcome = clean_up(*client_, ns, name, options_.now());
    switch (outcome.kind) {
      case CleanupOutcome::Kind::Deleted:
      case CleanupOutcome::Kind::Gone:
        queue_->forget(key);
        return;
      case CleanupOutcome::Kind::RecheckAfter:
        recheck_after(key, Decision::recheck_after(outcome.after, false));
        return;
      case CleanupOutcome::Kind::Retry:
        fail(key, outcome.error);
        return;
    }
  }

  void recheck_after(const std::string& key, const Decision& d) {
    if (d.clock_skew) {
      VC_LOG_WARN("job finished in the future, clock skew suspected; cleanup deferred",
                  kv("job", key), kv("after_ms", d.after.count()));
    } else {
      VC_LOG_DEBUG("job not expired yet", kv("job", key), kv("after_ms", d.after.count()));
    }
    queue_->forget(key);
    queue_->add_after(key, d.after);
  }

  void fail(const std::string& key, const std::string& why) {
    VC_LOG_ERROR("error cleaning up job, will retry", kv("job", key), kv("error", why),
                 kv("retries", queue_->num_requeues(key)));
    queue_->add_rate_limited(key);
  }

  GcControllerOptions options_;
  kube::Client* client_ = nullptr;
  std::uint32_t workers_ = 1;
  std::shared_ptr<cache::Informer> jobs_;
  cache::HandlerId handler_ = 0;
  std::shared_ptr<workqueue::RateLimitingQueue<std::string>> queue_;
  std::vector<std::thread> threads_;
};

}  // namespace

std::unique_ptr<Controller> make_gc_controller() {
  return make_gc_controller({});
}

std::unique_ptr<Controller> make_gc_controller(GcControllerOptions options) {
  return std::make_unique<GcController>(std::move(options));
}

}  // namespace vc::controllers::gc

#include "controllers/app/term.h"

#include <exception>

#include "common/log/log.h"
#include "controllers/framework/decode_events.h"

namespace vc::controllers::app {

using Clock = std::chrono::steady_clock;

Term::Term(kube::Client& client, const ControllerOptions& options,
           const std::vector<Registration>& enabled, TermSettings settings)
    : client_(client), options_(options), enabled_(enabled), settings_(std::move(settings)) {}

Term::~Term() {
  stop();
}

bool Term::start(std::stop_token stop) {
  kube::events::RecorderOptions ro;
  ro.source.component = kComponent;
  ro.stop_drain_timeout = settings_.event_drain;
  recorder_ = std::make_unique<kube::events::AsyncEventRecorder>(client_, ro);
  // Objects the informers cannot decode get a Warning event; stop() stops the informers before
  // the recorder, so the sink never outlives it.
  kube::cache::SharedInformerFactoryOptions fo;
  fo.on_decode_rejection = decode_rejection_events(*recorder_);
  informers_ = std::make_unique<kube::cache::SharedInformerFactory>(client_, std::move(fo));
  context_ = std::make_unique<ControllerContext>(
      ControllerContext{client_, *informers_, *recorder_, options_});

  for (const auto& registration : enabled_) {
    std::unique_ptr<Controller> controller = registration.factory();
    if (!controller) {
      if (settings_.on_not_implemented) settings_.on_not_implemented(registration.name);
      continue;
    }
    api::Status initialized = api::ok_status();
    try {
      initialized = controller->initialize(*context_);
    } catch (const std::exception& e) {
      initialized = api::Unexpected{std::string("initialize threw: ") + e.what()};
    }
    if (!initialized) {
      VC_LOG_ERROR("Failed to initialize controller " + registration.name + ": " +
                   initialized.error());
      continue;
    }
    VC_LOG_V(2, "controller initialized", kv("controller", registration.name));
    controllers_.push_back(std::move(controller));
  }

  informers_->start();
  const auto began = Clock::now();
  while (!informers_->wait_for_sync(stop, Clock::now() + settings_.sync_log_period)) {
    if (stop.stop_requested()) {
      VC_LOG_INFO("term stopped before the informer caches synced");
      return false;
    }
    // An unsynced cache must never drive writes, and another replica would face the same API
    // server, so keep waiting (and keep saying so) rather than give up the term.
    VC_LOG_WARN("still waiting for informer caches to sync", kv("informers", informers_->size()),
                kv("waited_s",
                   std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - began).count()));
  }
  synced_ = true;
  VC_LOG_INFO("informer caches synced", kv("informers", informers_->size()),
              kv("controllers", controllers_.size()));
  return true;
}

void Term::run() {
  for (auto& controller : controllers_) {
    VC_LOG_INFO("starting controller", kv("controller", controller->name()));
    controller->run();
  }
  running_ = true;
}

void Term::stop() {
  if (stopped_) return;
  stopped_ = true;
  // Reverse order of start; every controller is stopped even if it never ran, since
  // initialize may have created queues and handlers.
  for (auto it = controllers_.rbegin(); it != controllers_.rend(); ++it) {
    VC_LOG_V(2, "stopping controller", kv("controller", (*it)->name()));
    (*it)->stop();
  }
  if (running_) VC_LOG_INFO("controllers stopped", kv("controllers", controllers_.size()));
  if (informers_) informers_->stop();
  if (recorder_) recorder_->stop();
  controllers_.clear();
  context_.reset();
  recorder_.reset();
  informers_.reset();
  synced_ = false;
}

std::vector<std::string> Term::controllers() const {
  std::vector<std::string> out;
  for (const auto& c : controllers_) out.push_back(c->name());
  return out;
}

}  // namespace vc::controllers::app

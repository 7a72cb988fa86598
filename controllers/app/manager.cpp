#include "controllers/app/manager.h"

#include "common/log/log.h"

namespace vc::controllers::app {

ControllerManager::ControllerManager(kube::Client& client, ControllerOptions options,
                                     std::vector<Registration> enabled, ManagerSettings settings)
    : client_(client),
      options_(std::move(options)),
      enabled_(std::move(enabled)),
      settings_(std::move(settings)) {
  settings_.term.on_not_implemented = [this](const std::string& name) {
    report_not_implemented(name);
  };
}

ControllerManager::~ControllerManager() {
  shutdown();
}

void ControllerManager::start() {
  std::lock_guard lock(thread_mu_);
  if (thread_.joinable()) return;
  thread_ = std::thread([this] { loop(); });
}

void ControllerManager::on_started_leading() {
  std::lock_guard lock(mu_);
  leading_ = true;
  cv_.notify_all();
}

void ControllerManager::on_stopped_leading() {
  std::unique_lock lock(mu_);
  leading_ = false;
  term_stop_.request_stop();
  cv_.notify_all();
  cv_.wait(lock, [&] { return !term_active_; });
}

void ControllerManager::shutdown() {
  {
    std::lock_guard lock(mu_);
    shutdown_ = true;
    leading_ = false;
    term_stop_.request_stop();
    cv_.notify_all();
  }
  std::lock_guard lock(thread_mu_);
  if (thread_.joinable()) thread_.join();
}

bool ControllerManager::ready() const {
  return !starting_.load();
}

int ControllerManager::terms_started() const {
  std::lock_guard lock(mu_);
  return terms_;
}

void ControllerManager::report_not_implemented(const std::string& name) {
  if (reported_.insert(name).second) {
    VC_LOG_WARN("Controller " + name + " is enabled but not implemented by vc-cpp; skipping it");
  }
}

void ControllerManager::loop() {
  std::unique_lock lock(mu_);
  for (;;) {
    cv_.wait(lock, [&] { return shutdown_ || leading_; });
    if (shutdown_) return;
    term_active_ = true;
    term_stop_ = std::stop_source();
    const std::stop_token stop = term_stop_.get_token();
    const int number = ++terms_;
    starting_ = true;
    lock.unlock();

    VC_LOG_INFO("starting controllers for a new term", kv("term", number));
    Term term(client_, options_, enabled_, settings_.term);
    const bool started = term.start(stop);
    starting_ = false;
    if (started) {
      term.run();
      if (settings_.on_term_running) settings_.on_term_running(number, term.controllers());
    }

    lock.lock();
    cv_.wait(lock, [&] { return shutdown_ || !leading_; });
    lock.unlock();
    VC_LOG_INFO("stopping controllers", kv("term", number));
    term.stop();
    if (settings_.on_term_stopped) settings_.on_term_stopped(number);
    lock.lock();
    term_active_ = false;
    cv_.notify_all();
  }
}

}  // namespace vc::controllers::app

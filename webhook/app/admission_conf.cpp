#include "webhook/app/admission_conf.h"

#include <condition_variable>

#include "common/log/log.h"
#include "webhook/app/read_file.h"

namespace vc::webhook::app {

AdmissionConfWatcher::AdmissionConfWatcher(std::string path, std::shared_ptr<LiveOptions> live,
                                           std::chrono::milliseconds interval)
    : path_(std::move(path)), live_(std::move(live)), interval_(interval) {}

AdmissionConfWatcher::~AdmissionConfWatcher() {
  stop();
}

bool AdmissionConfWatcher::load_initial() {
  return poll();
}

void AdmissionConfWatcher::start() {
  if (thread_.joinable()) return;
  thread_ = std::jthread([this](std::stop_token stop) {
    std::mutex mu;
    std::condition_variable_any cv;
    while (!stop.stop_requested()) {
      {
        std::unique_lock lock(mu);
        if (cv.wait_for(lock, stop, interval_, [] { return false; }) || stop.stop_requested()) {
          return;
        }
      }
      poll();
    }
  });
}

void AdmissionConfWatcher::stop() {
  if (!thread_.joinable()) return;
  thread_.request_stop();
  thread_.join();
}

bool AdmissionConfWatcher::poll() {
  std::lock_guard lock(poll_mu_);
  auto content = read_file(path_);
  if (!content) {
    if (content.error() != last_error_) {
      VC_LOG_ERROR("cannot read the admission configuration; keeping the current one",
                   kv("file", path_), kv("err", content.error()));
      last_error_ = content.error();
    }
    return false;
  }
  if (tried_ && *content == last_content_) return false;
  tried_ = true;
  last_content_ = *content;
  auto config = PodAdmissionConfig::parse(*content);
  if (!config) {
    const std::string err = path_ + ": " + config.error();
    if (err != last_error_) {
      VC_LOG_ERROR("invalid admission configuration; keeping the current one", kv("file", path_),
                   kv("err", config.error()));
      last_error_ = err;
    }
    return false;
  }
  last_error_.clear();
  VC_LOG_INFO("loaded the admission configuration", kv("file", path_),
              kv("resource_groups", config->resource_groups.size()));
  live_->set_pod_admission_config(
      std::make_shared<const PodAdmissionConfig>(std::move(config).value()));
  return true;
}

}  // namespace vc::webhook::app

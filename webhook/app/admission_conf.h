#pragma once
// AdmissionConfWatcher: loads --admission-conf (the pod resource groups of spec webhook.md §2.7)
// at start-up and re-loads it when its content changes, publishing each valid version through
// LiveOptions. A file that cannot be read or parsed is logged (once per distinct problem) and the
// previous configuration stays in force, as in Volcano.
//
// Unlike Volcano, a configuration that was missing or invalid at start-up turns pods/mutate on
// once the file becomes valid (compat.md). Changes are found by polling the content (ConfigMap
// volumes replace files through symlink swaps, which content comparison sees without special
// cases; reading one small file a second is cheap).
//
// Thread-safety: start() and stop() from the owning thread; poll() from any thread (it is
// serialised).

#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "webhook/admission/pod_admission_config.h"
#include "webhook/app/live_options.h"

namespace vc::webhook::app {

class AdmissionConfWatcher {
 public:
  AdmissionConfWatcher(std::string path, std::shared_ptr<LiveOptions> live,
                       std::chrono::milliseconds interval = std::chrono::seconds(1));
  ~AdmissionConfWatcher();  // stop()
  AdmissionConfWatcher(const AdmissionConfWatcher&) = delete;
  AdmissionConfWatcher& operator=(const AdmissionConfWatcher&) = delete;

  // Loads the file once and publishes it when valid; returns whether a configuration was
  // installed. Call before start().
  bool load_initial();
  // Polls every interval on a background thread until stop().
  void start();
  void stop();
  // Re-reads the file now; true when a new configuration was published.
  bool poll();

 private:
  const std::string path_;
  const std::shared_ptr<LiveOptions> live_;
  const std::chrono::milliseconds interval_;

  std::mutex poll_mu_;        // serialises poll(); guards the two members below
  std::string last_content_;  // the content last tried, valid or not
  bool tried_ = false;
  std::string last_error_;  // so that a lasting problem is logged once

  std::jthread thread_;
};

}  // namespace vc::webhook::app

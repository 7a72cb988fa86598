#pragma once
// Sleeping that a stop request cuts short: for threads that wait between attempts or reads and
// must still shut down promptly.

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stop_token>

namespace vc::kube {

// Sleeps for `d`, or until `stop` is requested. Returns false when stop was requested.
template <class Rep, class Period>
bool sleep_unless_stopped(std::chrono::duration<Rep, Period> d, const std::stop_token& stop) {
  std::mutex mu;
  std::condition_variable_any cv;
  std::unique_lock lock(mu);
  cv.wait_for(lock, stop, d, [] { return false; });
  return !stop.stop_requested();
}

}  // namespace vc::kube

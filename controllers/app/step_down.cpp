#include "controllers/app/step_down.h"

#include <condition_variable>
#include <mutex>
#include <thread>

namespace vc::controllers::app {

bool run_within(const std::function<void()>& fn, std::chrono::milliseconds limit,
                const std::function<void()>& overrun) {
  if (limit <= std::chrono::milliseconds::zero()) {
    fn();
    return true;
  }
  std::mutex mu;
  std::condition_variable cv;
  bool done = false;
  bool overran = false;
  std::thread watchdog([&] {
    std::unique_lock lock(mu);
    if (cv.wait_for(lock, limit, [&] { return done; })) return;
    overran = true;
    lock.unlock();
    overrun();
  });
  fn();
  {
    std::lock_guard lock(mu);
    done = true;
  }
  cv.notify_all();
  watchdog.join();
  return !overran;
}

}  // namespace vc::controllers::app

#include "common/server/busy_poll.h"

namespace vc::server {

void run_busy_polling(boost::asio::io_context& ioc, std::chrono::microseconds window) {
  using Clock = std::chrono::steady_clock;
  if (window <= std::chrono::microseconds::zero()) {
    ioc.run();
    return;
  }
  auto last_work = Clock::now();
  while (!ioc.stopped()) {
    // poll() runs what is ready, including a non-blocking look at the sockets and timers.
    if (ioc.poll() > 0) {
      last_work = Clock::now();
    } else if (Clock::now() - last_work >= window) {
      // Nothing for a whole window: sleep until the next handler, as run() does.
      ioc.run_one();
      last_work = Clock::now();
    }
  }
}

}  // namespace vc::server

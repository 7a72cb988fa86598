#include "common/server/busy_poll.h"

#include <pthread.h>
#include <time.h>

#include <atomic>
#include <chrono>
#include <future>
#include <thread>

#include <gtest/gtest.h>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

namespace vc::server {
namespace {

namespace asio = boost::asio;
using namespace std::chrono_literals;

// CPU time a thread has used so far.
std::chrono::nanoseconds thread_cpu(std::thread& t) {
  clockid_t clock;
  EXPECT_EQ(pthread_getcpuclockid(t.native_handle(), &clock), 0);
  timespec ts{};
  EXPECT_EQ(clock_gettime(clock, &ts), 0);
  return std::chrono::seconds(ts.tv_sec) + std::chrono::nanoseconds(ts.tv_nsec);
}

// Runs the loop on a thread and waits for it to return, at most 5 s. A loop that never returns
// would leave a spinning thread behind, so a timeout ends the test binary with the reason.
void run_expecting_return(asio::io_context& ioc, std::chrono::microseconds window,
                          const char* why) {
  std::promise<void> returned;
  std::thread worker([&] {
    run_busy_polling(ioc, window);
    returned.set_value();
  });
  if (returned.get_future().wait_for(5s) != std::future_status::ready) {
    ADD_FAILURE() << "run_busy_polling did not return within 5 s: " << why;
    std::abort();
  }
  worker.join();
}

TEST(BusyPoll, RunsEveryHandlerAndReturnsWhenOutOfWork) {
  for (const auto window : {0us, 200us}) {
    asio::io_context ioc;
    int ran = 0;
    asio::post(ioc, [&] {
      ++ran;
      asio::post(ioc, [&] { ++ran; });  // posted by a handler: still run
    });
    asio::steady_timer timer(ioc, 20ms);
    timer.async_wait([&](auto) { ++ran; });  // due after the window: the loop must wait for it
    run_expecting_return(ioc, window, "out of work");
    EXPECT_EQ(ran, 3) << "window " << window.count() << " us";
    EXPECT_TRUE(ioc.stopped());
  }
}

TEST(BusyPoll, ReturnsWhenStoppedFromAnotherThread) {
  asio::io_context ioc;
  auto guard = asio::make_work_guard(ioc);
  std::thread stopper([&] {
    std::this_thread::sleep_for(20ms);
    ioc.stop();
  });
  // stop() comes inside the window: the spin must notice.
  run_expecting_return(ioc, 100ms, "after stop()");
  stopper.join();
}

// After a window without work the worker sleeps like run(), and wakes for the next handler.
TEST(BusyPoll, SleepsOnceAWindowPassesWithoutWorkAndWakesForNewWork) {
  asio::io_context ioc;
  auto guard = asio::make_work_guard(ioc);
  std::atomic<int> ran{0};
  asio::post(ioc, [&] { ++ran; });
  std::thread worker([&] { run_busy_polling(ioc, 1ms); });

  const auto cpu_before = thread_cpu(worker);
  std::this_thread::sleep_for(500ms);
  const auto idle_cpu = thread_cpu(worker) - cpu_before;
  // Spinning through the whole wait would cost about 500 ms of CPU (less only if the machine
  // is very busy); sleeping costs the one window and a wake-up or two.
  EXPECT_LT(idle_cpu, 100ms) << "idle CPU " << idle_cpu.count() / 1000 << " us";

  std::promise<void> woke;
  asio::post(ioc, [&] {
    ++ran;
    woke.set_value();
  });
  EXPECT_EQ(woke.get_future().wait_for(5s), std::future_status::ready)
      << "a handler posted to the sleeping worker did not run";
  EXPECT_EQ(ran.load(), 2);
  guard.reset();
  ioc.stop();
  worker.join();
}

}  // namespace
}  // namespace vc::server

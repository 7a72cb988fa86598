#include "controllers/app/step_down.h"

#include <atomic>
#include <latch>

#include <gtest/gtest.h>

namespace vc::controllers::app {
namespace {

using namespace std::chrono_literals;

TEST(RunWithin, AStopInTimeCallsNoOverrun) {
  int ran = 0;
  bool overran = false;
  EXPECT_TRUE(run_within([&] { ++ran; }, 5s, [&] { overran = true; }));
  EXPECT_EQ(ran, 1);
  EXPECT_FALSE(overran);
}

TEST(RunWithin, AStuckStopCallsOverrunWhileItStillRuns) {
  // fn stays stuck until the overrun has been called: the overrun cannot wait for fn.
  std::latch overrun_called(1);
  std::atomic<int> overruns{0};
  EXPECT_FALSE(run_within([&] { overrun_called.wait(); }, 20ms,
                          [&] {
                            ++overruns;
                            overrun_called.count_down();
                          }));
  EXPECT_EQ(overruns.load(), 1);
}

TEST(RunWithin, ZeroLimitWaitsWithoutAWatchdog) {
  bool overran = false;
  EXPECT_TRUE(run_within([] { std::this_thread::sleep_for(5ms); }, 0ms, [&] { overran = true; }));
  EXPECT_FALSE(overran);
}

}  // namespace
}  // namespace vc::controllers::app

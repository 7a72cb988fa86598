#pragma once
// eventually(): the one way a test waits for something another thread does. It polls pred until
// it holds or the deadline passes and says which, so a test asserts on the result and prints
// what it saw, never sleeps a fixed time and hopes. Header-only.

#include <chrono>
#include <functional>
#include <thread>

namespace vc::testing {

inline bool eventually(const std::function<bool()>& pred,
                       std::chrono::milliseconds timeout = std::chrono::seconds(10),
                       std::chrono::milliseconds poll = std::chrono::milliseconds(5)) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!pred()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(poll);
  }
  return true;
}

}  // namespace vc::testing

#pragma once
// A bounded step-down. When leadership ends, the controllers are stopped on the elector's thread
// (their client is fenced first, so no write of the ended term reaches the API server). A worker
// stuck in a call that ignores cancellation would hold that stop forever: the replica would
// neither lead nor campaign again, and its liveness would stay green. run_within() bounds the
// wait; run.cpp exits the process when it runs out (--leader-elect-step-down-timeout), and the
// kubelet starts a clean one.
//
// Thread-safety: a function; fn runs on the calling thread, overrun on a watchdog thread.

#include <chrono>
#include <functional>

namespace vc::controllers::app {

// Runs fn; when it has not returned after limit, calls overrun once (from another thread, while
// fn goes on). A limit of zero or less waits without a bound. Returns whether fn returned in time.
bool run_within(const std::function<void()>& fn, std::chrono::milliseconds limit,
                const std::function<void()>& overrun);

}  // namespace vc::controllers::app

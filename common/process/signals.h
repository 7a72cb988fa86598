#pragma once
// SignalHandler: SIGINT and SIGTERM as Volcano's binaries treat them. The first one requests a
// graceful stop (stop_token() is stopped); a second one exits the process with status 1 at once.
//
// Construct it before any other thread exists: it blocks both signals in the calling thread,
// threads created afterwards inherit that mask, and a dedicated thread reads them from a signalfd,
// so no signal handler ever runs on an arbitrary thread.
//
// Thread-safety: construct and destroy on the main thread; stop_token() from any thread.

#include <cstdint>
#include <stop_token>
#include <thread>

namespace vc::process {

class SignalHandler {
 public:
  SignalHandler();
  ~SignalHandler();
  SignalHandler(const SignalHandler&) = delete;
  SignalHandler& operator=(const SignalHandler&) = delete;

  std::stop_token stop_token() const { return stop_.get_token(); }

 private:
  std::stop_source stop_;
  int signal_fd_ = -1;
  int wake_fd_ = -1;  // an eventfd the destructor writes to end the thread
  std::jthread thread_;
};

}  // namespace vc::process

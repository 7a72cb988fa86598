#pragma once
// BufferedFdSink: the process log's sink on a file descriptor (stderr), writing each line of Info
// and above at once and holding Debug and Trace lines for a moment, so that a busy process at -v
// 2 or more writes its chatter in a few large writes instead of a syscall per line.
//
// Why: at -v=3 the webhook logs every review it answers, and that line's write(2) was one of
// about six syscalls per review (bench-webhook, strace -c). klog, Volcano's logger, writes
// each line to stderr as it comes; glog buffers for up to 30 s. Here:
// - a line at Info or above is written with everything buffered before it, in order, before the
//   call returns (what an operator acts on is never late, and never behind older lines);
// - a Debug or Trace line waits at most `flush_after` (a flusher thread, started with the first
//   such line, writes it), or until `limit` bytes are buffered;
// - flush() writes what is buffered; log.cpp calls it at exit. A crash (abort, a fatal signal)
//   loses at most the last `flush_after` of debug lines.
// A write error other than EINTR drops what was buffered: logging never blocks or fails the
// process (as spdlog's own stderr sink ignores fwrite's result).
//
// Thread-safety: spdlog's base_sink serialises sink_it_ and flush_ under its mutex.

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <string>
#include <thread>

#include <spdlog/sinks/base_sink.h>

namespace vc::log {

class BufferedFdSink final : public spdlog::sinks::base_sink<std::mutex> {
 public:
  explicit BufferedFdSink(int fd,
                          std::chrono::milliseconds flush_after = std::chrono::milliseconds(100),
                          std::size_t limit = 16 * 1024);
  ~BufferedFdSink() override;
  BufferedFdSink(const BufferedFdSink&) = delete;
  BufferedFdSink& operator=(const BufferedFdSink&) = delete;

 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override;
  void flush_() override;

 private:
  void write_out();  // caller holds base_sink's mutex_
  void run_flusher(std::stop_token stop);

  const int fd_;
  const std::chrono::milliseconds flush_after_;
  const std::size_t limit_;
  std::string buffer_;  // formatted lines not yet written; guarded by mutex_

  // The flusher sleeps until a debug line is buffered (pending_), then writes it flush_after_
  // later. Lock order: mutex_ before wake_mu_; the flusher never holds both.
  std::mutex wake_mu_;
  std::condition_variable_any wake_;
  bool pending_ = false;
  std::jthread flusher_;  // started with the first buffered line; guarded by mutex_
};

}  // namespace vc::log

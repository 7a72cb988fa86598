#include "common/log/buffered_sink.h"

#include <unistd.h>

#include <cerrno>
#include <utility>

namespace vc::log {

BufferedFdSink::BufferedFdSink(int fd, std::chrono::milliseconds flush_after, std::size_t limit)
    : fd_(fd), flush_after_(flush_after), limit_(limit) {}

BufferedFdSink::~BufferedFdSink() {
  // Stop the flusher first: it calls flush(), which takes mutex_.
  if (flusher_.joinable()) {
    flusher_.request_stop();
    flusher_.join();
  }
  std::lock_guard lock(mutex_);
  write_out();
}

void BufferedFdSink::sink_it_(const spdlog::details::log_msg& msg) {
  spdlog::memory_buf_t line;
  formatter_->format(msg, line);
  buffer_.append(line.data(), line.size());
  if (msg.level >= spdlog::level::info || buffer_.size() >= limit_) {
    write_out();
    return;
  }
  if (!flusher_.joinable()) {
    flusher_ = std::jthread([this](std::stop_token stop) { run_flusher(std::move(stop)); });
  }
  {
    std::lock_guard wake_lock(wake_mu_);
    if (pending_) return;
    pending_ = true;
  }
  wake_.notify_one();
}

void BufferedFdSink::flush_() {
  write_out();
}

void BufferedFdSink::write_out() {
  std::size_t done = 0;
  while (done < buffer_.size()) {
    const ssize_t n = ::write(fd_, buffer_.data() + done, buffer_.size() - done);
    if (n > 0) {
      done += static_cast<std::size_t>(n);
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      break;  // stderr closed, full or broken: drop these lines rather than block or fail
    }
  }
  buffer_.clear();
}

void BufferedFdSink::run_flusher(std::stop_token stop) {
  for (;;) {
    {
      std::unique_lock wake_lock(wake_mu_);
      if (!wake_.wait(wake_lock, stop, [&] { return pending_; })) return;
      // The first buffered line waits flush_after_; lines after it ride along.
      wake_.wait_for(wake_lock, stop, flush_after_, [] { return false; });
      pending_ = false;
    }
    flush();
    if (stop.stop_requested()) return;
  }
}

}  // namespace vc::log

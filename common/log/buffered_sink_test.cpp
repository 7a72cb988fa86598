#include "common/log/buffered_sink.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <string>

#include <gtest/gtest.h>
#include <spdlog/logger.h>

namespace vc::log {
namespace {

using namespace std::chrono_literals;

// A pipe whose read end never blocks: what the sink wrote so far is what read_all() returns.
struct Pipe {
  Pipe() { EXPECT_EQ(::pipe2(fds, O_NONBLOCK | O_CLOEXEC), 0); }
  ~Pipe() {
    for (int fd : fds) {
      if (fd >= 0) ::close(fd);
    }
  }
  std::string read_all() {
    std::string out;
    char buf[4096];
    for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) out.append(buf, n);
    return out;
  }
  // Reads until `want` has arrived or the deadline passes; returns what arrived.
  std::string read_until(const std::string& want, std::chrono::milliseconds deadline) {
    std::string out;
    const auto end = std::chrono::steady_clock::now() + deadline;
    while (out.find(want) == std::string::npos && std::chrono::steady_clock::now() < end) {
      pollfd p{fds[0], POLLIN, 0};
      ::poll(&p, 1, 10);
      out += read_all();
    }
    return out;
  }
  int fds[2] = {-1, -1};
};

std::shared_ptr<spdlog::logger> logger_on(std::shared_ptr<BufferedFdSink> sink) {
  sink->set_pattern("%l %v");
  auto logger = std::make_shared<spdlog::logger>("t", std::move(sink));
  logger->set_level(spdlog::level::trace);
  return logger;
}

TEST(BufferedFdSink, InfoAndAboveAreWrittenBeforeTheCallReturns) {
  Pipe pipe;
  auto logger = logger_on(std::make_shared<BufferedFdSink>(pipe.fds[1], 1h));
  logger->info("one");
  EXPECT_EQ(pipe.read_all(), "info one\n");
  logger->warn("two");
  logger->error("three");
  EXPECT_EQ(pipe.read_all(), "warning two\nerror three\n");
}

TEST(BufferedFdSink, DebugLinesWaitForFlushAndKeepTheirOrder) {
  Pipe pipe;
  auto sink = std::make_shared<BufferedFdSink>(pipe.fds[1], 1h);
  auto logger = logger_on(sink);
  logger->debug("a");
  logger->trace("b");
  EXPECT_EQ(pipe.read_all(), "");  // held: the flusher waits an hour
  logger->flush();
  EXPECT_EQ(pipe.read_all(), "debug a\ntrace b\n");
  logger->debug("c");
  logger->info("d");  // takes the buffered line with it, before itself
  EXPECT_EQ(pipe.read_all(), "debug c\ninfo d\n");
}

TEST(BufferedFdSink, TheFlusherWritesADebugLineAfterTheWait) {
  Pipe pipe;
  auto logger = logger_on(std::make_shared<BufferedFdSink>(pipe.fds[1], 20ms));
  logger->debug("late");
  const std::string got = pipe.read_until("debug late\n", 5s);
  EXPECT_EQ(got, "debug late\n");
  logger->debug("again");  // the flusher goes back to sleep and wakes for the next line
  EXPECT_EQ(pipe.read_until("debug again\n", 5s), "debug again\n");
}

TEST(BufferedFdSink, AFullBufferIsWrittenWithoutWaiting) {
  Pipe pipe;
  auto logger = logger_on(std::make_shared<BufferedFdSink>(pipe.fds[1], 1h, 64));
  const std::string line(30, 'x');
  logger->debug(line);  // 37 bytes with "debug " and the newline
  EXPECT_EQ(pipe.read_all(), "");
  logger->debug(line);  // 74 >= 64
  EXPECT_EQ(pipe.read_all(), "debug " + line + "\ndebug " + line + "\n");
}

TEST(BufferedFdSink, DestroyingTheSinkWritesWhatItHolds) {
  Pipe pipe;
  {
    auto logger = logger_on(std::make_shared<BufferedFdSink>(pipe.fds[1], 1h));
    logger->debug("kept");
  }
  EXPECT_EQ(pipe.read_all(), "debug kept\n");
}

TEST(BufferedFdSink, AWriteErrorDropsTheLinesAndLoggingGoesOn) {
  // The sink itself, not through a logger: spdlog's logger would swallow an exception.
  auto sink = std::make_shared<BufferedFdSink>(-1, 1h);  // EBADF on every write
  sink->set_pattern("%v");
  const auto line = [](spdlog::level::level_enum level, const char* text) {
    return spdlog::details::log_msg("t", level, text);
  };
  EXPECT_NO_THROW(sink->log(line(spdlog::level::debug, "lost")));
  EXPECT_NO_THROW(sink->log(line(spdlog::level::err, "lost too")));  // no crash, no hang either
  EXPECT_NO_THROW(sink->flush());
  EXPECT_NO_THROW(sink->log(line(spdlog::level::debug, "and on")));
}

}  // namespace
}  // namespace vc::log

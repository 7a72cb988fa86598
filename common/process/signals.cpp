#include "common/process/signals.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <stdexcept>

#include "common/log/log.h"

namespace vc::process {
namespace {

const char* signal_name(std::uint32_t sig) {
  return sig == SIGINT ? "SIGINT" : "SIGTERM";
}

}  // namespace

SignalHandler::SignalHandler() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  if (pthread_sigmask(SIG_BLOCK, &set, nullptr) != 0) {
    throw std::runtime_error("cannot block SIGINT/SIGTERM");
  }
  signal_fd_ = signalfd(-1, &set, SFD_CLOEXEC);
  wake_fd_ = eventfd(0, EFD_CLOEXEC);
  if (signal_fd_ < 0 || wake_fd_ < 0) throw std::runtime_error("cannot create signalfd/eventfd");
  thread_ = std::jthread([this] {
    int received = 0;
    while (true) {
      pollfd fds[2] = {{signal_fd_, POLLIN, 0}, {wake_fd_, POLLIN, 0}};
      if (poll(fds, 2, -1) < 0) continue;  // EINTR
      if (fds[1].revents != 0) return;     // the destructor
      signalfd_siginfo info{};
      if (read(signal_fd_, &info, sizeof info) != static_cast<ssize_t>(sizeof info)) continue;
      if (++received == 1) {
        VC_LOG_INFO("received signal, shutting down", kv("signal", signal_name(info.ssi_signo)));
        stop_.request_stop();
        continue;
      }
      VC_LOG_ERROR("received a second signal, exiting now",
                   kv("signal", signal_name(info.ssi_signo)));
      std::_Exit(1);
    }
  });
}

SignalHandler::~SignalHandler() {
  const std::uint64_t one = 1;
  if (write(wake_fd_, &one, sizeof one) < 0) {
    // Cannot happen for an eventfd below its maximum; the join below would then hang, so fail
    // loudly instead.
    std::abort();
  }
  thread_.join();
  close(signal_fd_);
  close(wake_fd_);
}

}  // namespace vc::process

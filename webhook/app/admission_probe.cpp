#include "webhook/app/admission_probe.h"

#include <netdb.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <openssl/err.h>
#include <openssl/ssl.h>

#include "common/kube/stoppable_sleep.h"
#include "common/log/log.h"

namespace vc::webhook::app {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// Readiness tolerates this much scheduling delay of the prober thread on top of a dial's worst
// case.
constexpr milliseconds kSlack{1000};

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

// Bounds the socket's next blocking calls by what is left until deadline; false when nothing is.
bool bound_by(int fd, Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::microseconds>(deadline - Clock::now());
  if (left.count() <= 0) return false;
  timeval tv{.tv_sec = static_cast<time_t>(left.count() / 1'000'000),
             .tv_usec = static_cast<suseconds_t>(left.count() % 1'000'000)};
  return ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) == 0 &&
         ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv) == 0;
}

std::string ssl_error(const char* step) {
  const unsigned long code = ERR_get_error();
  ERR_clear_error();
  std::string out = std::string(step) + " failed";
  if (code != 0) {
    char buf[256];
    ERR_error_string_n(code, buf, sizeof buf);
    out += std::string(": ") + buf;
  } else if (errno != 0) {
    out += std::string(": ") + std::strerror(errno);
  }
  return out;
}

std::shared_ptr<SSL_CTX> client_context() {
  static const std::shared_ptr<SSL_CTX> ctx = [] {
    std::shared_ptr<SSL_CTX> c(SSL_CTX_new(TLS_client_method()), SSL_CTX_free);
    if (c) SSL_CTX_set_verify(c.get(), SSL_VERIFY_NONE, nullptr);
    return c;
  }();
  return ctx;
}

}  // namespace

void ProbeHistory::started(Clock::time_point now) {
  running_ = true;
  started_ = now;
}

void ProbeHistory::record(bool ok, Clock::time_point now) {
  last_finished_ = now;
  last_ok_ = ok;
  if (ok) last_ok_at_ = now;
}

void ProbeHistory::stopped() {
  running_ = false;
}

bool ProbeHistory::ready(Clock::time_point now) const {
  if (!running_ || !last_finished_ || !last_ok_) return false;
  return now - *last_finished_ <= options_.interval + options_.timeout + kSlack;
}

bool ProbeHistory::live(Clock::time_point now) const {
  if (!running_ || !started_) return true;
  const Clock::time_point since = last_ok_at_ ? *last_ok_at_ : *started_;
  return now - since <= options_.stall_timeout;
}

std::string probe_host(const std::string& listen_address) {
  if (listen_address.empty() || listen_address == "0.0.0.0") return "127.0.0.1";
  if (listen_address == "::" || listen_address == "[::]") return "::1";
  return listen_address;
}

api::Status dial_admission(const std::string& host, std::uint16_t port, milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICSERV;
  addrinfo* found = nullptr;
  const std::string service = std::to_string(port);
  if (const int rc = ::getaddrinfo(host.c_str(), service.c_str(), &hints, &found); rc != 0) {
    return api::Unexpected{"resolve " + host + ": " + ::gai_strerror(rc)};
  }
  std::unique_ptr<addrinfo, decltype(&::freeaddrinfo)> addresses(found, ::freeaddrinfo);
  Fd fd(::socket(found->ai_family, found->ai_socktype | SOCK_CLOEXEC, found->ai_protocol));
  if (fd.get() < 0) return api::Unexpected{std::string("socket: ") + std::strerror(errno)};
  // A blocking connect honours SO_SNDTIMEO on Linux.
  if (!bound_by(fd.get(), deadline) ||
      ::connect(fd.get(), found->ai_addr, found->ai_addrlen) != 0) {
    return api::Unexpected{std::string("connect: ") +
                           (errno == EINPROGRESS ? "timed out" : std::strerror(errno))};
  }
  auto ctx = client_context();
  if (!ctx) return api::Unexpected{ssl_error("TLS context")};
  std::unique_ptr<SSL, decltype(&SSL_free)> ssl(SSL_new(ctx.get()), SSL_free);
  if (!ssl || SSL_set_fd(ssl.get(), fd.get()) != 1) return api::Unexpected{ssl_error("TLS setup")};
  errno = 0;
  if (!bound_by(fd.get(), deadline) || SSL_connect(ssl.get()) != 1) {
    return api::Unexpected{ssl_error("TLS handshake")};
  }
  const std::string request = "GET /healthz HTTP/1.1\r\nHost: " + host +
                              "\r\nUser-Agent: vc-webhook-self-probe\r\nConnection: close\r\n\r\n";
  errno = 0;
  if (!bound_by(fd.get(), deadline) ||
      SSL_write(ssl.get(), request.data(), static_cast<int>(request.size())) <= 0) {
    return api::Unexpected{ssl_error("request")};
  }
  std::string head;
  char buf[256];
  while (head.find("\r\n") == std::string::npos && head.size() < 4096) {
    errno = 0;
    if (!bound_by(fd.get(), deadline)) return api::Unexpected{std::string("answer: timed out")};
    const int n = SSL_read(ssl.get(), buf, sizeof buf);
    if (n <= 0) return api::Unexpected{ssl_error("answer")};
    head.append(buf, static_cast<size_t>(n));
  }
  const std::string status_line = head.substr(0, head.find("\r\n"));
  if (status_line.rfind("HTTP/1.1 200", 0) != 0) {
    return api::Unexpected{"answer: " + status_line};
  }
  return api::ok_status();
}

AdmissionProbe::AdmissionProbe(std::string host, std::uint16_t port, AdmissionProbeOptions options)
    : host_(std::move(host)), port_(port), options_(options), history_(options) {}

AdmissionProbe::~AdmissionProbe() {
  stop();
}

void AdmissionProbe::start() {
  if (thread_.joinable()) return;
  {
    std::lock_guard lock(mu_);
    history_.started(Clock::now());
  }
  // The first dial before returning, so that /readyz answers at once for a server that works.
  probe_once();
  thread_ = std::jthread([this](std::stop_token stop) {
    while (kube::sleep_unless_stopped(options_.interval, stop)) probe_once();
  });
}

void AdmissionProbe::probe_once() {
  auto dialed = dial_admission(host_, port_, options_.timeout);
  {
    std::lock_guard lock(mu_);
    history_.record(dialed.ok(), Clock::now());
  }
  const std::string error = dialed.ok() ? std::string() : dialed.error();
  if (error == last_error_) return;
  if (error.empty()) {
    VC_LOG_INFO("admission self-probe succeeds again", kv("port", port_));
  } else {
    VC_LOG_WARN("admission self-probe failed", kv("host", host_), kv("port", port_),
                kv("err", error));
  }
  last_error_ = error;
}

void AdmissionProbe::stop() {
  {
    std::lock_guard lock(mu_);
    history_.stopped();
  }
  if (!thread_.joinable()) return;
  thread_.request_stop();
  thread_.join();
}

bool AdmissionProbe::ready() const {
  std::lock_guard lock(mu_);
  return history_.ready(Clock::now());
}

bool AdmissionProbe::live() const {
  std::lock_guard lock(mu_);
  return history_.live(Clock::now());
}

}  // namespace vc::webhook::app

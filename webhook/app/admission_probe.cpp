#include "webhook/app/admission_probe.h"

#include "common/kube/config.h"
#include "common/kube/stoppable_sleep.h"
#include "common/kube/transport.h"
#include "common/log/log.h"

namespace vc::webhook::app {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// Readiness tolerates this much scheduling delay of the prober thread on top of a dial's worst
// case.
constexpr milliseconds kSlack{1000};

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
  kube::Config config;
  const bool ipv6 = host.find(':') != std::string::npos && host.front() != '[';
  config.server = "https://" + (ipv6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
  config.insecure_skip_tls_verify = true;  // the probe checks the serving path, not the pair
  try {
    // No idle pool: every dial goes through accept and a TLS handshake, as the API server's new
    // connections do.
    kube::Transport transport(config, kube::TransportOptions{.user_agent = "vc-webhook-self-probe",
                                                             .max_idle_connections = 0});
    kube::HttpRequest request;
    request.method = "GET";
    request.target = "/healthz";
    request.deadline = Clock::now() + timeout;
    auto answer = transport.send(request);
    if (!answer) return api::Unexpected{answer.error().describe()};
    if (answer->status != 200) {
      return api::Unexpected{"answer: " + std::to_string(answer->status) + " " + answer->reason};
    }
    return api::ok_status();
  } catch (const std::exception& e) {
    return api::Unexpected{std::string("probe setup: ") + e.what()};
  }
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

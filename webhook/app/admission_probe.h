#pragma once
// AdmissionProbe: the webhook's readiness and liveness, answered through the admission server's
// own path rather than from flags set at start-up. A thread dials the admission port every
// interval, makes a TLS handshake and sends GET /healthz (admission_server.h answers it on the
// I/O threads), all within timeout:
//   /readyz  fails as soon as the last dial failed, or none has finished for interval + timeout
//            (plus a second of slack): the Service stops sending reviews to a replica that cannot
//            answer them;
//   /healthz fails when no dial has succeeded for stall_timeout since the server started: the
//            I/O threads are wedged, and the kubelet restarts the container.
// Before start() (caBundle registration, cache sync) and after stop() (graceful shutdown) the
// probe says nothing against liveness; readiness is false.
//
// ProbeHistory is the judgement, on plain data and an explicit clock, so that it is tested
// without threads.
//
// Thread-safety: ready() and live() from any thread; start() and stop() from the owning thread.

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "common/api/expected.h"

namespace vc::webhook::app {

struct AdmissionProbeOptions {
  std::chrono::milliseconds interval{1000};        // --self-probe-interval
  std::chrono::milliseconds timeout{1000};         // --self-probe-timeout
  std::chrono::milliseconds stall_timeout{20000};  // --admission-stall-timeout
};

class ProbeHistory {
 public:
  using Clock = std::chrono::steady_clock;

  explicit ProbeHistory(AdmissionProbeOptions options) : options_(options) {}

  // The admission server listens: dials count from now.
  void started(Clock::time_point now);
  // A dial finished at now.
  void record(bool ok, Clock::time_point now);
  // Shutting down: liveness is no longer judged, readiness is false.
  void stopped();

  bool ready(Clock::time_point now) const;
  bool live(Clock::time_point now) const;

 private:
  AdmissionProbeOptions options_;
  bool running_ = false;
  std::optional<Clock::time_point> started_;
  std::optional<Clock::time_point> last_finished_;
  bool last_ok_ = false;
  std::optional<Clock::time_point> last_ok_at_;
};

// One dial: TCP connect to host:port, TLS handshake (the certificate is not verified: this checks
// the path, not the trust), "GET /healthz", and a "200" status line, all within timeout.
// The error names the step that failed. It goes through kube::Transport with no idle pool, so
// each dial is a new connection.
api::Status dial_admission(const std::string& host, std::uint16_t port,
                           std::chrono::milliseconds timeout);

// The host to dial for a --listen-address: the loopback of the family when it binds every
// interface ("", "0.0.0.0", "::"), else the address itself.
std::string probe_host(const std::string& listen_address);

class AdmissionProbe {
 public:
  AdmissionProbe(std::string host, std::uint16_t port, AdmissionProbeOptions options);
  ~AdmissionProbe();  // stop()
  AdmissionProbe(const AdmissionProbe&) = delete;
  AdmissionProbe& operator=(const AdmissionProbe&) = delete;

  void start();
  void stop();

  bool ready() const;
  bool live() const;

 private:
  void probe_once();  // the owning thread before start() returns, then the prober thread

  const std::string host_;
  const std::uint16_t port_;
  const AdmissionProbeOptions options_;
  mutable std::mutex mu_;  // guards history_
  ProbeHistory history_;
  std::string last_error_;  // logged once per distinct error; prober thread only
  std::jthread thread_;
};

}  // namespace vc::webhook::app

#pragma once
// The webhook server's Prometheus series, registered in vc::metrics::registry():
//   vc_webhook_admission_requests_total{path,result}     counter; result allowed|denied|error
//   vc_webhook_admission_duration_seconds{path,result}   histogram of the time to answer
//   vc_webhook_open_connections                          gauge
//   vc_webhook_connections_rejected_total                counter; closed at the connection limit
//   vc_webhook_idle_connections_closed_total             counter; idle ones closed to make room
//   vc_webhook_refused_total{reason}                     counter; see refusals.h
//   vc_webhook_tls_handshake_errors_total                counter
//   vc_webhook_protocol_errors_total{reason}             counter; header_too_large, malformed,
//                                                        header_timeout, body_timeout
//   vc_webhook_certificate_reloads_total{result}         counter; result success|failure
// "error" counts every review that got no AdmissionReview back (400, 413, 415, 500).
//
// Thread-safety: every function and method may be called from any thread.

#include <array>
#include <string>
#include <string_view>

namespace prometheus {
class Counter;
class Histogram;
}  // namespace prometheus

namespace vc::webhook::server {

enum class Outcome { Allowed = 0, Denied = 1, Error = 2 };
const char* to_string(Outcome outcome);

// The request series of one admission path, resolved once so that a request costs two atomic
// updates and no label lookup.
class PathMetrics {
 public:
  explicit PathMetrics(const std::string& path);
  void observe(Outcome outcome, double seconds) const;

 private:
  std::array<prometheus::Counter*, 3> requests_{};
  std::array<prometheus::Histogram*, 3> durations_{};
};

void connection_opened();
void connection_closed();
void count_rejected_connection();
void count_idle_connection_closed();
void count_tls_handshake_error();
void count_protocol_error(std::string_view reason);
void count_certificate_reload(bool success);

}  // namespace vc::webhook::server

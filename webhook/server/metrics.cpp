#include "webhook/server/metrics.h"

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>

#include "common/metrics/registry.h"

namespace vc::webhook::server {
namespace {

prometheus::Family<prometheus::Counter>& requests_family() {
  static auto& family = prometheus::BuildCounter()
                            .Name("vc_webhook_admission_requests_total")
                            .Help("Admission reviews served, by path and result.")
                            .Register(vc::metrics::registry());
  return family;
}

prometheus::Family<prometheus::Histogram>& duration_family() {
  static auto& family = prometheus::BuildHistogram()
                            .Name("vc_webhook_admission_duration_seconds")
                            .Help(
                                "Time from a complete request to its response, by path and "
                                "result.")
                            .Register(vc::metrics::registry());
  return family;
}

prometheus::Counter& plain_counter(const char* name, const char* help) {
  return prometheus::BuildCounter().Name(name).Help(help).Register(vc::metrics::registry()).Add({});
}

prometheus::Gauge& open_connections() {
  static auto& gauge = prometheus::BuildGauge()
                           .Name("vc_webhook_open_connections")
                           .Help("Connections the webhook server holds open.")
                           .Register(vc::metrics::registry())
                           .Add({});
  return gauge;
}

}  // namespace

const char* to_string(Outcome outcome) {
  switch (outcome) {
    case Outcome::Allowed:
      return "allowed";
    case Outcome::Denied:
      return "denied";
    case Outcome::Error:
      return "error";
  }
  return "error";
}

PathMetrics::PathMetrics(const std::string& path) {
  // Admission is usually a millisecond; the API server gives up after timeoutSeconds (10 s).
  static const prometheus::Histogram::BucketBoundaries kBuckets{
      0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};
  for (auto outcome : {Outcome::Allowed, Outcome::Denied, Outcome::Error}) {
    const auto i = static_cast<std::size_t>(outcome);
    const prometheus::Labels labels{{"path", path}, {"result", to_string(outcome)}};
    requests_[i] = &requests_family().Add(labels);
    durations_[i] = &duration_family().Add(labels, kBuckets);
  }
}

void PathMetrics::observe(Outcome outcome, double seconds) const {
  const auto i = static_cast<std::size_t>(outcome);
  requests_[i]->Increment();
  durations_[i]->Observe(seconds);
}

void connection_opened() {
  open_connections().Increment();
}
void connection_closed() {
  open_connections().Decrement();
}

void count_rejected_connection() {
  static auto& counter = plain_counter("vc_webhook_connections_rejected_total",
                                       "Connections closed right after accept because the "
                                       "server already held its maximum.");
  counter.Increment();
}

void count_idle_connection_closed() {
  static auto& counter = plain_counter("vc_webhook_idle_connections_closed_total",
                                       "Idle connections closed to make room for a new one at "
                                       "the connection limit or a peer's cap.");
  counter.Increment();
}

void count_tls_handshake_error() {
  static auto& counter =
      plain_counter("vc_webhook_tls_handshake_errors_total", "Failed TLS handshakes.");
  counter.Increment();
}

void count_protocol_error(std::string_view reason) {
  static auto& family = prometheus::BuildCounter()
                            .Name("vc_webhook_protocol_errors_total")
                            .Help("HTTP requests refused before routing, by reason.")
                            .Register(vc::metrics::registry());
  family.Add({{"reason", std::string(reason)}}).Increment();
}

void count_certificate_reload(bool success) {
  static auto& family = prometheus::BuildCounter()
                            .Name("vc_webhook_certificate_reloads_total")
                            .Help("Attempts to load a changed serving certificate, by result.")
                            .Register(vc::metrics::registry());
  family.Add({{"result", success ? "success" : "failure"}}).Increment();
}

}  // namespace vc::webhook::server

#include "common/kube/request_metrics.h"

#include <string>

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/histogram.h>

#include "common/metrics/registry.h"

namespace vc::kube {
namespace {

prometheus::Family<prometheus::Counter>& requests_family() {
  static auto& family = prometheus::BuildCounter()
                            .Name("rest_client_requests_total")
                            .Help(
                                "Number of HTTP requests, partitioned by status code, method, "
                                "and host.")
                            .Register(vc::metrics::registry());
  return family;
}

prometheus::Family<prometheus::Histogram>& duration_family() {
  static auto& family = prometheus::BuildHistogram()
                            .Name("rest_client_request_duration_seconds")
                            .Help("Request latency in seconds. Broken down by verb.")
                            .Register(vc::metrics::registry());
  return family;
}

prometheus::Family<prometheus::Counter>& protobuf_family() {
  static auto& family = prometheus::BuildCounter()
                            .Name("vc_cpp_kube_client_protobuf_objects_total")
                            .Help(
                                "Objects the client sent or received in Kubernetes' protobuf "
                                "encoding, by direction (sent, received).")
                            .Register(vc::metrics::registry());
  return family;
}

}  // namespace

void record_protobuf_objects(bool sent, double count) {
  static auto& sent_counter = protobuf_family().Add({{"direction", "sent"}});
  static auto& received_counter = protobuf_family().Add({{"direction", "received"}});
  (sent ? sent_counter : received_counter).Increment(count);
}

void record_protobuf_fallback() {
  static auto& counter = prometheus::BuildCounter()
                             .Name("vc_cpp_kube_client_protobuf_fallbacks_total")
                             .Help(
                                 "Objects of a type the API server takes in protobuf that the "
                                 "client sent as JSON, because its schema cannot write them "
                                 "exactly.")
                             .Register(vc::metrics::registry())
                             .Add({});
  counter.Increment();
}

void record_request(std::string_view method, std::string_view host, int status) {
  const std::string code = status > 0 ? std::to_string(status) : "<error>";
  requests_family()
      .Add({{"code", code}, {"method", std::string(method)}, {"host", std::string(host)}})
      .Increment();
}

void observe_request_duration(std::string_view method, double seconds) {
  static const prometheus::Histogram::BucketBoundaries kBuckets{
      0.005, 0.025, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 15.0, 30.0, 60.0};
  duration_family().Add({{"verb", std::string(method)}}, kBuckets).Observe(seconds);
}

}  // namespace vc::kube

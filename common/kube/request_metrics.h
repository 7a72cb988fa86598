#pragma once
// The client's Prometheus metrics, named as client-go's so dashboards carry over:
//   rest_client_requests_total{code,method,host}  counter; code "<error>" when no status was read
//   rest_client_request_duration_seconds{verb}    histogram of request latency
//
// Thread-safety: every function may be called from any thread.

#include <string_view>

namespace vc::kube {

void record_request(std::string_view method, std::string_view host, int status);
void observe_request_duration(std::string_view method, double seconds);

}  // namespace vc::kube

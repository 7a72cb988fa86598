#pragma once
// The client's Prometheus metrics, named as client-go's so dashboards carry over:
//   rest_client_requests_total{code,method,host}  counter; code "<error>" when no status was read
//   rest_client_request_duration_seconds{verb}    histogram of request latency
// and ours, for --kube-api-content-type=application/vnd.kubernetes.protobuf:
//   vc_cpp_kube_client_protobuf_objects_total{direction}  objects sent or received in protobuf
//                                                         ("sent", "received"; a watch event
//                                                         or list item counts one)
//   vc_cpp_kube_client_protobuf_fallbacks_total           objects of a protobuf type sent as JSON
//                                                         because our schema cannot write them
//                                                         exactly (a field newer than it)
//
// Thread-safety: every function may be called from any thread.

#include <string_view>

namespace vc::kube {

void record_request(std::string_view method, std::string_view host, int status);
void observe_request_duration(std::string_view method, double seconds);
void record_protobuf_objects(bool sent, double count = 1);
void record_protobuf_fallback();

}  // namespace vc::kube

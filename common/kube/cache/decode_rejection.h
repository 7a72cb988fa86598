#pragma once
// DecodeRejection: an object the API server sent that the informer's transform could not decode
// (a field of the wrong type, a value our decoder does not accept, CRD version skew). The
// object exists in the cluster; we only cannot read it. The informer keeps it known as
// undecodable (see Informer) and reports each rejected object version once:
//
//   vc_cpp_decode_rejections_total{resource}  counter: object versions our decoder rejected,
//                                             by resource ("jobs.batch.volcano.sh"); a relist
//                                             seeing the same version again does not count
//
// plus a warning log line and the informer's optional DecodeRejectionSink, which the
// controller-manager turns into a Warning event "DecodeFailed" on the object.
//
// Thread-safety: record_decode_rejection may be called from any thread.

#include <functional>
#include <string>
#include <string_view>

namespace vc::kube::cache {

struct DecodeRejection {
  std::string resource;  // Resource::qualified(), the metric label
  std::string kind;      // "Job"
  std::string api_version;
  std::string namespace_;  // "" for cluster-scoped objects
  std::string name;
  std::string uid;
  std::string resource_version;
  // Why the transform rejected it, as the decoder said: naming the field when the decoder
  // does ("status.runningDuration: time: invalid duration \"soon\"").
  std::string error;
  // The version the informer still serves (its last decoded one); "" when it never decoded one.
  // Set by the informer when it reports the rejection.
  std::string cached_resource_version;

  std::string key() const;
};

// Told about each rejected object version once, on the informer's reflector thread: must be
// quick and must not call back into the informer. An exception it throws is logged and ignored.
using DecodeRejectionSink = std::function<void(const DecodeRejection&)>;

// Counts one rejected object version of resource in vc_cpp_decode_rejections_total.
void record_decode_rejection(std::string_view resource);

}  // namespace vc::kube::cache

#include "common/kube/cache/decode_rejection.h"

#include <prometheus/counter.h>
#include <prometheus/family.h>

#include "common/kube/cache/object.h"
#include "common/metrics/registry.h"

namespace vc::kube::cache {

std::string DecodeRejection::key() const {
  return object_key(namespace_, name);
}

void record_decode_rejection(std::string_view resource) {
  static auto& family = prometheus::BuildCounter()
                            .Name("vc_cpp_decode_rejections_total")
                            .Help(
                                "Object versions from the API server that the informer's "
                                "decoder rejected (the object is kept as undecodable, not "
                                "reported deleted), by resource.")
                            .Register(vc::metrics::registry());
  family.Add({{"resource", std::string(resource)}}).Increment();
}

}  // namespace vc::kube::cache

#include "controllers/framework/decode_events.h"

namespace vc::controllers {

std::string decode_failed_message(const kube::cache::DecodeRejection& rejection) {
  std::string message = "vc-controller-manager cannot decode this " + rejection.kind +
                        " at resourceVersion " + rejection.resource_version + ": " +
                        rejection.error + "; ";
  if (rejection.cached_resource_version.empty()) {
    message += "the controllers ignore it until a version decodes (it is not treated as deleted)";
  } else {
    message += "the controllers keep acting on the last version they decoded (" +
               rejection.cached_resource_version + ")";
  }
  return message;
}

kube::cache::DecodeRejectionSink decode_rejection_events(kube::events::EventRecorder& recorder) {
  return [&recorder](const kube::cache::DecodeRejection& r) {
    kube::events::ObjectReference object;
    object.kind = r.kind;
    object.api_version = r.api_version;
    object.namespace_ = r.namespace_;
    object.name = r.name;
    object.uid = r.uid;
    object.resource_version = r.resource_version;
    recorder.event(object, kube::events::EventType::Warning, kDecodeFailedReason,
                   decode_failed_message(r));
  };
}

}  // namespace vc::controllers

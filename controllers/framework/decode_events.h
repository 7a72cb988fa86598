#pragma once
// Warning events for objects the informers cannot decode: the controller-manager gives
// decode_rejection_events(recorder) to its SharedInformerFactory, so that `kubectl describe` on
// such an object says why the controllers keep acting on an older version of it:
//
//   Warning  DecodeFailed  vc-controller-manager cannot decode this Job at resourceVersion 812:
//            status.runningDuration: ...; it keeps acting on the last version it decoded (701)
//
// The informer reports each rejected object version once (see common/kube/cache/informer.h), so
// a relist does not repeat the event; the recorder aggregates what repeats across terms.
//
// Thread-safety: the sink may be called from any thread (the recorder only queues).

#include <string>

#include "common/kube/cache/decode_rejection.h"
#include "common/kube/events/recorder.h"

namespace vc::controllers {

inline constexpr const char* kDecodeFailedReason = "DecodeFailed";

// The event's message for rejection: the decoder's error (which names the field) and the version
// the controllers keep acting on.
std::string decode_failed_message(const kube::cache::DecodeRejection& rejection);

// A sink recording a Warning DecodeFailed event on each rejected object, at the rejected
// resourceVersion. The recorder must outlive every informer given the sink.
kube::cache::DecodeRejectionSink decode_rejection_events(kube::events::EventRecorder& recorder);

}  // namespace vc::controllers

#pragma once
// metav1.ObjectMeta as the admission type tables describe it: the fields the endpoints check and
// compare, in an open struct (the rest is kept as opaque JSON). Every table embeds it.
//
// Threads: as GoTypes (built once, immutable afterwards).

#include "common/go/json_types/json_types.h"

namespace vc::go {

// with_timestamps adds creationTimestamp and the pointer deletionTimestamp (metav1.Time), which
// the jobs endpoints check and compare; the others leave them unchecked.
const GoType* object_meta(GoTypes& types, bool with_timestamps);

}  // namespace vc::go

#pragma once
// The shared Queue informer's cached form: each Queue decoded once into the typed model
// (common/volcano/queue.h), read by the queue controller (hierarchy, state) and the job
// controller (extendClusters for job forwarding).
//
// Threads: the transform is thread-safe; cached Queues are immutable.

#include "common/kube/cache/object.h"
#include "common/volcano/queue.h"

namespace vc::controllers::views {

// Named "queue-view"; throws volcano::DecodeError naming the field on a malformed Queue (the
// reflector logs and skips it).
kube::cache::Transform queue_view_transform();

// The cached object as a Queue; null if it is of another type.
volcano::QueuePtr as_queue(const kube::cache::ObjectPtr& object);
const volcano::Queue* as_queue(const kube::cache::Object& object);

}  // namespace vc::controllers::views

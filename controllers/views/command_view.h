#pragma once
// The shared Command informer's cached form: each bus.volcano.sh Command decoded once into the
// typed model (common/volcano/command.h), read by the job and queue controllers' command
// handlers and workers.
//
// Threads: the transform is thread-safe; cached Commands are immutable.

#include "common/kube/cache/object.h"
#include "common/volcano/command.h"

namespace vc::controllers::views {

// Named "command-view"; throws volcano::DecodeError naming the field on a malformed Command (the
// reflector logs and skips it, as Go's typed client would never deliver it).
kube::cache::Transform command_view_transform();

// The cached object as a Command; null if it is of another type.
std::shared_ptr<const volcano::Command> as_command(const kube::cache::ObjectPtr& object);

}  // namespace vc::controllers::views

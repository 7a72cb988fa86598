#pragma once
// The cached forms of the hyperNode-controller's shared informers: HyperNodes decoded into the
// typed model (common/volcano/hyper_node.h), and nodes reduced to their name and labels, which is
// all that counting and label discovery read (a node's status is most of its size).
//
// Threads: the transforms are thread-safe; cached objects are immutable.

#include <memory>

#include "common/kube/cache/object.h"
#include "common/volcano/hyper_node.h"

namespace vc::controllers::hypernode {

// Named "hypernode-view"; throws volcano::DecodeError naming the field on a malformed HyperNode
// (the reflector logs and skips it).
kube::cache::Transform hyper_node_view_transform();

// The cached object as a HyperNode; null if it is of another type.
std::shared_ptr<const volcano::HyperNode> as_hyper_node(const kube::cache::ObjectPtr& object);

// Named "node-meta": a kube::cache::Object with the node's name, uid, resourceVersion and labels.
kube::cache::Transform node_meta_transform();

}  // namespace vc::controllers::hypernode

#pragma once
// Snapshot: everything `vc-cpp explain` reads about one Volcano Job (or one PodGroup), as the API
// server returned it. read_snapshot.h fills it from a cluster, listing each kind once; tests
// build it from plain JSON. diagnose.h turns it into the chain of links and the verdict.
//
// Objects stay raw JSON: the command must work on any Volcano cluster, including fields and
// objects our controllers never write, and a missing or odd field must read as "not set", never
// stop the diagnosis.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/api/time.h"

namespace vc::controllers::explain {

struct Snapshot {
  std::string namespace_;  // of the Job or PodGroup asked about
  std::string name;
  nlohmann::json job;       // the Volcano Job; null when a PodGroup was asked about
  nlohmann::json podgroup;  // the Job's PodGroup (owned by it), or the one asked about; or null
  std::vector<nlohmann::json> queues;            // every Queue (for the ancestors)
  std::vector<nlohmann::json> pods;              // the Job's (or PodGroup's) pods
  std::vector<nlohmann::json> nodes;             // every Node
  std::vector<nlohmann::json> node_pods;         // pods bound to a node, for the free room
  std::vector<nlohmann::json> events;            // events on the Job, the PodGroup, its pods
  std::vector<nlohmann::json> priority_classes;  // every PriorityClass
  api::TimePoint now;  // when it was read: how long an object has been waiting
};

}  // namespace vc::controllers::explain

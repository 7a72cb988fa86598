#pragma once
// Volcano's API types as Go's encoding/json sees them (volcano.sh/apis v1.15: batch and flow
// v1alpha1, scheduling v1beta1, topology v1alpha1, with the Kubernetes types they embed),
// described for go::check_go_types and for the webhook's semantic comparison of job updates.
// The admission endpoints check every object against these before decoding it into the model
// (job.h, queue.h, ...), so a wrong JSON type is denied with Go's own message.
//
// Volcano's structs are closed: they list every field, and go_types_test.cpp checks each one
// against the pinned CRDs (a field the CRD declares and the table lacks, or the other way round,
// fails). Kubernetes structs (PodSpec, Container, ...) are open: they list the fields the
// endpoints check or compare, and each of those must exist in the CRD too.
//
// Threads: each table is built once on first use (thread-safe static initialisation) and is
// immutable afterwards.

#include "common/go/json_types/json_types.h"

namespace vc::volcano::go_types {

// batch.volcano.sh and flow.volcano.sh (go_types_batch.cpp)
const go::GoType& job();       // v1alpha1.Job
const go::GoType& job_spec();  // v1alpha1.JobSpec
const go::GoType& cron_job();  // v1alpha1.CronJob
const go::GoType& job_flow();  // v1alpha1.JobFlow

// scheduling.volcano.sh and topology.volcano.sh (go_types_scheduling.cpp)
const go::GoType& queue();       // v1beta1.Queue
const go::GoType& podgroup();    // v1beta1.PodGroup
const go::GoType& hyper_node();  // v1alpha1.HyperNode

}  // namespace vc::volcano::go_types

#pragma once
// Decoding a batch.volcano.sh/v1alpha1 Job, as the API server returns it, into the typed Job of
// job.h, and the "job-view" informer transform that caches Jobs in that form.
//
// Decoding follows Go's typed client: a missing field or JSON null is the default; a field of
// the wrong JSON type, an integer outside int32, a bad timestamp or a bad duration is an error
// naming the field path ("spec.tasks[1].policies[0].timeout: time: invalid duration \"5x\"").
// Unknown fields are ignored. Task templates are kept as compact JSON text.
//
// Threads: pure functions, callable from any thread (the transform is shared by informers).

#include <memory>

#include <nlohmann/json.hpp>

#include "common/kube/cache/object.h"
#include "controllers/job/model/job.h"

namespace vc::controllers::job {

// Throws std::invalid_argument naming the field on malformed input (the informer skips it).
std::shared_ptr<Job> job_from_json(const nlohmann::json& job);

// The transform for SharedInformerFactory, named "job-view": caches each Job as a Job.
kube::cache::Transform job_view_transform();

// The cached object as a Job; null if it is of another type (an informer set up without
// job_view_transform()).
JobPtr as_job(const kube::cache::ObjectPtr& object);

}  // namespace vc::controllers::job

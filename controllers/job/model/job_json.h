#pragma once
// The job controller's cached form of a Job: the shared typed model (common/volcano/job.h),
// decoded by common/volcano/job_decode.h with interned templates, installed by the "job-view"
// informer transform.
//
// Threads: pure functions, callable from any thread (the transform is shared by informers).

#include <memory>

#include <nlohmann/json.hpp>

#include "common/kube/cache/object.h"
#include "controllers/job/model/job.h"

namespace vc::controllers::job {

// Throws volcano::DecodeError (a std::invalid_argument) naming the field on malformed input
// (the informer skips it).
std::shared_ptr<Job> job_from_json(const nlohmann::json& job);

// What a status write (PUT .../status carrying sent's resourceVersion) needs read of the job the
// server returns: metadata.resourceVersion and status. The rest is the sent job's: the write
// succeeds only if the job had not changed since that version, and a status write changes
// nothing else (so its reply need not be parsed whole, template texts and all).
const fastjson::MemberFilter& status_write_reads();
// The job after that write: sent with the reply's resourceVersion and status. Throws
// std::invalid_argument naming the field on a malformed reply (or one without a version).
std::shared_ptr<Job> job_after_status_write(const Job& sent, const nlohmann::json& reply);

// The transform for SharedInformerFactory, named "job-view": caches each Job as a Job.
kube::cache::Transform job_view_transform();

// The cached object as a Job; null if it is of another type (an informer set up without
// job_view_transform()).
JobPtr as_job(const kube::cache::ObjectPtr& object);

}  // namespace vc::controllers::job

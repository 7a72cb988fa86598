#pragma once
// The Volcano Job (batch.volcano.sh/v1alpha1) as the jobs webhooks read it: the shared typed
// model, each task's pod template kept as JSON. Built by decode_job, which first checks the JSON
// against the Go types (schema.h, checked by common/go/json_types) so that a wrong type is
// reported the way Volcano reports it instead of being misread.
//
// Also object decoding with Volcano's messages, shared by every admit function in this folder
// (the resource check is expect_resource, webhook/admission/request_checks.h).
//
// Threads: plain values and pure functions.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/api/expected.h"
#include "common/go/json_types/json_types.h"
#include "common/volcano/job.h"
#include "webhook/admission/review.h"

namespace vc::webhook::jobs {

// The Job as the shared model types it (common/volcano/job.h). The webhook decodes it with
// borrowed templates: each task's pod template points into the request object, which must
// outlive the Job (templates are most of a job's bytes, so they are not copied).
using volcano::Job;
using volcano::JobSpec;
using volcano::LifecyclePolicy;
using volcano::NetworkTopology;
using volcano::PartitionPolicy;
using volcano::TaskSpec;
using volcano::VolumeSpec;

// Decodes object JSON as Volcano does: null or absent is an all-zero object; a type mismatch
// or an object nested deeper than Go accepts is an error with Go's message. The result points
// at `object` itself (or at a static empty object), never a copy: a job review is parsed once
// and must not be duplicated per check. It lives as long as `object`. nesting_bounded: the
// caller's decoder has refused deeper documents already (AdmissionRequest::nesting_bounded), so
// the depth is not measured again.
api::Expected<const json*> checked_object(const json& object, const go::GoType& type,
                                          bool nesting_bounded = false);

// check + typed Job. A value the Go types accept but the model refuses (none is known) is an
// error naming the field.
api::Expected<Job> decode_job(const json& object, bool nesting_bounded = false);
// The Job's templates point into `object`: a temporary would leave them dangling.
api::Expected<Job> decode_job(json&& object, bool nesting_bounded = false) = delete;

// Reading helpers for JSON already checked against the Go types: a missing field, null or a
// value of another type reads as the zero value.
std::string str_at(const json& obj, const char* key);
std::int64_t int_at(const json& obj, const char* key);
bool bool_at(const json& obj, const char* key);
const json& child_at(const json& obj, const char* key);  // null when missing
std::vector<std::string> strings_at(const json& obj, const char* key);

}  // namespace vc::webhook::jobs

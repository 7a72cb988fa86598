#pragma once
// validateJobUpdate (spec webhook.md §3.1): checks on the new object, then the immutability rule
// (only minAvailable, priorityClassName, tasks[*].replicas, tasks[*].minAvailable and
// volumeClaimName where a volumeClaim template is present may change).
//
// Threads: pure function.

#include <string>

#include <nlohmann/json.hpp>

#include "webhook/admission/jobs/job_view.h"

namespace vc::webhook::jobs {

// The first problem, unchanged (not trimmed), or "" when the update is allowed. The JSON objects
// are the checked new and old jobs.
std::string validate_job_update(const Job& new_job, const Job& old_job,
                                const nlohmann::json& new_object, const nlohmann::json& old_object);

}  // namespace vc::webhook::jobs

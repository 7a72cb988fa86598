#pragma once
// Decoding of batch.volcano.sh/v1alpha1 JobSpec (see job_json.h for the rules). Internal to the
// model module; job_json.cpp calls it with the path "spec".
//
// Threads: pure functions, callable from any thread.

#include <string>

#include <nlohmann/json.hpp>

#include "controllers/job/model/job.h"

namespace vc::controllers::job {

JobSpec spec_from_json(const nlohmann::json& spec, const std::string& path);

}  // namespace vc::controllers::job

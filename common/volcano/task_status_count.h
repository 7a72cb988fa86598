#pragma once
// A Volcano Job's taskStatusCount (map[string]v1alpha1.TaskState): task name -> {"phase":
// {pod phase: count}}, as a Job's status carries it and a JobFlow copies it into its
// conditions. Read with the rules of json_read.h; written as Go's encoding/json writes it
// (`phase` is `omitempty`, so a task with no counts is {}).
//
// Threads: pure functions.

#include <map>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/volcano/job.h"
#include "common/volcano/json_read.h"

namespace vc::volcano {

using TaskStatusCount = std::map<std::string, TaskPhaseCounts>;

// The map member `name` of `object`; empty when absent or null.
TaskStatusCount task_status_count_at(const nlohmann::json& object, std::string_view name,
                                     const FieldPath& at);

nlohmann::json encode_task_status_count(const TaskStatusCount& counts);

}  // namespace vc::volcano

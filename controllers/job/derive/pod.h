#pragma once
// The pod the job controller creates for replica `index` of a task (spec job-controller.md §4.4),
// before plugins run their OnPodCreate hooks.
//
// Threads: pure functions except random_name12, which uses a per-thread generator; all are
// callable from any thread.

#include <cstdint>
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "controllers/job/model/job.h"

namespace vc::controllers::job {

// 12 characters from [0-9a-z].
using RandomName = std::function<std::string()>;

// A RandomName drawing from this thread's generator (common/random/random.h).
std::string random_name12();

// The pod for replica `index` of `task`: name, namespace, controller ownerReference, template
// labels/annotations and spec, schedulerName/priorityClassName fallbacks, the job's volumes (one
// per distinct claim name, named "<job>-<rand12>", mounted in every regular container), and the
// labels and annotations of spec job-controller.md §0.4. template_json is task.template_json()
// (the task's shared parsed template); rand12 names the volumes. The job-forwarding label and
// annotation are set when the job carries volcano.sh/job-forwarding: "true". Throws
// std::invalid_argument if the template's metadata, labels, annotations, spec or containers have
// the wrong JSON type.
nlohmann::json build_pod(const Job& job, const TaskSpec& task, std::int32_t index,
                         const nlohmann::json& template_json, const RandomName& rand12);

}  // namespace vc::controllers::job

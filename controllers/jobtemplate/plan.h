#pragma once
// One sync of a JobTemplate, decided from a snapshot (spec controller-manager.md §5.3): the
// Volcano Jobs made from the template (label volcano.sh/createdByJobTemplate=<ns>.<name>) become
// its status.jobDependsOnList. The executor (executor.h) writes it.
//
// Threads: pure functions over plain data.

#include <optional>
#include <string>
#include <vector>

#include "common/volcano/job.h"

namespace vc::controllers::jobtemplate {

// The label a JobFlow puts on the Jobs it makes from a template: "<namespace>.<template>".
inline constexpr const char* kCreatedByJobTemplate = "volcano.sh/createdByJobTemplate";

// The template key ("ns/name") a Job's label names, when it splits on '.' into exactly two
// non-empty parts (Volcano ignores any other value).
std::optional<std::string> template_key_of(const volcano::Job& job);

// The new status.jobDependsOnList: the names of the template's Jobs, sorted, or nullopt when
// nothing is to be written (no such Job, or the stored list is already that). Sorted because the
// cache hands Jobs out in no fixed order: Volcano writes them in its lister's (random) order on
// every sync; here an unchanged set compares equal and is not written again.
std::optional<std::vector<std::string>> plan_depends_on(
    const std::string& template_namespace, const std::string& template_name,
    const std::vector<std::string>& stored, const std::vector<const volcano::Job*>& namespace_jobs);

}  // namespace vc::controllers::jobtemplate

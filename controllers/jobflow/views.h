#pragma once
// The JobFlow controller's cached forms: the typed JobFlow (common/volcano/job_flow.h), and each
// JobTemplate with its spec as the API server stored it, which a flow's Job copies verbatim (a
// typed JobSpec would drop fields this version does not model).
//
// Threads: the transforms are thread-safe; cached objects are immutable.

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/kube/cache/object.h"
#include "common/volcano/job_flow.h"

namespace vc::controllers::jobflow {

// Named "jobflow-view"; throws volcano::DecodeError naming the field on a malformed JobFlow.
kube::cache::Transform job_flow_view_transform();
std::shared_ptr<const volcano::JobFlow> as_job_flow(const kube::cache::ObjectPtr& object);

// A JobTemplate as the JobFlow and JobTemplate controllers use it: its metadata, its spec kept
// as JSON, and status.jobDependsOnList.
struct JobTemplateView : kube::cache::Object {
  nlohmann::json spec;  // null when absent
  std::vector<std::string> job_depends_on_list;
};

// Named "jobtemplate-raw-view" (shared by both controllers' informers); throws
// std::invalid_argument naming the field on a malformed spec or status.
kube::cache::Transform job_template_view_transform();
std::shared_ptr<const JobTemplateView> as_job_template(const kube::cache::ObjectPtr& object);

}  // namespace vc::controllers::jobflow

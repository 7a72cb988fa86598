#pragma once
// The Volcano JobTemplate (flow.volcano.sh/v1alpha1), typed: a Volcano Job spec kept under a
// name for JobFlows to instantiate (spec controller-manager.md §5.1, §5.3). Decoded with the
// rules of json_read.h; the spec by decode_job_spec (templates interned, as for a cached Job).
//
// encode_job_template_status writes JobTemplateStatus as Go's encoding/json does:
// `jobDependsOnList` omitted when empty, so an empty status is {}.
//
// Threads: plain values and pure functions; a cached JobTemplate is immutable.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/volcano/job.h"
#include "common/volcano/json_read.h"
#include "common/volcano/object_meta.h"

namespace vc::volcano {

inline constexpr const char* kJobTemplateApiVersion = "flow.volcano.sh/v1alpha1";
inline constexpr const char* kJobTemplateKind = "JobTemplate";

struct JobTemplateStatus {
  // The names of the Jobs made from this template.
  std::vector<std::string> job_depends_on_list;
  friend bool operator==(const JobTemplateStatus&, const JobTemplateStatus&) = default;
};

struct JobTemplate : ObjectMeta {
  JobSpec spec;
  JobTemplateStatus status;
};

// Decodes a whole JobTemplate (metadata, spec, status) into out. Throws DecodeError.
void decode_job_template(const nlohmann::json& job_template, JobTemplate& out,
                         const FieldPath& root = FieldPath());

nlohmann::json encode_job_template_status(const JobTemplateStatus& status);

}  // namespace vc::volcano

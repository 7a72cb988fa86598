#include "common/volcano/job_template.h"

#include "common/volcano/job_decode.h"
#include "common/volcano/json_write.h"

namespace vc::volcano {

using nlohmann::json;

void decode_job_template(const json& job_template, JobTemplate& out, const FieldPath& root) {
  read::object(job_template, root);
  decode_object_meta(job_template, root, out);
  if (const json* spec = read::object_at(job_template, "spec", root); spec != nullptr) {
    out.spec = decode_job_spec(*spec, root.key("spec"), TemplateMode::kIntern);
  }
  if (const json* status = read::object_at(job_template, "status", root); status != nullptr) {
    out.status.job_depends_on_list =
        read::strings_at(*status, "jobDependsOnList", root.key("status"));
  }
}

json encode_job_template_status(const JobTemplateStatus& s) {
  json out = json::object();
  write::strings(out, "jobDependsOnList", s.job_depends_on_list);
  return out;
}

}  // namespace vc::volcano

#include "controllers/job/model/job_json.h"

#include "controllers/job/model/json_fields.h"
#include "controllers/job/model/spec_json.h"
#include "controllers/job/model/status_json.h"

namespace vc::controllers::job {

using nlohmann::json;

namespace {

void read_metadata(const json& job, Job& out) {
  const json* meta = fields::object_at(job, "metadata", "");
  if (meta == nullptr) return;
  const std::string p = "metadata";
  out.namespace_ = fields::string_at(*meta, "namespace", p);
  out.name = fields::string_at(*meta, "name", p);
  out.uid = fields::string_at(*meta, "uid", p);
  out.resource_version = fields::string_at(*meta, "resourceVersion", p);
  // std::map iterates in key order, so both vectors come out sorted as their readers expect.
  for (auto& [k, v] : fields::string_map_at(*meta, "labels", p)) {
    out.labels.emplace_back(k, std::move(v));
  }
  for (auto& [k, v] : fields::string_map_at(*meta, "annotations", p)) {
    out.annotations.emplace_back(k, std::move(v));
  }
  out.creation_timestamp = fields::time_at(*meta, "creationTimestamp", p);
  out.deletion_timestamp = fields::time_at(*meta, "deletionTimestamp", p);
}

}  // namespace

std::shared_ptr<Job> job_from_json(const json& job) {
  if (!job.is_object()) {
    fields::fail("(root)", std::string("expected an object, got ") + job.type_name());
  }
  auto out = std::make_shared<Job>();
  read_metadata(job, *out);
  if (const json* spec = fields::find(job, "spec"); spec != nullptr) {
    out->spec = spec_from_json(*spec, "spec");
  }
  if (const json* status = fields::find(job, "status"); status != nullptr) {
    out->status = status_from_json_at(*status, "status");
  }
  return out;
}

const fastjson::MemberFilter& status_write_reads() {
  static const auto reads = fastjson::MemberFilter::only({"metadata.resourceVersion", "status"});
  return reads;
}

std::shared_ptr<Job> job_after_status_write(const Job& sent, const json& reply) {
  if (!reply.is_object()) {
    fields::fail("(root)", std::string("expected an object, got ") + reply.type_name());
  }
  const json* meta = fields::object_at(reply, "metadata", "");
  std::string version = meta ? fields::string_at(*meta, "resourceVersion", "metadata") : "";
  if (version.empty()) fields::fail("metadata.resourceVersion", "missing in the reply");
  auto out = std::make_shared<Job>(sent);
  out->resource_version = std::move(version);
  const json* status = fields::find(reply, "status");
  out->status = status ? status_from_json_at(*status, "status") : JobStatus{};
  return out;
}

kube::cache::Transform job_view_transform() {
  return {"job-view", [](json&& job) -> kube::cache::ObjectPtr { return job_from_json(job); }};
}

JobPtr as_job(const kube::cache::ObjectPtr& object) {
  return std::dynamic_pointer_cast<const Job>(object);
}

}  // namespace vc::controllers::job

#include "controllers/job/model/job_json.h"

#include "common/volcano/job_decode.h"

namespace vc::controllers::job {

using nlohmann::json;

std::shared_ptr<Job> job_from_json(const json& job) {
  auto out = std::make_shared<Job>();
  volcano::decode_job(job, *out, volcano::TemplateMode::kIntern);
  return out;
}

const fastjson::MemberFilter& status_write_reads() {
  static const auto reads = fastjson::MemberFilter::only({"metadata.resourceVersion", "status"});
  return reads;
}

std::shared_ptr<Job> job_after_status_write(const Job& sent, const json& reply) {
  namespace read = volcano::read;
  const volcano::FieldPath root;
  read::object(reply, root);
  const json* meta = read::object_at(reply, "metadata", root);
  std::string version = meta ? read::string_at(*meta, "resourceVersion", root.key("metadata")) : "";
  if (version.empty()) root.key("metadata").key("resourceVersion").fail("missing in the reply");
  auto out = std::make_shared<Job>(sent);
  out->resource_version = std::move(version);
  const json* status = read::find(reply, "status", root);
  out->status = status ? volcano::decode_job_status(*status, root.key("status")) : JobStatus{};
  return out;
}

kube::cache::Transform job_view_transform() {
  return {"job-view", [](json&& job) -> kube::cache::ObjectPtr { return job_from_json(job); }};
}

JobPtr as_job(const kube::cache::ObjectPtr& object) {
  return std::dynamic_pointer_cast<const Job>(object);
}

}  // namespace vc::controllers::job

#include "controllers/jobflow/executor.h"

#include "common/kube/resource.h"
#include "controllers/jobflow/metrics.h"

namespace vc::controllers::jobflow {

namespace resources = kube::resources;
using nlohmann::json;

kube::events::ObjectReference reference_to(const volcano::JobFlow& jf) {
  return {.kind = volcano::kJobFlowKind,
          .namespace_ = jf.namespace_,
          .name = jf.name,
          .uid = jf.uid,
          .api_version = volcano::kJobFlowApiVersion,
          .resource_version = jf.resource_version,
          .field_path = ""};
}

std::string execute(const Plan& plan, const volcano::JobFlow& jf, kube::Client& client,
                    kube::events::EventRecorder& recorder) {
  for (const std::string& name : plan.deletes) {
    auto r = client.remove(resources::jobs, jf.namespace_, name);
    // Already gone counts as deleted (Volcano retries it as an error).
    if (!r && r.error().kind != kube::ErrorKind::NotFound) {
      return "deleting job " + name + " of JobFlow " + jf.key() + ": " + r.error().describe();
    }
  }
  for (const FlowJob& create : plan.creates) {
    auto r = client.create(resources::jobs, jf.namespace_, create.job);
    if (!r && r.error().kind == kube::ErrorKind::AlreadyExists) continue;
    if (!r) {
      return "creating job " + create.name + " of JobFlow " + jf.key() + ": " +
             r.error().describe();
    }
    recorder.event(reference_to(jf), kube::events::EventType::Normal, "Created",
                   "create a job named " + create.name + "!");
  }
  if (!plan.error.empty()) return plan.error;
  if (!plan.status_changed) return "";
  const json body = {
      {"apiVersion", volcano::kJobFlowApiVersion},
      {"kind", volcano::kJobFlowKind},
      {"metadata",
       {{"name", jf.name}, {"namespace", jf.namespace_}, {"resourceVersion", jf.resource_version}}},
      {"status", volcano::encode_job_flow_status(plan.status)}};
  auto r = client.update_status(resources::jobflows, jf.namespace_, body);
  if (!r) return "updating status of JobFlow " + jf.key() + ": " + r.error().describe();
  // Counted once the new phase is stored, so a retried sync does not count twice.
  if (plan.became_succeed) count_succeeded(jf.namespace_);
  if (plan.became_failed) count_failed(jf.namespace_);
  return "";
}

}  // namespace vc::controllers::jobflow

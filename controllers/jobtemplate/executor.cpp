#include "controllers/jobtemplate/executor.h"

#include <nlohmann/json.hpp>

#include "common/kube/resource.h"

namespace vc::controllers::jobtemplate {

std::string write_depends_on(kube::Client& client, const jobflow::JobTemplateView& jt,
                             const std::vector<std::string>& names) {
  const auto& resource = kube::resources::jobtemplates;
  const nlohmann::json body = {
      {"apiVersion", resource.api_version()},
      {"kind", resource.kind},
      {"metadata",
       {{"name", jt.name}, {"namespace", jt.namespace_}, {"resourceVersion", jt.resource_version}}},
      {"status", {{"jobDependsOnList", names}}}};
  auto r = client.update_status(resource, jt.namespace_, body);
  if (!r) return "updating status of JobTemplate " + jt.key() + ": " + r.error().describe();
  return "";
}

}  // namespace vc::controllers::jobtemplate

#include "controllers/job/verdict/bound_pods.h"

#include <string>

#include "controllers/views/pod_view.h"

namespace vc::controllers::job::verdict {

std::vector<nlohmann::json> bound_pods(const std::vector<kube::cache::ObjectPtr>& pods) {
  std::vector<nlohmann::json> out;
  for (const kube::cache::ObjectPtr& obj : pods) {
    const views::PodViewPtr pod = views::as_pod_view(obj);
    if (!pod || pod->node_name.empty() || pod->deletion_timestamp) continue;
    if (pod->phase == "Succeeded" || pod->phase == "Failed") continue;
    nlohmann::json requests = nlohmann::json::object();
    for (const views::ResourceAmount& a : pod->requests) requests[std::string(a.name)] = a.text;
    // The effective requests already fold in init containers, sidecars, pod-level resources and
    // overhead: one container carrying them counts the same.
    out.push_back(
        {{"metadata", {{"name", pod->name}, {"namespace", pod->namespace_}}},
         {"spec",
          {{"nodeName", pod->node_name},
           {"containers", nlohmann::json::array(
                              {{{"name", "requests"}, {"resources", {{"requests", requests}}}}})}}},
         {"status", {{"phase", std::string(pod->phase)}}}});
  }
  return out;
}

}  // namespace vc::controllers::job::verdict

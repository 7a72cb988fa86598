#include "controllers/colocation/executor.h"

#include "common/kube/resource.h"

namespace vc::controllers::colocation {

nlohmann::json annotation_patch(const AnnotationChange& change,
                                const std::string& resource_version) {
  nlohmann::json annotations = nlohmann::json::object();
  annotations[std::string(kConfigNameAnnotation)] =
      change.config_name ? nlohmann::json(*change.config_name) : nlohmann::json(nullptr);
  annotations[std::string(kConfigAnnotation)] = change.config;
  return {{"metadata", {{"resourceVersion", resource_version}, {"annotations", annotations}}}};
}

std::string write_annotations(kube::Client& client, const std::string& pod_namespace,
                              const std::string& pod_name, const std::string& resource_version,
                              const AnnotationChange& change) {
  auto r = client.patch(kube::resources::pods, pod_namespace, pod_name, kube::PatchType::Merge,
                        annotation_patch(change, resource_version).dump());
  if (r.ok() || r.error().kind == kube::ErrorKind::NotFound) return "";
  return "updating colocation annotations of pod " + pod_namespace + "/" + pod_name + ": " +
         r.error().describe();
}

}  // namespace vc::controllers::colocation

#include "controllers/jobflow/views.h"

#include <stdexcept>

namespace vc::controllers::jobflow {
namespace {

std::vector<std::string> depends_on_list(const nlohmann::json& object) {
  std::vector<std::string> out;
  const auto status = object.find("status");
  if (status == object.end() || status->is_null()) return out;
  if (!status->is_object()) throw std::invalid_argument("status: expected an object");
  const auto list = status->find("jobDependsOnList");
  if (list == status->end() || list->is_null()) return out;
  if (!list->is_array()) throw std::invalid_argument("status.jobDependsOnList: expected a list");
  for (std::size_t i = 0; i < list->size(); ++i) {
    const auto& name = (*list)[i];
    if (!name.is_string()) {
      throw std::invalid_argument("status.jobDependsOnList[" + std::to_string(i) +
                                  "]: expected a string");
    }
    out.push_back(name.get<std::string>());
  }
  return out;
}

}  // namespace

kube::cache::Transform job_flow_view_transform() {
  return {"jobflow-view", [](nlohmann::json&& object) -> kube::cache::ObjectPtr {
            auto out = std::make_shared<volcano::JobFlow>();
            volcano::decode_job_flow(object, *out);
            return out;
          }};
}

std::shared_ptr<const volcano::JobFlow> as_job_flow(const kube::cache::ObjectPtr& object) {
  return std::dynamic_pointer_cast<const volcano::JobFlow>(object);
}

kube::cache::Transform job_template_view_transform() {
  return {"jobtemplate-raw-view", [](nlohmann::json&& object) -> kube::cache::ObjectPtr {
            auto out = std::make_shared<JobTemplateView>();
            kube::cache::read_metadata(object, *out);
            if (auto spec = object.find("spec"); spec != object.end() && !spec->is_null()) {
              if (!spec->is_object()) throw std::invalid_argument("spec: expected an object");
              out->spec = std::move(*spec);
            }
            out->job_depends_on_list = depends_on_list(object);
            return out;
          }};
}

std::shared_ptr<const JobTemplateView> as_job_template(const kube::cache::ObjectPtr& object) {
  return std::dynamic_pointer_cast<const JobTemplateView>(object);
}

}  // namespace vc::controllers::jobflow

#include "controllers/jobtemplate/plan.h"

#include <algorithm>

namespace vc::controllers::jobtemplate {

std::optional<std::string> template_key_of(const volcano::Job& job) {
  const std::string* value = job.label(kCreatedByJobTemplate);
  if (value == nullptr) return std::nullopt;
  const auto dot = value->find('.');
  if (dot == std::string::npos || dot == 0 || dot + 1 == value->size() ||
      value->find('.', dot + 1) != std::string::npos) {
    return std::nullopt;
  }
  return value->substr(0, dot) + "/" + value->substr(dot + 1);
}

std::optional<std::vector<std::string>> plan_depends_on(
    const std::string& template_namespace, const std::string& template_name,
    const std::vector<std::string>& stored,
    const std::vector<const volcano::Job*>& namespace_jobs) {
  const std::string mark = template_namespace + "." + template_name;
  std::vector<std::string> names;
  for (const volcano::Job* job : namespace_jobs) {
    const std::string* value = job->label(kCreatedByJobTemplate);
    if (value != nullptr && *value == mark) names.push_back(job->name);
  }
  std::sort(names.begin(), names.end());
  // Volcano writes on every sync; a write that repeats the stored list is skipped here.
  if (names.empty() || names == stored) return std::nullopt;
  return names;
}

}  // namespace vc::controllers::jobtemplate

#pragma once
// hcclrank plugin (spec job-controller.md §5.8): annotation hccl/rankIndex on master/worker pods,
// unless already set. The value is the first RANK env var of a regular container when there is
// one (so it follows pytorch when that plugin ran first), else the task index label: the index
// for the master task, master replicas + index for the worker task. No job-level objects or marks.
// Arguments: --master (master), --worker (worker).
//
// Threads: see plugin.h.

#include <string>
#include <vector>

#include "controllers/job/plugins/plugin.h"

namespace vc::controllers::job::plugins {

inline constexpr const char* kHcclRankAnnotation = "hccl/rankIndex";

class HcclRankPlugin : public Plugin {
 public:
  static constexpr const char* kName = "hcclrank";
  explicit HcclRankPlugin(const std::vector<std::string>& args);

  api::Status on_pod_create(nlohmann::json& pod, const Job& job) override;

 private:
  std::string master_ = "master";
  std::string worker_ = "worker";
};

}  // namespace vc::controllers::job::plugins

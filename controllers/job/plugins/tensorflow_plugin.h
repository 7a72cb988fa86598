#pragma once
// tensorflow plugin (spec job-controller.md §5.5): TF_CONFIG for every container of a
// multi-pod job, as compact JSON in Go's field order:
//   {"cluster":{"ps":[..],"worker":[..],"chief":[..],"evaluator":[..]},"task":{"type":..,"index":..}}
// Empty roles are omitted; hosts are "<host>.<subdomain>:<port>" for every replica (a template
// hostname is repeated for each replica, as Volcano does). Skipped when the job is one task with
// one replica. Only the "plugin-tensorflow" mark otherwise.
// Arguments: --ps (ps), --worker (worker), --chief (chief), --evaluator (evaluator), --port (2222).
//
// Threads: see plugin.h.

#include <cstdint>
#include <string>
#include <vector>

#include "controllers/job/plugins/plugin.h"

namespace vc::controllers::job::plugins {

class TensorflowPlugin : public MarkOnlyPlugin {
 public:
  static constexpr const char* kName = "tensorflow";
  explicit TensorflowPlugin(const std::vector<std::string>& args);

  api::Status on_pod_create(nlohmann::json& pod, const Job& job) override;

 private:
  std::string ps_ = "ps";
  std::string worker_ = "worker";
  std::string chief_ = "chief";
  std::string evaluator_ = "evaluator";
  std::int64_t port_ = 2222;
};

}  // namespace vc::controllers::job::plugins

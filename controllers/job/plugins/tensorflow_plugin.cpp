#include "controllers/job/plugins/tensorflow_plugin.h"

#include <cstdio>

#include "common/go/json_marshal.h"
#include "controllers/job/plugins/plugin_support.h"

namespace vc::controllers::job::plugins {

using nlohmann::json;

namespace {
// A JSON string literal as Go's encoding/json writes it.
std::string json_string(const std::string& s) {
  return go::marshal_json(json(s));
}
}  // namespace

TensorflowPlugin::TensorflowPlugin(const std::vector<std::string>& args) : MarkOnlyPlugin(kName) {
  GoFlagSet flags;
  flags.add_string("ps", &ps_);
  flags.add_string("worker", &worker_);
  flags.add_string("chief", &chief_);
  flags.add_string("evaluator", &evaluator_);
  flags.add_int("port", &port_);
  parse_args(flags, kName, args);
}

api::Status TensorflowPlugin::on_pod_create(json& pod, const Job& job) {
  if (job.spec.tasks.size() == 1 && job.spec.tasks[0].replicas == 1) return api::ok_status();
  const std::string suffix = pod_index_suffix(pod);
  const auto index = go_atoi(suffix);
  if (!index) return api::Unexpected{"strconv.Atoi: parsing \"" + suffix + "\": invalid syntax"};

  // Roles in Go's struct order; a task fills the first role whose configured name it has.
  const std::string* role_names[] = {&ps_, &worker_, &chief_, &evaluator_};
  const char* role_keys[] = {"ps", "worker", "chief", "evaluator"};
  std::vector<std::string> role_hosts[4];
  for (const TaskSpec& task : job.spec.tasks) {
    for (int r = 0; r < 4; ++r) {
      if (task.name != *role_names[r]) continue;
      std::vector<std::string> hosts;
      for (std::int32_t i = 0; i < task.replicas; ++i) {
        hosts.push_back(domain_name(job, task, i) + ":" + std::to_string(port_));
      }
      role_hosts[r] = std::move(hosts);
      break;
    }
  }
  // The task type: the role matching the pod's task in chief, worker, ps, evaluator order (Go's
  // switch), else the raw task name.
  const std::string task = pod_task(pod);
  std::string type = task;
  for (int r : {2, 1, 0, 3}) {
    if (task == *role_names[r]) {
      type = role_keys[r];
      break;
    }
  }

  std::string cluster;
  for (int r = 0; r < 4; ++r) {
    if (role_hosts[r].empty()) continue;
    if (!cluster.empty()) cluster += ",";
    cluster += json_string(role_keys[r]) + ":[";
    for (std::size_t i = 0; i < role_hosts[r].size(); ++i) {
      if (i > 0) cluster += ",";
      cluster += json_string(role_hosts[r][i]);
    }
    cluster += "]";
  }
  const std::string tf_config = "{\"cluster\":{" + cluster +
                                "},\"task\":{\"type\":" + json_string(type) +
                                ",\"index\":" + std::to_string(*index) + "}}";
  for_each_container(pod, Containers::Regular,
                     [&](json& c) { append_to(c, "env", env_var("TF_CONFIG", tf_config)); });
  return api::ok_status();
}

}  // namespace vc::controllers::job::plugins

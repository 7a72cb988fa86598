#include "controllers/job/plugins/mpi_plugin.h"

#include <optional>

#include "controllers/job/plugins/plugin_support.h"

namespace vc::controllers::job::plugins {

using nlohmann::json;

namespace {
constexpr const char* kPortName = "mpijob-port";
}  // namespace

MpiPlugin::MpiPlugin(const std::vector<std::string>& args) : MarkOnlyPlugin(kName) {
  GoFlagSet flags;
  flags.add_string("master", &master_);
  flags.add_string("worker", &worker_);
  flags.add_int("port", &port_);
  parse_args(flags, kName, args);
}

api::Status MpiPlugin::on_pod_create(json& pod, const Job& job) {
  std::optional<std::string> mpi_host;
  if (pod_task(pod) == master_) {
    const TaskSpec* worker = find_task(job.spec, worker_);
    if (worker == nullptr) return api::ok_status();
    std::string hosts;
    for (const std::string& host : task_hosts(job, *worker)) {
      if (!hosts.empty()) hosts += ",";
      hosts += host;
    }
    mpi_host = std::move(hosts);
  }
  // Init containers first, then regular ones, as Volcano visits them.
  for (Containers which : {Containers::Init, Containers::Regular}) {
    for_each_container(pod, which, [&](json& c) {
      if (!has_container_port(c, port_)) append_to(c, "ports", container_port(kPortName, port_));
      if (mpi_host) append_to(c, "env", env_var("MPI_HOST", *mpi_host));
    });
  }
  return api::ok_status();
}

}  // namespace vc::controllers::job::plugins

#include "controllers/job/plugins/ray_plugin.h"

#include "common/kube/resource.h"
#include "controllers/job/plugins/plugin_support.h"

namespace vc::controllers::job::plugins {

using nlohmann::json;

namespace {
constexpr const char* kGcs = "gcs";
constexpr const char* kDashboard = "dashboard";
constexpr const char* kClientServer = "client-server";
}  // namespace

std::string ray_head_service_name(const Job& job) {
  return job.name + "-head-svc";
}

RayPlugin::RayPlugin(const std::vector<std::string>& args) : Plugin(kName) {
  GoFlagSet flags;
  flags.add_string("head", &head_);
  flags.add_string("headContainer", &head_container_);
  flags.add_string("worker", &worker_);
  flags.add_string("workerContainer", &worker_container_);
  flags.add_int("port", &port_);
  flags.add_int("dashboardPort", &dashboard_port_);
  flags.add_int("clientPort", &client_port_);
  parse_args(flags, kName, args);
}

api::Status RayPlugin::on_pod_create(json& pod, const Job& job) {
  const TaskSpec* head = find_task(job.spec, head_);
  if (head == nullptr) {
    return api::Unexpected{"job " + job.name + " doesn't have head task " + head_};
  }
  const std::string task = pod_task(pod);
  for_each_container(pod, Containers::Regular, [&](json& c) {
    const std::string container = c.value("name", "");
    if (task == head_ && container == head_container_) {
      // Checked before any port is added, as Volcano does.
      const bool has_gcs = has_container_port(c, port_);
      const bool has_dashboard = has_container_port(c, dashboard_port_);
      const bool has_client = has_container_port(c, client_port_);
      if (!has_gcs) append_to(c, "ports", container_port(kGcs, port_));
      if (!has_dashboard) append_to(c, "ports", container_port(kDashboard, dashboard_port_));
      if (!has_client) append_to(c, "ports", container_port(kClientServer, client_port_));
      c["command"] = json::array(
          {"sh", "-c",
           "ray start --head --block --dashboard-host=0.0.0.0 --port=" + std::to_string(port_) +
               " --dashboard-port=" + std::to_string(dashboard_port_) +
               " --ray-client-server-port=" + std::to_string(client_port_)});
    }
    if (task == worker_ && container == worker_container_) {
      c["command"] = json::array({"sh", "-c",
                                  "ray start --block --address=" + domain_name(job, *head, 0) +
                                      ":" + std::to_string(port_)});
    }
  });
  return api::ok_status();
}

api::Status RayPlugin::on_job_add(PluginEnv& env) {
  if (is_marked(env, kName)) return api::ok_status();
  json service = owned_object(env.job, kube::resources::services, ray_head_service_name(env.job));
  auto port = [](const char* name, std::int64_t number) {
    return json{{"name", name},
                {"port", static_cast<std::int32_t>(number)},
                {"targetPort", name},
                {"protocol", "TCP"}};
  };
  service["spec"] = {{"selector",
                      {{keys::kJobName, env.job.name},
                       {keys::kJobNamespace, env.job.namespace_},
                       {keys::kTaskSpec, head_}}},
                     {"ports", json::array({port(kGcs, port_), port(kDashboard, dashboard_port_),
                                            port(kClientServer, client_port_)})}};
  if (auto created = create_if_absent(env, kube::resources::services, service); !created) {
    return api::Unexpected{created.error()};
  }
  set_mark(env, kName);
  return api::ok_status();
}

api::Status RayPlugin::on_job_delete(PluginEnv& env) {
  if (!is_marked(env, kName)) return api::ok_status();
  if (auto removed =
          delete_if_present(env, kube::resources::services, ray_head_service_name(env.job));
      !removed) {
    return removed;
  }
  clear_mark(env, kName);
  return api::ok_status();
}

}  // namespace vc::controllers::job::plugins

#include "controllers/job/plugins/pytorch_plugin.h"

#include <optional>

#include "common/log/log.h"
#include "controllers/job/plugins/plugin_support.h"

namespace vc::controllers::job::plugins {

using nlohmann::json;

namespace {
constexpr const char* kPortName = "pytorchjob-port";
constexpr const char* kInitName = "wait-for-master";
}  // namespace

PytorchPlugin::PytorchPlugin(const std::vector<std::string>& args) : MarkOnlyPlugin(kName) {
  GoFlagSet flags;
  flags.add_string("master", &master_);
  flags.add_string("worker", &worker_);
  flags.add_int("port", &port_);
  flags.add_bool("wait-master-enabled", &wait_master_enabled_);
  flags.add_int("wait-master-timeout", &wait_master_timeout_);
  flags.add_string("wait-master-image", &wait_master_image_);
  parse_args(flags, kName, args);
}

std::string PytorchPlugin::wait_for_master_script(const std::string& addr) const {
  const std::string port = std::to_string(port_);
  return "echo \"Waiting for master node " + addr + ":" + port + " to be ready...\"\n" +
         "TIMEOUT=" + std::to_string(wait_master_timeout_) + "\n" +
         "ELAPSED=0\n"
         "until { nc -z " +
         addr + " " + port + " || echo > /dev/tcp/" + addr + "/" + port +
         "; } 2>/dev/null; do\n"
         "  if [ $ELAPSED -ge $TIMEOUT ]; then\n"
         "    echo \"Timeout waiting for master after ${TIMEOUT} seconds\"\n"
         "    exit 1\n"
         "  fi\n"
         "  echo \"Master not ready yet, retrying in 2 seconds... (elapsed: ${ELAPSED}s)\"\n"
         "  sleep 2\n"
         "  ELAPSED=$((ELAPSED + 2))\n"
         "done\n"
         "echo \"Master node is ready!\"";
}

api::Status PytorchPlugin::on_pod_create(json& pod, const Job& job) {
  const std::string task = pod_task(pod);
  const TaskSpec* master = find_task(job.spec, master_);
  if (master == nullptr) {
    VC_LOG_WARN("pytorch plugin: job has no master task", kv("job", job.key()),
                kv("task", master_));
    return api::ok_status();
  }
  const std::string master_addr = domain_name(job, *master, 0);

  std::optional<std::string> rank;
  if (task == worker_) {
    const std::string suffix = pod_index_suffix(pod);
    const auto index = go_atoi(suffix);
    if (!index) return api::Unexpected{"strconv.Atoi: parsing \"" + suffix + "\": invalid syntax"};
    rank = std::to_string(*index + 1);
    if (wait_master_enabled_) {
      bool present = false;
      for_each_container(pod, Containers::Init,
                         [&](json& c) { present = present || c.value("name", "") == kInitName; });
      if (!present) {
        json& spec = pod["spec"];
        append_to(spec, "initContainers",
                  {{"name", kInitName},
                   {"image", wait_master_image_},
                   {"command", json::array({"sh", "-c", wait_for_master_script(master_addr)})}});
      }
    }
  } else if (task == master_) {
    rank = "0";
  }

  std::int64_t world_size = 0;
  for (const TaskSpec& t : job.spec.tasks) {
    if (t.name == master_ || t.name == worker_) world_size += t.replicas;
  }
  for_each_container(pod, Containers::Regular, [&](json& c) {
    if (!has_container_port(c, port_)) append_to(c, "ports", container_port(kPortName, port_));
    append_to(c, "env", env_var("MASTER_ADDR", master_addr));
    append_to(c, "env", env_var("MASTER_PORT", std::to_string(port_)));
    append_to(c, "env",
              env_var("WORLD_SIZE", std::to_string(static_cast<std::int32_t>(world_size))));
    if (rank) append_to(c, "env", env_var("RANK", *rank));
  });
  return api::ok_status();
}

}  // namespace vc::controllers::job::plugins

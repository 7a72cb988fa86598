#include "controllers/job/plugins/plugin_support.h"

#include "common/api/owner_ref.h"
#include "common/log/log.h"

namespace vc::controllers::job::plugins {

using nlohmann::json;

void parse_args(GoFlagSet& flags, const char* plugin, const std::vector<std::string>& args) {
  if (auto parsed = flags.parse(args); !parsed) {
    VC_LOG_WARN("plugin arguments parse failed", kv("plugin", plugin), kv("error", parsed.error()));
  }
}

const TaskSpec* find_task(const JobSpec& spec, std::string_view name) {
  for (const TaskSpec& task : spec.tasks) {
    if (task.name == name) return &task;
  }
  return nullptr;
}

std::string pod_name_for(std::string_view job, std::string_view task, std::int64_t index) {
  std::string name;
  name.reserve(job.size() + task.size() + 8);
  name.append(job).append("-").append(task).append("-").append(std::to_string(index));
  return name;
}

std::string domain_name(const Job& job, const TaskSpec& task, std::int64_t index) {
  const std::string host = task.template_hostname.empty() ? pod_name_for(job.name, task.name, index)
                                                          : task.template_hostname;
  const std::string& subdomain =
      task.template_subdomain.empty() ? job.name : task.template_subdomain;
  return host + "." + subdomain;
}

std::vector<std::string> task_hosts(const Job& job, const TaskSpec& task) {
  std::vector<std::string> hosts;
  for (std::int32_t i = 0; i < task.replicas; ++i) {
    hosts.push_back(domain_name(job, task, i));
    if (!task.template_hostname.empty()) break;
  }
  return hosts;
}

namespace {

std::string string_at(const json& object, const char* section, std::string_view key) {
  const auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return "";
  const auto map = meta->find(section);
  if (map == meta->end() || !map->is_object()) return "";
  const auto value = map->find(key);
  return (value != map->end() && value->is_string()) ? value->get<std::string>() : "";
}

}  // namespace

std::string pod_name(const json& pod) {
  const auto meta = pod.find("metadata");
  if (meta == pod.end() || !meta->is_object()) return "";
  const auto name = meta->find("name");
  return (name != meta->end() && name->is_string()) ? name->get<std::string>() : "";
}

std::string pod_annotation(const json& pod, std::string_view key) {
  return string_at(pod, "annotations", key);
}

std::string pod_label(const json& pod, std::string_view key) {
  return string_at(pod, "labels", key);
}

std::string pod_task(const json& pod) {
  std::string task = pod_annotation(pod, keys::kTaskSpec);
  return task.empty() ? "default" : task;
}

std::string pod_index_suffix(const json& pod) {
  const std::string name = pod_name(pod);
  std::size_t dashes = 0;
  for (char c : name) dashes += c == '-' ? 1 : 0;
  if (dashes < 2) return "";
  return name.substr(name.rfind('-') + 1);
}

void for_each_container(json& pod, Containers which, const std::function<void(json&)>& fn) {
  auto spec = pod.find("spec");
  if (spec == pod.end() || !spec->is_object()) return;
  auto visit = [&](const char* field) {
    auto list = spec->find(field);
    if (list == spec->end() || !list->is_array()) return;
    for (json& container : *list) {
      if (container.is_object()) fn(container);
    }
  };
  if (which != Containers::Init) visit("containers");
  if (which != Containers::Regular) visit("initContainers");
}

void append_to(json& object, const char* list, json item) {
  json& target = object[list];
  if (!target.is_array()) target = json::array();
  target.push_back(std::move(item));
}

json env_var(const std::string& name, const std::string& value) {
  json env = {{"name", name}};
  if (!value.empty()) env["value"] = value;
  return env;
}

bool has_container_port(const json& container, std::int64_t port) {
  const auto ports = container.find("ports");
  if (ports == container.end() || !ports->is_array()) return false;
  const auto wanted = static_cast<std::int32_t>(port);
  for (const json& p : *ports) {
    const auto number = p.find("containerPort");
    if (number != p.end() && number->is_number_integer() && number->get<std::int64_t>() == wanted)
      return true;
  }
  return false;
}

json container_port(const std::string& name, std::int64_t port) {
  return {{"name", name}, {"containerPort", static_cast<std::int32_t>(port)}};
}

void append_volume(json& pod, json volume) {
  json& spec = pod["spec"];
  if (!spec.is_object()) spec = json::object();
  append_to(spec, "volumes", std::move(volume));
}

bool is_marked(const PluginEnv& env, const std::string& plugin) {
  const auto it = env.controlled_resources.find("plugin-" + plugin);
  return it != env.controlled_resources.end() && it->second == plugin;
}

void set_mark(PluginEnv& env, const std::string& plugin) {
  env.controlled_resources["plugin-" + plugin] = plugin;
}

void clear_mark(PluginEnv& env, const std::string& plugin) {
  env.controlled_resources.erase("plugin-" + plugin);
}

json owned_object(const Job& job, const kube::Resource& resource, const std::string& name) {
  json ref = api::make_controller_ref(kJobApiVersion, kJobKind, job.name, job.uid);
  return {{"apiVersion", resource.api_version()},
          {"kind", resource.kind},
          {"metadata",
           {{"name", name},
            {"namespace", job.namespace_},
            {"ownerReferences", json::array({std::move(ref)})}}}};
}

std::string error_text(const kube::ApiError& error) {
  return error.describe();
}

namespace {

std::string object_name(const json& object) {
  return object.at("metadata").at("name").get<std::string>();
}

// Create after a NotFound GET. AlreadyExists means someone created it since: as good as ours.
api::Expected<Outcome> create_object(PluginEnv& env, const kube::Resource& resource,
                                     const json& object) {
  auto created = env.client.create(resource, env.job.namespace_, object);
  if (created.ok()) {
    VC_LOG_DEBUG("plugin created object", kv("job", env.job.key()),
                 kv("resource", resource.qualified()), kv("name", object_name(object)));
    return Outcome::Created;
  }
  if (created.is(kube::ErrorKind::AlreadyExists)) {
    VC_LOG_DEBUG("plugin object already exists", kv("job", env.job.key()),
                 kv("resource", resource.qualified()), kv("name", object_name(object)));
    return Outcome::Existed;
  }
  return api::Unexpected{error_text(created.error())};
}

}  // namespace

api::Expected<Outcome> create_if_absent(PluginEnv& env, const kube::Resource& resource,
                                        const json& object) {
  auto existing = env.client.get(resource, env.job.namespace_, object_name(object));
  if (existing.ok()) return Outcome::Existed;
  if (!existing.is(kube::ErrorKind::NotFound)) return api::Unexpected{error_text(existing.error())};
  return create_object(env, resource, object);
}

api::Status create_or_update(PluginEnv& env, const kube::Resource& resource, const json& object,
                             const std::function<bool(json& existing)>& update) {
  auto existing = env.client.get(resource, env.job.namespace_, object_name(object));
  if (!existing.ok()) {
    if (!existing.is(kube::ErrorKind::NotFound)) {
      return api::Unexpected{error_text(existing.error())};
    }
    if (auto created = create_object(env, resource, object); !created) {
      return api::Unexpected{created.error()};
    }
    return api::ok_status();
  }
  json& current = existing.value();
  if (!update(current)) return api::ok_status();
  auto updated = env.client.update(resource, env.job.namespace_, current);
  if (!updated.ok()) return api::Unexpected{error_text(updated.error())};
  VC_LOG_DEBUG("plugin updated object", kv("job", env.job.key()),
               kv("resource", resource.qualified()), kv("name", object_name(object)));
  return api::ok_status();
}

api::Status delete_if_present(PluginEnv& env, const kube::Resource& resource,
                              const std::string& name) {
  auto removed = env.client.remove(resource, env.job.namespace_, name);
  if (removed.ok() || removed.is(kube::ErrorKind::NotFound)) return api::ok_status();
  return api::Unexpected{error_text(removed.error())};
}

}  // namespace vc::controllers::job::plugins

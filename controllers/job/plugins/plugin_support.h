#pragma once
// Helpers shared by the plugins: host names of task replicas, pod JSON edits, controlled-resource
// marks, and the create-if-absent / delete-if-present API calls with their error texts.
//
// Threads: pure functions, except the kube helpers, which block on env.client like any hook.

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/api/expected.h"
#include "common/kube/client.h"
#include "controllers/job/model/job.h"
#include "controllers/job/plugins/go_flags.h"
#include "controllers/job/plugins/plugin.h"

namespace vc::controllers::job::plugins {

// Parses a plugin's arguments. A problem stops parsing and is logged, not returned: Volcano
// runs the plugin with whatever was parsed until then.
void parse_args(GoFlagSet& flags, const char* plugin, const std::vector<std::string>& args);

// ---- job facts -------------------------------------------------------------------------------

// The first task with this name, or null.
const TaskSpec* find_task(const JobSpec& spec, std::string_view name);
// "<job>-<task>-<index>" (spec job-controller.md §0.5).
std::string pod_name_for(std::string_view job, std::string_view task, std::int64_t index);
// "<hostname>.<subdomain>" of replica index: the template's hostname or the pod name, the
// template's subdomain or the job name.
std::string domain_name(const Job& job, const TaskSpec& task, std::int64_t index);
// domain_name of every replica, or of replica 0 only when the template sets a hostname (svc, ssh
// and mpi list such a task once).
std::vector<std::string> task_hosts(const Job& job, const TaskSpec& task);

// ---- pod JSON being created ------------------------------------------------------------------

std::string pod_name(const nlohmann::json& pod);
// metadata.annotations[key] / metadata.labels[key] as a string ("" when absent).
std::string pod_annotation(const nlohmann::json& pod, std::string_view key);
std::string pod_label(const nlohmann::json& pod, std::string_view key);
// The pod's task: annotation volcano.sh/task-spec, or "default" when empty.
std::string pod_task(const nlohmann::json& pod);
// The last "-"-separated segment of the pod name when it has at least three segments, else "".
std::string pod_index_suffix(const nlohmann::json& pod);

enum class Containers { Regular, Init, Both };
// Calls fn on each container object; Both visits regular containers first, then init ones.
void for_each_container(nlohmann::json& pod, Containers which,
                        const std::function<void(nlohmann::json&)>& fn);
// Appends to the container's "env"/"ports"/"volumeMounts" (creating the list).
void append_to(nlohmann::json& object, const char* list, nlohmann::json item);
// {"name", "value"}; an empty value is omitted, as Go's omitempty does.
nlohmann::json env_var(const std::string& name, const std::string& value);
bool has_container_port(const nlohmann::json& container, std::int64_t port);
// {"name", "containerPort"} (port truncated to int32 as Go's int32(port)).
nlohmann::json container_port(const std::string& name, std::int64_t port);
void append_volume(nlohmann::json& pod, nlohmann::json volume);

// ---- marks (spec job-controller.md §5: "plugin-<name>" -> "<name>") ---------------------------

bool is_marked(const PluginEnv& env, const std::string& plugin);
void set_mark(PluginEnv& env, const std::string& plugin);
void clear_mark(PluginEnv& env, const std::string& plugin);

// ---- objects and API calls -------------------------------------------------------------------

// {apiVersion, kind, metadata: {name, namespace, ownerReferences: [controller ref to the job]}}
// (spec job-controller.md §0.6).
nlohmann::json owned_object(const Job& job, const kube::Resource& resource,
                            const std::string& name);
// The text an API error reports in events and logs.
std::string error_text(const kube::ApiError& error);

enum class Outcome { Existed, Created };
// GET; on NotFound create the object (AlreadyExists from a racing writer counts as existing).
api::Expected<Outcome> create_if_absent(PluginEnv& env, const kube::Resource& resource,
                                        const nlohmann::json& object);
// GET; on NotFound create the object (AlreadyExists counts as success). When it exists, calls
// update(existing), which edits the fetched object and returns true to PUT it back (the write
// carries the fetched resourceVersion; a Conflict is returned as an error for the sync to retry).
api::Status create_or_update(PluginEnv& env, const kube::Resource& resource,
                             const nlohmann::json& object,
                             const std::function<bool(nlohmann::json& existing)>& update);
// DELETE; NotFound is success.
api::Status delete_if_present(PluginEnv& env, const kube::Resource& resource,
                              const std::string& name);

}  // namespace vc::controllers::job::plugins

#pragma once
// Job plugins (spec job-controller.md §5): env, svc, ssh, ray, pytorch, tensorflow, mpi and
// hcclrank, enabled per Job by `spec.plugins: {<name>: [args...]}`.
//
// Hooks, as the job controller calls them:
//   on_pod_create  for every pod about to be created (the pod JSON already carries the labels
//                  and annotations of spec job-controller.md §0.4); mutates the pod only, no I/O;
//   on_job_add     while the job is Pending (initiateJob), on every such sync;
//   on_job_update  on syncs of jobs past Pending;
//   on_job_delete  on every kill.
// The job hooks create or delete the plugin's objects through env.client and keep the
// "plugin-<name>" marks in env.controlled_resources (the status being written by that pass).
// Every hook returns api::ok_status() or the error text; API errors are never thrown. The job
// hooks do nothing unless a plugin overrides them (hcclrank creates nothing and keeps no mark);
// MarkOnlyPlugin keeps the plugin's mark and nothing else.
//
// Threads: an instance is built per call site with make_plugins and used by one thread; hooks
// perform blocking API calls on the caller's thread. Plugins hold only their parsed arguments.

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/api/expected.h"
#include "common/kube/client.h"
#include "common/kube/object_writer.h"
#include "controllers/job/model/job.h"

namespace vc::controllers::job::plugins {

struct PluginEnv {
  kube::ObjectWriter& client;
  const Job& job;
  // status.controlledResources of the status this pass writes: "plugin-<name>" -> "<name>".
  std::map<std::string, std::string>& controlled_resources;
};

class Plugin {
 public:
  explicit Plugin(std::string name) : name_(std::move(name)) {}
  virtual ~Plugin() = default;

  // Its key in spec.plugins: "env", "svc", ...
  const std::string& name() const { return name_; }

  virtual api::Status on_pod_create(nlohmann::json& pod, const Job& job) = 0;
  virtual api::Status on_job_add(PluginEnv& /*env*/) { return api::ok_status(); }
  virtual api::Status on_job_delete(PluginEnv& /*env*/) { return api::ok_status(); }
  virtual api::Status on_job_update(PluginEnv& /*env*/) { return api::ok_status(); }

 private:
  std::string name_;
};

// A plugin that creates no objects (env, mpi, pytorch, tensorflow): on_job_add sets its
// "plugin-<name>" mark, on_job_delete clears it, on_job_update does nothing.
class MarkOnlyPlugin : public Plugin {
 public:
  using Plugin::Plugin;
  api::Status on_job_add(PluginEnv& env) final;
  api::Status on_job_delete(PluginEnv& env) final;
};

// One instance per spec.plugins entry (in that order: sorted by name), each with its arguments
// parsed; an unknown name is the error "failed to get plugin <name>". Argument parse problems are
// logged, not errors (as in Volcano).
api::Expected<std::vector<std::unique_ptr<Plugin>>> make_plugins(const JobSpec& spec);

// One plugin by name, or null for an unknown name.
std::unique_ptr<Plugin> make_plugin(const std::string& name, const std::vector<std::string>& args);

}  // namespace vc::controllers::job::plugins

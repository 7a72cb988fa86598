#include "webhook/admission/jobs/validate_job_create.h"

#include <algorithm>
#include <cstdint>
#include <set>

#include "common/api/label_validation.h"
#include "webhook/admission/jobs/job_checks.h"
#include "webhook/admission/jobs/k8s_names.h"
#include "webhook/admission/jobs/pod_template.h"
#include "webhook/admission/jobs/policies.h"

namespace vc::webhook::jobs {
namespace {

const std::set<std::string, std::less<>>& registered_plugins() {
  static const std::set<std::string, std::less<>> kPlugins{
      "ssh", "env", "svc", "tensorflow", "mpi", "pytorch", "hcclrank", "ray"};
  return kPlugins;
}

void check_queue(const JobSpec& spec, const ClusterView& cluster, CreateResult& result) {
  if (!cluster.online()) {
    result.warnings.push_back("queue " + spec.queue +
                              " was not checked: no cluster connection for lookups");
    return;
  }
  auto queue = cluster.get_queue(spec.queue);
  if (!queue) {
    result.message += " unable to find job queue: " + queue.error() + ";";
    return;
  }
  const std::string state = str_at(child_at(**queue, "status"), "state");
  if (state != "Open") {
    result.message += " can only submit job to queue with state `Open`, queue `" + spec.queue +
                      "` status is `" + state + "`;";
  }
  if (spec.queue == "root") {
    result.message += " can not submit job to root queue;";
    return;
  }
  std::size_t children = 0;
  for (const auto& q : cluster.list_queues()) {
    if (q && str_at(child_at(*q, "spec"), "parent") == spec.queue) ++children;
  }
  if (children > 0) {
    result.message += " can only submit job to leaf queue, queue `" + spec.queue + "` has " +
                      std::to_string(children) + " child queues;";
  }
}

}  // namespace

CreateResult validate_job_create(const Job& job, const std::string& ns, const ClusterView& cluster,
                                 const AdmissionOptions& options) {
  CreateResult result;
  const JobSpec& spec = job.spec;
  if (spec.tasks.empty()) {
    result.message = "No task specified in job spec";
    return result;
  }
  {
    auto mpi = std::find_if(spec.plugins.begin(), spec.plugins.end(),
                            [](const auto& p) { return p.first == "mpi"; });
    if (mpi != spec.plugins.end()) {
      const std::string master = mpi_master_name(mpi->second);
      bool found = false;
      for (const auto& t : spec.tasks) found = found || t.name == master;
      if (!found) {
        result.message = "The specified mpi master task was not found";
        return result;
      }
    }
  }
  std::string& msg = result.message;
  if (spec.network_topology && topology_conflicts(*spec.network_topology)) msg += kTopologyConflict;

  bool has_dependencies = false;
  std::int32_t total_replicas = 0;
  std::set<std::string> task_names;
  for (std::size_t i = 0; i < spec.tasks.size(); ++i) {
    const TaskSpec& task = spec.tasks[i];
    if (task.depends_on) has_dependencies = true;
    if (task.min_available && *task.min_available > task.replicas) {
      msg += " 'minAvailable' is greater than 'replicas' in task: " + task.name +
             ", job: " + job.name + ";";
    }
    total_replicas = static_cast<std::int32_t>(std::int64_t{total_replicas} + task.replicas);
    if (!task_names.insert(task.name).second) {
      msg += " duplicated task name " + task.name + ";";
      break;
    }
    if (auto err = validate_policies(task.policies, "spec.tasks.policies"); !err.empty()) {
      msg += err + valid_events_and_actions_suffix();
    }
    const std::string pod_name = job.name + "-" + task.name + "-" + std::to_string(i);
    if (auto errs = api::is_qualified_name(pod_name); !errs.empty()) {
      msg += "create pod with name " + pod_name + " validate failed " + go_string_list(errs) + ";";
    }
    msg += validate_task_template(task, i, ns, options);
    msg += validate_partition_policy(task, job.name);
  }
  if (auto errs = api::is_qualified_name(job.name); !errs.empty()) {
    msg += "create job with name " + job.name + " validate failed " + go_string_list(errs);
  }
  if (total_replicas < spec.min_available) {
    msg += " job 'minAvailable' should not be greater than total replicas in tasks;";
  }
  if (auto err = validate_policies(spec.policies, "spec.policies"); !err.empty()) {
    msg += err + valid_events_and_actions_suffix();
  }
  for (const auto& [name, _] : spec.plugins) {
    if (!registered_plugins().count(name)) msg += " unable to find job plugin: " + name + ";";
  }
  msg += validate_io(spec.volumes);
  check_queue(spec, cluster, result);
  if (has_dependencies && !tasks_form_dag(spec.tasks)) {
    msg += " job has dependencies between tasks, but doesn't form a directed acyclic graph(DAG);";
  }
  return result;
}

}  // namespace vc::webhook::jobs

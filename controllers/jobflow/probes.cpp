#include "controllers/jobflow/probes.h"

#include <algorithm>
#include <set>

namespace vc::controllers::jobflow {
namespace {

using nlohmann::json;

constexpr const char* kCompleted = volcano::phase::kCompleted;

// A string member at a JSON pointer, "" when absent or not a string (a pod list is read, never
// trusted to be well typed).
std::string string_at(const json& object, const json::json_pointer& at) {
  if (!object.contains(at)) return "";
  const json& v = object[at];
  return v.is_string() ? v.get<std::string>() : "";
}

// Every probed task name of a probe, in entry order.
std::vector<std::string> probed_tasks(const volcano::FlowProbe& probe) {
  std::vector<std::string> out;
  for (const auto& e : probe.http_get_list) out.push_back(e.task_name);
  for (const auto& e : probe.tcp_socket_list) out.push_back(e.task_name);
  for (const auto& e : probe.task_status_list) out.push_back(e.task_name);
  return out;
}

bool task_status_passes(const volcano::Job& job, const volcano::TaskStatusProbe& probe) {
  const volcano::TaskSpec* task = job.spec.task(probe.task_name);
  const auto counts = job.status.task_status_count.find(probe.task_name);
  if (task == nullptr || counts == job.status.task_status_count.end()) return false;
  const auto n = counts->second.find(probe.phase);
  return n != counts->second.end() && n->second >= std::max<std::int32_t>(task->replicas, 1);
}

// The targets' Jobs that have a task of this name (a Completed one passes outright: skipped).
struct Applicable {
  std::vector<const volcano::Job*> running;  // not Completed: the entry must pass on these
  bool any = false;                          // some target Job has the task
};

Applicable applicable(const std::string& task, const std::vector<const volcano::Job*>& jobs) {
  Applicable out;
  for (const volcano::Job* job : jobs) {
    if (job->spec.task(task) == nullptr) continue;
    out.any = true;
    if (job->status.phase != kCompleted) out.running.push_back(job);
  }
  return out;
}

}  // namespace

const char* kind_name(ProbeCheck::Kind kind) {
  return kind == ProbeCheck::Kind::kHttpGet ? "httpGet" : "tcpSocket";
}

std::string ProbeCheck::key() const {
  // \x1f cannot appear in a name; it keeps "a|b" + "c" apart from "a" + "b|c".
  std::string k = kind_name(kind);
  for (const std::string* part : {&namespace_, &job, &task, &path, &header.name, &header.value}) {
    k += '\x1f';
    k += *part;
  }
  return k + '\x1f' + std::to_string(port);
}

std::string ProbeCheck::describe() const {
  std::string out = std::string(kind_name(kind)) + " " + namespace_ + "/" + job + " task " + task +
                    " port " + std::to_string(port);
  if (kind == Kind::kHttpGet) out += " path " + (path.empty() ? std::string("/") : path);
  return out;
}

bool has_entries(const volcano::FlowProbe& probe) {
  return !probe.http_get_list.empty() || !probe.tcp_socket_list.empty() ||
         !probe.task_status_list.empty();
}

ProbeVerdict probe_verdict(const std::string& ns, const volcano::FlowDependsOn& depends_on,
                           const std::map<std::string, const volcano::Job*>& jobs,
                           const ProbeResults& results) {
  ProbeVerdict v;
  std::vector<const volcano::Job*> targets;
  for (const std::string& target : depends_on.targets) {
    const auto it = jobs.find(target);
    if (it == jobs.end() || it->second == nullptr) {
      v.waiting_on = "target " + target + " has no Job yet";
      return v;
    }
    targets.push_back(it->second);
  }
  const volcano::FlowProbe probe = depends_on.probe.value_or(volcano::FlowProbe{});
  const std::vector<std::string> tasks = probed_tasks(probe);

  // A target none of whose tasks is probed waits for completion, as without a probe.
  for (const volcano::Job* job : targets) {
    const bool probed = std::any_of(tasks.begin(), tasks.end(), [&](const std::string& t) {
      return job->spec.task(t) != nullptr;
    });
    if (!probed && job->status.phase != kCompleted) {
      v.waiting_on = "target Job " + job->name + " has no probed task and is not Completed";
      return v;
    }
  }

  std::string waiting;
  const auto hold = [&](const std::string& why) {
    if (waiting.empty()) waiting = why;
  };
  for (const auto& e : probe.task_status_list) {
    const Applicable a = applicable(e.task_name, targets);
    if (!a.any) hold("no target Job has task " + e.task_name);
    for (const volcano::Job* job : a.running) {
      if (!task_status_passes(*job, e)) {
        hold("task " + e.task_name + " of Job " + job->name + " is not all " + e.phase);
      }
    }
  }
  const auto network = [&](ProbeCheck::Kind kind, const std::string& task, std::int64_t port,
                           const std::string& path, const volcano::HttpHeader& header) {
    const Applicable a = applicable(task, targets);
    if (!a.any) hold("no target Job has task " + task);
    for (const volcano::Job* job : a.running) {
      ProbeCheck c{.kind = kind,
                   .namespace_ = ns,
                   .job = job->name,
                   .task = task,
                   .port = port,
                   .path = path,
                   .header = header};
      const auto r = results.find(c.key());
      if (r != results.end() && r->second) continue;
      hold(c.describe() + (r == results.end() ? " not checked yet" : " failed"));
      if (std::find(v.checks.begin(), v.checks.end(), c) == v.checks.end()) {
        v.checks.push_back(std::move(c));
      }
    }
  };
  for (const auto& e : probe.tcp_socket_list) {
    network(ProbeCheck::Kind::kTcpSocket, e.task_name, e.port, "", {});
  }
  for (const auto& e : probe.http_get_list) {
    network(ProbeCheck::Kind::kHttpGet, e.task_name, e.port, e.path, e.http_header);
  }
  v.ready = waiting.empty();
  v.waiting_on = std::move(waiting);
  if (v.ready) v.checks.clear();
  return v;
}

ProbeEndpoints probe_endpoints(const json& pod_list) {
  ProbeEndpoints out;
  const json* items =
      pod_list.is_object() && pod_list.contains("items") ? &pod_list["items"] : nullptr;
  if (items == nullptr || !items->is_array() || items->empty()) {
    out.error = "the task has no pods";
    return out;
  }
  std::set<std::string> seen;
  for (const json& pod : *items) {
    if (!pod.is_object()) continue;
    std::string name = string_at(pod, "/metadata/name"_json_pointer);
    if (name.empty()) name = "(unnamed)";
    const std::string phase = string_at(pod, "/status/phase"_json_pointer);
    const std::string ip = string_at(pod, "/status/podIP"_json_pointer);
    if (!string_at(pod, "/metadata/deletionTimestamp"_json_pointer).empty()) {
      continue;  // going away; its replacement is what the step waits for
    }
    if (phase != "Running") {
      out.error = "pod " + name + " is " + (phase.empty() ? std::string("without a phase") : phase);
      out.ips.clear();
      return out;
    }
    if (ip.empty()) {
      out.error = "pod " + name + " has no IP";
      out.ips.clear();
      return out;
    }
    if (seen.insert(ip).second) out.ips.push_back(ip);  // hostNetwork pods share the node's IP
  }
  if (out.ips.empty()) out.error = "the task has no pods";
  return out;
}

std::string probe_pod_selector(const ProbeCheck& check) {
  return std::string(volcano::keys::kJobName) + "=" + check.job + "," + volcano::keys::kTaskSpec +
         "=" + check.task;
}

}  // namespace vc::controllers::jobflow

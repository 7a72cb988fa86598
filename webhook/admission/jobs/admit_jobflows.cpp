#include <map>
#include <vector>

#include "webhook/admission/jobs/admit.h"
#include "webhook/admission/jobs/schema.h"
#include "webhook/admission/jobs/semantic.h"
#include "webhook/admission/request_checks.h"

namespace vc::webhook::jobs {
namespace {

using Graph = std::map<std::string, std::vector<std::string>>;

// Iterative depth-first search with an on-path mark: true when some cycle exists. Iterative so
// a long chain of flows cannot exhaust the stack.
bool has_cycle(const Graph& graph) {
  enum class Mark { Unseen, OnPath, Done };
  std::map<std::string, Mark> marks;
  for (const auto& [root, _] : graph) {
    if (marks[root] != Mark::Unseen) continue;
    // (vertex, index of the next edge to follow)
    std::vector<std::pair<const std::string*, std::size_t>> stack{{&root, 0}};
    marks[root] = Mark::OnPath;
    while (!stack.empty()) {
      auto& [vertex, next] = stack.back();
      const auto& edges = graph.at(*vertex);
      if (next == edges.size()) {
        marks[*vertex] = Mark::Done;
        stack.pop_back();
        continue;
      }
      const std::string& target = edges[next++];
      Mark& m = marks[target];
      if (m == Mark::OnPath) return true;
      if (m == Mark::Unseen) {
        m = Mark::OnPath;
        stack.emplace_back(&graph.find(target)->first, 0);
      }
    }
  }
  return false;
}

}  // namespace

std::string job_flow_problems(const json& job_flow) {
  Graph graph;  // flow name -> the flows it depends on; a repeated name keeps the last entry
  const json& flows = child_at(child_at(job_flow, "spec"), "flows");
  if (flows.is_array()) {
    for (const auto& f : flows) {
      graph[str_at(f, "name")] = strings_at(child_at(f, "dependsOn"), "targets");
    }
  }
  // Volcano reports the first unknown target in Go map order; we report the first in name order.
  for (const auto& [_, targets] : graph) {
    for (const auto& t : targets) {
      if (!graph.count(t)) return "jobflow Flow is not DAG: vertex is not defined: " + t;
    }
  }
  if (has_cycle(graph)) return "jobflow Flow is not DAG";
  return {};
}

AdmissionResponse admit_jobflows_validate(const AdmissionRequest& request, const ClusterView&,
                                          const AdmissionOptions&) {
  if (auto err = expect_resource(request, kJobFlowsResource)) return AdmissionResponse::deny(*err);
  auto flow = checked_object(request.object, schema::job_flow(), request.nesting_bounded);
  if (!flow) return AdmissionResponse::deny(flow.error());
  if (request.operation != "CREATE" && request.operation != "UPDATE") {
    return AdmissionResponse::deny("expect operation to be 'CREATE' or 'UPDATE'");
  }
  std::string msg = job_flow_problems(**flow);
  if (msg.empty()) return AdmissionResponse::allow();
  return AdmissionResponse::deny(go_trim_space(msg));
}

}  // namespace vc::webhook::jobs

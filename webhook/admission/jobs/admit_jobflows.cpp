#include <map>
#include <vector>

#include "common/volcano/go_types.h"
#include "webhook/admission/jobs/admit.h"
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

std::string job_flow_problems(const volcano::JobFlow& job_flow) {
  Graph graph;  // flow name -> the flows it depends on; a repeated name keeps the last entry
  for (const volcano::Flow& f : job_flow.spec.flows) {
    graph[f.name] = f.depends_on ? f.depends_on->targets : std::vector<std::string>{};
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
  auto flow =
      checked_object(request.object, volcano::go_types::job_flow(), request.nesting_bounded);
  if (!flow) return AdmissionResponse::deny(flow.error());
  if (request.operation != "CREATE" && request.operation != "UPDATE") {
    return AdmissionResponse::deny("expect operation to be 'CREATE' or 'UPDATE'");
  }
  auto typed = volcano::decode_or_error<volcano::JobFlow>([&] {
    volcano::JobFlow out;
    volcano::decode_job_flow(**flow, out, volcano::FieldPath(), volcano::TemplateMode::kBorrow);
    return out;
  });
  if (!typed) return AdmissionResponse::deny(typed.error());
  std::string msg = job_flow_problems(*typed);
  if (msg.empty()) return AdmissionResponse::allow();
  return AdmissionResponse::deny(go_trim_space(msg));
}

}  // namespace vc::webhook::jobs

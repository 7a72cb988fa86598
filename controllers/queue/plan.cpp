#include "controllers/queue/plan.h"

#include <fmt/format.h>

#include "controllers/queue/state_machine.h"

namespace vc::controllers::queue {

namespace {

std::string annotate_failure(const std::string& queue) {
  return fmt::format("Failed to update annotations of queue {}: ", queue);
}

// Mark every child that is neither Closed nor Closing as closed by its parent and ask for its
// CLOSE (spec controller-manager.md §2.6, CLOSE step 1).
void close_open_children(const Snapshot& s, std::vector<Step>& steps) {
  for (const QueueInfo& child : s.children) {
    if (is_closed_or_closing(child.state)) continue;
    steps.push_back(step::Annotate{child.name, "true", annotate_failure(child.name)});
    steps.push_back(step::Enqueue{Request{child.name, "", std::string(kCloseQueueAction)}});
  }
}

void plan_sync(const Snapshot& s, Target target, std::vector<Step>& steps) {
  const QueueInfo& q = s.queue;
  // 1. Parent defaulting.
  if (q.name != kRootQueue && q.parent.empty()) {
    steps.push_back(step::DefaultParent{q.resource_version});
  }
  // 2-3. Counts feed the gauges only; they are not written to status
  // (spec controller-manager.md §2.7).
  steps.push_back(step::PublishCounts{count_phases(s.podgroup_phases)});
  // 4. The state.
  const std::string to = to_string(resolve(target, !s.podgroup_phases.empty()));
  if (to != q.state) steps.push_back(step::ApplyState{q.state, to, "", "", "", ""});
  // A closed or closing queue keeps its children closed: CLOSE writes its own state before it
  // marks its children, so a CLOSE that failed half-way is finished by the next SYNC.
  if (is_closed_or_closing(to)) close_open_children(s, steps);
  // 5. Hierarchy.
  if (q.name == kRootQueue) return;
  const std::string parent = effective_parent(q);
  if (!s.parent) {
    steps.push_back(step::Fail{parent_missing_message(q.name, parent)});
    return;
  }
  if (is_closed_or_closing(s.parent->state) && !is_closed_or_closing(to)) {
    steps.push_back(step::Annotate{q.name, "true", annotate_failure(q.name)});
    steps.push_back(step::Enqueue{Request{q.name, "", std::string(kCloseQueueAction)}});
  } else if (s.parent->state == "Open" && is_closed_or_closing(to) &&
             q.closed_by_parent == "true") {
    steps.push_back(step::Enqueue{Request{q.name, "", std::string(kOpenQueueAction)}});
  }
}

void plan_open(const Snapshot& s, std::vector<Step>& steps) {
  const QueueInfo& q = s.queue;
  if (q.state == "Open") return;  // the table sends Open queues to SYNC; kept for safety
  // The parent as the API server has it now, whatever the cache shows (Volcano reads its lister).
  // Just after a write the cache can show the parent Open when it was closed (a child reopened
  // then would stay open under a closed parent), or still Closed or Closing after our own OPEN of
  // it (this OPEN, which that OPEN asked for, would fail and retry with backoff, and end in a
  // Warning if the lag outlasted the retries), or not yet show a parent just created. A parent
  // that really is missing, Closed or Closing fails the OPEN with Volcano's error all the same.
  if (!q.parent.empty() && q.parent != kRootQueue) {
    steps.push_back(step::RequireParentOpen{q.parent});
  }
  // This queue's own state first, its children after: a child's OPEN checks that its parent is
  // open, which it then is.
  steps.push_back(step::ApplyState{
      q.state, "Open", std::string(kOpenQueueAction),
      fmt::format("Update queue status from {} to Open failed for ", q.state), "", ""});
  for (const QueueInfo& child : s.children) {
    if (child.closed_by_parent == "true") {
      steps.push_back(step::Enqueue{Request{child.name, "", std::string(kOpenQueueAction)}});
    }
  }
  if (q.closed_by_parent != "false") {
    steps.push_back(step::Annotate{q.name, "false", annotate_failure(q.name)});
  }
}

void plan_close(const Snapshot& s, std::vector<Step>& steps) {
  const QueueInfo& q = s.queue;
  if (!is_closed_or_closing(q.state) && q.name == kRootQueue) {
    steps.push_back(step::Note{"Root queue cannot be closed"});
    return;
  }
  // This queue's own state first, its children after (Volcano marks the children first): a
  // child's SYNC that runs in between would otherwise still find its parent Open and reopen it.
  const std::string to = to_string(resolve(Target::ClosedIfEmpty, !s.podgroup_phases.empty()));
  if (to != q.state) {
    steps.push_back(step::ApplyState{q.state, to, std::string(kCloseQueueAction),
                                     "Close queue failed for ", std::string(kCloseQueueAction),
                                     "Close queue succeed"});
  }
  if (!is_closed_or_closing(q.state)) close_open_children(s, steps);
}

}  // namespace

std::string parent_missing_message(const std::string& queue, const std::string& parent) {
  // The NotFound text of a Go lister, for parity of error texts.
  return fmt::format(
      "Failed to get parent queue {} of queue {}: queues.scheduling.volcano.sh \"{}\" not found",
      parent, queue, parent);
}

std::string parent_closed_message(const std::string& queue, const std::string& parent) {
  return fmt::format(
      "Failed to open queue {} because its parent queue {} is closing or closed. Open the parent "
      "queue first.",
      queue, parent);
}

std::string effective_parent(const QueueInfo& queue) {
  if (queue.name == kRootQueue) return {};
  return queue.parent.empty() ? std::string(kRootQueue) : queue.parent;
}

Plan plan_request(const Request& request, const Snapshot& snapshot) {
  Plan plan{snapshot.queue, {}};
  const std::optional<QueueState> state = parse_state(snapshot.queue.state);
  if (!state) {
    plan.steps.push_back(step::Fail{
        fmt::format("queue {} state {} is invalid", snapshot.queue.name, snapshot.queue.state)});
    return plan;
  }
  const Transition t = transition(*state, request.action);
  switch (t.procedure) {
    case Procedure::Sync:
      plan_sync(snapshot, t.target, plan.steps);
      break;
    case Procedure::Open:
      plan_open(snapshot, plan.steps);
      break;
    case Procedure::Close:
      plan_close(snapshot, plan.steps);
      break;
  }
  return plan;
}

namespace {

struct Describe {
  std::string operator()(const step::DefaultParent&) const { return "DefaultParent root"; }
  std::string operator()(const step::PublishCounts& s) const {
    return fmt::format("PublishCounts pending={} running={} unknown={} inqueue={} completed={}",
                       s.counts.pending, s.counts.running, s.counts.unknown, s.counts.inqueue,
                       s.counts.completed);
  }
  std::string operator()(const step::ApplyState& s) const {
    return fmt::format("ApplyState {}->{}", s.from.empty() ? "\"\"" : s.from, s.to);
  }
  std::string operator()(const step::Annotate& s) const {
    return fmt::format("Annotate {} closed-by-parent={}", s.queue, s.value);
  }
  std::string operator()(const step::Enqueue& s) const {
    return fmt::format("Enqueue {} {}", s.request.queue, s.request.action);
  }
  std::string operator()(const step::RequireParentOpen& s) const {
    return "RequireParentOpen " + s.parent;
  }
  std::string operator()(const step::Fail& s) const { return "Fail " + s.message; }
  std::string operator()(const step::Note& s) const { return "Note " + s.message; }
};

}  // namespace

std::vector<std::string> describe(const Plan& plan) {
  std::vector<std::string> out;
  out.reserve(plan.steps.size());
  for (const Step& s : plan.steps) out.push_back(std::visit(Describe{}, s));
  return out;
}

}  // namespace vc::controllers::queue

#include "controllers/explain/diagnose.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <set>

#include "common/api/resource_list.h"
#include "controllers/explain/cluster_room.h"
#include "controllers/explain/json_read.h"
#include "controllers/explain/placement.h"
#include "controllers/explain/pod_trouble.h"

namespace vc::controllers::explain {
namespace {

using nlohmann::json;

// A Job's maxRetry when it sets none (the Job webhook's default).
constexpr int kDefaultMaxRetry = 3;
// How long a new object may lack its next step before that counts as a stop: the controller
// makes a Job's PodGroup, and the scheduler looks at a new PodGroup, within a few seconds.
constexpr std::chrono::seconds kGrace{20};

// Whether object was created less than kGrace before the snapshot.
bool young(const json& object, api::TimePoint now) {
  const auto created = api::parse_time(str(object, {"metadata", "creationTimestamp"}));
  return created && now - *created < kGrace;
}

bool job_finished_badly(const std::string& phase) {
  return phase == "Failed" || phase == "Aborted" || phase == "Terminated";
}

bool podgroup_admitted(const std::string& phase) {
  return !phase.empty() && phase != "Pending";
}

// "Type=Status reason: message" for each condition of a PodGroup or pod that says something.
std::vector<std::string> condition_lines(const json& object, std::string_view prefix) {
  std::vector<std::string> out;
  for (const json& c : array_at(object, {"status", "conditions"})) {
    const std::string type = str(c, {"type"});
    const std::string status = str(c, {"status"});
    if (type.empty() || (type == "Scheduled" && status == "True")) continue;
    std::string line = std::string(prefix) + " condition " + type + "=" + status;
    if (const std::string reason = str(c, {"reason"}); !reason.empty()) line += " (" + reason + ")";
    if (const std::string message = str(c, {"message"}); !message.empty()) line += ": " + message;
    out.push_back(std::move(line));
  }
  return out;
}

// The Warning events (and, with all_types, every event) on one object, newest last, at most
// `limit`, as "event on <what>: <reason>: <message> (xN)".
std::vector<std::string> event_lines(const Snapshot& s, const json& object, std::string_view what,
                                     std::size_t limit, bool all_types = false) {
  const std::string uid = str(object, {"metadata", "uid"});
  const std::string name = str(object, {"metadata", "name"});
  std::vector<const json*> hits;
  for (const json& e : s.events) {
    const std::string involved_uid = str(e, {"involvedObject", "uid"});
    const bool same = !uid.empty() && !involved_uid.empty()
                          ? involved_uid == uid
                          : str(e, {"involvedObject", "name"}) == name;
    if (!same || (!all_types && str(e, {"type"}) != "Warning")) continue;
    hits.push_back(&e);
  }
  std::stable_sort(hits.begin(), hits.end(),
                   [](const json* a, const json* b) { return event_time(*a) < event_time(*b); });
  if (hits.size() > limit) hits.erase(hits.begin(), hits.end() - static_cast<long>(limit));
  std::vector<std::string> out;
  for (const json* e : hits) {
    std::string line =
        "event on " + std::string(what) + ": " + str(*e, {"reason"}) + ": " + str(*e, {"message"});
    if (const long long n = integer(*e, {"count"}, 1); n > 1)
      line += " (x" + std::to_string(n) + ")";
    out.push_back(std::move(line));
  }
  return out;
}

void append(std::vector<std::string>& to, std::vector<std::string> more) {
  for (auto& m : more) to.push_back(std::move(m));
}

const json* find_queue(const Snapshot& s, const std::string& name) {
  for (const json& q : s.queues) {
    if (str(q, {"metadata", "name"}) == name) return &q;
  }
  return nullptr;
}

std::string queue_state(const json& q) {
  const std::string state = str(q, {"status", "state"});
  return state.empty() ? "Open" : state;  // a queue not yet seen by a controller is open
}

// The pods of the snapshot that are neither deleted nor finished.
bool live(const json& pod) {
  const std::string phase = str(pod, {"status", "phase"});
  return !pod_deleted(pod) && phase != "Succeeded" && phase != "Failed";
}

struct Builder {
  const Snapshot& s;
  Explanation x;

  Link& add(std::string name, LinkState state, std::string summary) {
    x.chain.push_back(Link{std::move(name), state, std::move(summary), "", {}, ""});
    return x.chain.back();
  }

  // Marks the last link as the stop, with the verdict it implies, lists the links after it as
  // not reached, and returns the explanation.
  Explanation stop(Verdict verdict, std::string headline) {
    x.stop = static_cast<int>(x.chain.size()) - 1;
    x.verdict = verdict;
    x.headline = std::move(headline);
    const auto& names = link_names();
    auto next = std::find(names.begin(), names.end(), x.chain.back().name);
    if (next != names.end()) ++next;
    for (; next != names.end(); ++next)
      x.chain.push_back(Link{*next, LinkState::NotReached, "", "", {}, ""});
    return std::move(x);
  }

  Explanation through(Verdict verdict, std::string headline) {
    x.verdict = verdict;
    x.headline = std::move(headline);
    return std::move(x);
  }
};

std::string job_summary(const json& job) {
  const json& st = at(job, {"status"});
  std::string phase = str(job, {"status", "state", "phase"});
  if (phase.empty()) phase = "(no status yet)";
  return phase + ": " + std::to_string(integer(st, {"running"}, 0)) + " running, " +
         std::to_string(integer(st, {"pending"}, 0)) + " pending, " +
         std::to_string(integer(st, {"succeeded"}, 0)) + " succeeded, " +
         std::to_string(integer(st, {"failed"}, 0)) + " failed; minAvailable " +
         std::to_string(integer(job, {"spec", "minAvailable"}, 0)) + ", retries " +
         std::to_string(integer(st, {"retryCount"}, 0)) + "/" +
         std::to_string(integer(job, {"spec", "maxRetry"}, kDefaultMaxRetry));
}

std::string podgroup_summary(const json& pg) {
  std::string phase = str(pg, {"status", "phase"});
  if (phase.empty()) phase = "(no phase yet)";
  return str(pg, {"metadata", "name"}) + ": " + phase + ", minMember " +
         std::to_string(integer(pg, {"spec", "minMember"}, 0)) + ", queue " +
         str_or(pg, {"spec", "queue"}, "default") + ", minResources " +
         api::describe(schedulable(resources(pg, {"spec", "minResources"})));
}

// Job link. Returns an explanation when the chain ends at the Job.
std::optional<Explanation> job_link(Builder& b) {
  const json& job = b.s.job;
  if (job.is_null()) return std::nullopt;
  const std::string phase = str(job, {"status", "state", "phase"});
  Link& l = b.add("Job", LinkState::Through, job_summary(job));
  if (phase == "Completed") {
    return b.through(Verdict::Finished, "the job completed");
  }
  if (job_finished_badly(phase)) {
    l.state = LinkState::Broken;
    const long long retries = integer(job, {"status", "retryCount"}, 0);
    const long long max_retry = integer(job, {"spec", "maxRetry"}, kDefaultMaxRetry);
    l.why = retries >= max_retry && max_retry > 0
                ? "the job was restarted by its policies " + std::to_string(retries) +
                      " times, reached maxRetry " + std::to_string(max_retry) + ", and ended " +
                      phase
                : "the job ended " + phase;
    if (const std::string r = str(job, {"status", "state", "reason"}); !r.empty()) {
      l.evidence.push_back("status.state.reason: " + r);
    }
    if (const std::string m = str(job, {"status", "state", "message"}); !m.empty()) {
      l.evidence.push_back("status.state.message: " + m);
    }
    append(l.evidence, event_lines(b.s, job, "the job", 5));
    for (const json& pod : b.s.pods) {
      if (str(pod, {"status", "phase"}) != "Failed") continue;
      l.evidence.push_back("pod " + str(pod, {"metadata", "name"}) + " failed" +
                           container_exit_summary(pod));
      if (l.evidence.size() > 12) break;
    }
    l.action =
        "read the failed pods' logs (kubectl logs POD); fix the cause, then create the job "
        "again (a finished job does not restart)";
    return b.stop(Verdict::Failed, l.why);
  }
  if (phase == "Restarting" || phase == "Aborting" || phase == "Terminating" ||
      phase == "Completing") {
    l.state = LinkState::Moving;
  }
  return std::nullopt;
}

std::optional<Explanation> podgroup_link(Builder& b) {
  const json& pg = b.s.podgroup;
  if (pg.is_null() && young(b.s.job, b.s.now)) {
    b.add("PodGroup", LinkState::Moving, "not made yet: the job is new");
    return b.through(Verdict::Progressing, "the job is new; its PodGroup is being made");
  }
  if (pg.is_null()) {
    Link& l = b.add("PodGroup", LinkState::Broken, "none");
    l.why =
        "the job controller has not made the job's PodGroup, so the scheduler has nothing to "
        "admit";
    append(l.evidence, event_lines(b.s, b.s.job, "the job", 5, true));
    if (l.evidence.empty()) l.evidence.push_back("no event on the job");
    l.action =
        "check that vc-controller-manager runs and leads (its logs name the job); a job "
        "the webhook admitted normally gets its PodGroup within seconds";
    return b.stop(Verdict::ConfigurationError, l.why);
  }
  b.add("PodGroup", LinkState::Through, podgroup_summary(pg));
  return std::nullopt;
}

// Queue link: the queue exists, it and its ancestors are open, and their capability can hold
// the gang's minimum.
std::optional<Explanation> queue_link(Builder& b, const std::string& queue_name,
                                      const api::ResourceList& minimum, bool admitted) {
  const json* q = find_queue(b.s, queue_name);
  if (q == nullptr) {
    Link& l = b.add("Queue", LinkState::Broken, queue_name + ": not found");
    l.why = "queue " + queue_name + " does not exist";
    l.action = "create the queue, or set spec.queue to an existing open queue";
    return b.stop(Verdict::ConfigurationError, l.why);
  }
  Link& l =
      b.add("Queue", LinkState::Through,
            queue_name + ": " + queue_state(*q) + ", capability " +
                api::describe(schedulable(resources(*q, {"spec", "capability"}))) + ", allocated " +
                api::describe(schedulable(resources(*q, {"status", "allocated"}))));
  if (admitted) return std::nullopt;  // the scheduler let it in: the queue did not stop it
  // The queue and its ancestors, nearest first (spec.parent; the root has none).
  std::vector<const json*> line{q};
  std::set<std::string> seen{queue_name};
  for (std::string parent = str(*q, {"spec", "parent"}); !parent.empty() && !seen.contains(parent);
       parent = str(*line.back(), {"spec", "parent"})) {
    seen.insert(parent);
    const json* p = find_queue(b.s, parent);
    if (p == nullptr) break;
    line.push_back(p);
  }
  for (const json* each : line) {
    const std::string name = str(*each, {"metadata", "name"});
    if (const std::string state = queue_state(*each); state != "Open") {
      l.state = LinkState::Broken;
      l.why = name == queue_name ? "queue " + name + " is " + state + ": it admits no job"
                                 : "queue " + queue_name + "'s ancestor " + name + " is " + state +
                                       ": it admits no job";
      l.evidence.push_back("queue " + name + " status.state: " + state);
      l.action =
          "open the queue (vcctl queue operate -a open -n " + name + ") or submit to an open one";
      return b.stop(Verdict::ConfigurationError, l.why);
    }
    const api::ResourceList capability = schedulable(resources(*each, {"spec", "capability"}));
    if (capability.empty()) continue;
    if (const auto over = exceeding(minimum, capability, api::MissingDimension::Unlimited);
        !over.empty()) {
      l.state = LinkState::Broken;
      l.why = "the gang's minimum needs more than queue " + name + "'s capability (" + over +
              "): it can never be admitted there";
      l.evidence.push_back("gang minimum (PodGroup spec.minResources): " + api::describe(minimum));
      l.evidence.push_back("queue " + name + " spec.capability: " + api::describe(capability));
      l.action = "lower the job's minAvailable or its requests, or raise the queue's capability";
      return b.stop(Verdict::ConfigurationError, l.why);
    }
  }
  return std::nullopt;
}

// Fills l with a placement problem of `who` (a task or a pod) and returns true, or returns false
// when some node passes both its nodeSelector and its taints.
bool placement_problem(Link& l, const PlacementCheck& placement, const std::string& who) {
  if (placement.selector_matches == 0) {
    if (placement.affinity.empty()) {
      l.why = who + "'s nodeSelector (" + placement.selector + ") matches no node";
      l.action = "fix the task's nodeSelector, or label a node to match it";
    } else if (placement.selector.empty()) {
      l.why = who + "'s required node affinity (" + placement.affinity + ") matches no node";
      l.action = "fix the task's node affinity, or label a node to match it";
    } else {
      l.why = who + "'s nodeSelector (" + placement.selector + ") and required node affinity (" +
              placement.affinity + ") together match no node";
      l.action = "fix the task's nodeSelector or node affinity, or label a node to match both";
    }
    return true;
  }
  if (placement.tolerated == 0) {
    l.why = "every node " + who + " may use has a taint it does not tolerate (" +
            placement.untolerated_taint + ")";
    l.action = "add a toleration for the taint to the task's template, or remove the taint";
    return true;
  }
  return false;
}

// Fills l and returns true when pod (a pod, or a task's template as {"spec": ...}) asks for more
// than the whole allocatable of every node in room (the nodes it may use): no waiting makes it
// fit.
bool too_big_for_any_node(Link& l, const json& pod, const ClusterRoom& room,
                          const std::string& who) {
  const api::ResourceList need = schedulable(pod_requests_of(pod));
  std::string example;
  for (const NodeRoom& n : room.nodes) {
    const std::string over = exceeding(need, n.allocatable, api::MissingDimension::Zero);
    if (over.empty()) return false;
    if (example.empty()) example = "node " + n.name + ": " + over;
  }
  if (example.empty()) return false;  // no schedulable node to compare with
  l.why = who + " requests " + api::describe(need) +
          ", more than any node it may use has in all (" + example + ")";
  l.action = "lower the task's requests, or add nodes large enough for one of its pods";
  return true;
}

// Enqueue link, for a PodGroup the scheduler has not admitted: why not, with the numbers.
Explanation enqueue_stop(Builder& b, const json& queue, const api::ResourceList& minimum) {
  const json& pg = b.s.podgroup;
  Link& l = b.add("Enqueue", LinkState::Waiting,
                  "PodGroup " + str_or(pg, {"status", "phase"}, "(no phase)") +
                      ": not admitted by the scheduler yet");
  // Each task's placement once: a task no node can take stops here; the room counted is that
  // of the nodes some task may use (every schedulable node for a PodGroup without a Job).
  const ClusterRoom all_nodes = cluster_room(b.s.nodes, b.s.node_pods);
  std::set<std::string> eligible;
  const json& tasks = array_at(b.s.job, {"spec", "tasks"});
  for (const json& t : tasks) {
    const json pseudo_pod{{"spec", at(t, {"template", "spec"})}};
    const std::string who = "task " + str(t, {"name"});
    const PlacementCheck placement = check_placement(pseudo_pod, b.s.nodes);
    if (placement_problem(l, placement, who) ||
        too_big_for_any_node(l, pseudo_pod, restrict_to(all_nodes, placement.eligible),
                             "each pod of " + who)) {
      l.state = LinkState::Broken;
      return b.stop(Verdict::ConfigurationError, l.why);
    }
    eligible.insert(placement.eligible.begin(), placement.eligible.end());
  }
  const ClusterRoom room = tasks.empty() ? all_nodes : restrict_to(all_nodes, eligible);
  const std::string qname = str(queue, {"metadata", "name"});
  const api::ResourceList capability = schedulable(resources(queue, {"spec", "capability"}));
  const api::ResourceList allocated = schedulable(resources(queue, {"status", "allocated"}));
  l.evidence.push_back("gang minimum (PodGroup spec.minResources, minMember " +
                       std::to_string(integer(pg, {"spec", "minMember"}, 0)) +
                       "): " + api::describe(minimum));
  if (!capability.empty()) {
    l.evidence.push_back("queue " + qname + ": capability " + api::describe(capability) +
                         ", allocated " + api::describe(allocated));
  }
  l.evidence.push_back("the " + std::to_string(room.nodes.size()) +
                       " node(s) its pods may use: allocatable " +
                       api::describe(only(room.allocatable, minimum)) + ", free " +
                       api::describe(only(room.free, minimum)));
  for (const NodeRoom& n : room.nodes) {
    if (l.evidence.size() >= 12) break;
    l.evidence.push_back("node " + n.name + ": free " + api::describe(only(n.free, minimum)));
  }
  append(l.evidence, condition_lines(pg, "PodGroup"));
  // The enqueue step's refusals are Normal events (spec scheduler-diagnostics.md §4).
  append(l.evidence, event_lines(b.s, pg, "the PodGroup", 3, true));

  if (const auto over = exceeding(minimum, room.allocatable, api::MissingDimension::Zero);
      !over.empty()) {
    l.state = LinkState::Broken;
    l.why =
        "the gang's minimum is more than the nodes its pods may use have, even with nothing "
        "else running (" +
        over + ")";
    l.action = "lower the job's minAvailable or its requests, or add nodes";
    return b.stop(Verdict::ConfigurationError, l.why);
  }
  if (!capability.empty()) {
    // What the queue has left, in the dimensions it limits.
    const api::ResourceList left = only(api::sub(capability, allocated), capability);
    if (const auto over = exceeding(minimum, left, api::MissingDimension::Unlimited);
        !over.empty()) {
      l.why = "queue " + qname + " has too little of its capability left for the gang (" + over +
              "); it waits for the queue's running jobs to finish";
      l.action = "wait, or raise queue " + qname + "'s capability, or submit to another queue";
      return b.stop(Verdict::WaitingForCapacity, l.why);
    }
  }
  if (const auto over = exceeding(minimum, room.free, api::MissingDimension::Zero); !over.empty()) {
    l.why = "the nodes its pods may use have too little free room for the gang's minimum (" + over +
            "); it waits for running pods to finish";
    l.action = "wait for running jobs to finish, or add nodes, or lower the job's minAvailable";
    return b.stop(Verdict::WaitingForCapacity, l.why);
  }
  l.why =
      "its nodes have room in total, but the scheduler has not admitted the gang yet "
      "(its queue's share, its priority, or room split over nodes); see the evidence";
  l.action = "wait a scheduling period; if it stays Pending, read the PodGroup's conditions";
  return b.stop(Verdict::WaitingForCapacity, l.why);
}

// The number of pods the job's tasks ask for.
long long expected_pods(const json& job) {
  long long n = 0;
  for (const json& t : array_at(job, {"spec", "tasks"})) n += integer(t, {"replicas"}, 0);
  return n;
}

std::optional<Explanation> pods_link(Builder& b) {
  const json& job = b.s.job;
  long long created = 0;
  for (const json& p : b.s.pods) {
    if (!pod_deleted(p)) ++created;
  }
  if (job.is_null()) {
    b.add("Pods", LinkState::Through, std::to_string(created) + " pod(s)");
    return std::nullopt;
  }
  const long long want = expected_pods(job);
  // Pods still to come: the Job counts its finished pods too, and a task may have finished pods
  // that were removed; compare against the status counts when they are higher.
  const json& st = at(job, {"status"});
  const long long accounted =
      std::max(created, integer(st, {"succeeded"}, 0) + integer(st, {"failed"}, 0) +
                            integer(st, {"running"}, 0) + integer(st, {"pending"}, 0));
  Link& l = b.add("Pods", LinkState::Through,
                  std::to_string(created) + " of " + std::to_string(want) + " pod(s) created");
  if (accounted >= want) return std::nullopt;
  // A task template naming a PriorityClass that does not exist: the API server refuses its pods.
  std::set<std::string> classes;
  for (const json& pc : b.s.priority_classes) classes.insert(str(pc, {"metadata", "name"}));
  for (const json& t : array_at(job, {"spec", "tasks"})) {
    const std::string pc = str(t, {"template", "spec", "priorityClassName"});
    if (pc.empty() || classes.contains(pc)) continue;
    l.state = LinkState::Broken;
    l.why = "task " + str(t, {"name"}) + " names PriorityClass " + pc +
            ", which does not exist: the API server refuses its pods";
    append(l.evidence, event_lines(b.s, job, "the job", 3));
    l.action = "create PriorityClass " + pc + " or fix the task's priorityClassName";
    return b.stop(Verdict::ConfigurationError, l.why);
  }
  const std::vector<std::string> events = event_lines(b.s, job, "the job", 5);
  if (!events.empty()) {
    l.state = LinkState::Broken;
    l.why = "the job controller could not create all pods; the job's events say why";
    l.evidence = events;
    l.action = "fix what the events name; the controller retries";
    return b.stop(Verdict::ConfigurationError, l.why);
  }
  l.state = LinkState::Moving;
  return std::nullopt;
}

// Whether the scheduler has said it cannot place pod: its PodScheduled=False condition, a
// FailedScheduling event on it, or the PodGroup's Unschedulable=True condition
// (spec scheduler-diagnostics.md §2, §6).
bool scheduler_reported(const Snapshot& s, const json& pod) {
  const auto has_condition = [](const json& object, std::string_view type,
                                std::string_view status) {
    for (const json& c : array_at(object, {"status", "conditions"})) {
      if (str(c, {"type"}) == type && str(c, {"status"}) == status) return true;
    }
    return false;
  };
  if (has_condition(pod, "PodScheduled", "False") ||
      has_condition(s.podgroup, "Unschedulable", "True")) {
    return true;
  }
  const std::string uid = str(pod, {"metadata", "uid"});
  return std::any_of(s.events.begin(), s.events.end(), [&](const json& e) {
    return str(e, {"involvedObject", "uid"}) == uid && str(e, {"reason"}) == "FailedScheduling";
  });
}

// Binding link: pods the scheduler has not placed.
std::optional<Explanation> binding_link(Builder& b) {
  std::vector<const json*> unbound;
  for (const json& p : b.s.pods) {
    if (live(p) && str(p, {"spec", "nodeName"}).empty()) unbound.push_back(&p);
  }
  Link& l = b.add("Binding", LinkState::Through,
                  unbound.empty() ? "every pod is on a node"
                                  : std::to_string(unbound.size()) + " pod(s) not on a node");
  if (unbound.empty()) return std::nullopt;
  const json& pod = *unbound.front();
  const std::string pod_name = str(pod, {"metadata", "name"});
  append(l.evidence, condition_lines(pod, "pod " + pod_name));
  append(l.evidence, event_lines(b.s, pod, "pod " + pod_name, 3));
  if (!b.s.podgroup.is_null()) {
    append(l.evidence, condition_lines(b.s.podgroup, "PodGroup"));
  }

  const PlacementCheck placement = check_placement(pod, b.s.nodes);
  const ClusterRoom room = restrict_to(cluster_room(b.s.nodes, b.s.node_pods), placement.eligible);
  if (placement_problem(l, placement, "pod " + pod_name) ||
      too_big_for_any_node(l, pod, room, "pod " + pod_name)) {
    l.state = LinkState::Broken;
    return b.stop(Verdict::ConfigurationError, l.why);
  }
  // Nothing about the nodes rules the pods out: they wait for room, or for the scheduler. The
  // room on the nodes they may use, against what the unbound pods need.
  const api::ResourceList pod_need = schedulable(pod_requests_of(pod));
  api::ResourceList unbound_need;
  std::vector<api::ResourceList> each_need;
  for (const json* p : unbound) {
    each_need.push_back(schedulable(pod_requests_of(*p)));
    api::add_to(unbound_need, each_need.back());
  }
  const api::ResourceList free = only(room.free, pod_need);
  std::string per_node;
  for (const NodeRoom& n : room.nodes) {
    if (!per_node.empty()) per_node += "; ";
    per_node += n.name + " " + api::describe(only(n.free, pod_need));
  }
  const std::string short_by = exceeding(unbound_need, free, api::MissingDimension::Zero);
  // Enough room in total, yet not on any one node for each pod (or no pod slot left there).
  const std::size_t fit = short_by.empty() ? pods_that_fit(each_need, room.nodes) : 0;
  const bool split = short_by.empty() && fit < unbound.size();
  if (short_by.empty() && !split && !scheduler_reported(b.s, pod)) {
    l.state = LinkState::Moving;
    l.summary += ", the scheduler has not reported on them yet";
    return std::nullopt;
  }
  l.evidence.push_back(std::to_string(unbound.size()) + " unbound pod(s) need " +
                       api::describe(unbound_need) + "; the " + std::to_string(room.nodes.size()) +
                       " node(s) they may use have free " + api::describe(free) +
                       (per_node.empty() ? "" : " (" + per_node + ")"));
  if (split) {
    api::ResourceList with_slot = pod_need;
    with_slot["pods"] = api::Quantity::must_parse("1");
    std::string slots;
    for (const NodeRoom& n : room.nodes) {
      if (!slots.empty()) slots += "; ";
      slots += n.name + " " + api::describe(only(n.free, with_slot));
    }
    l.evidence.push_back("placed one by one on the nodes' free room (a pod slot each), " +
                         std::to_string(fit) + " of the " + std::to_string(unbound.size()) +
                         " unbound pod(s) fit: " + slots);
  }
  l.state = LinkState::Waiting;
  if (split) {
    l.why =
        "the nodes these pods may use have room in total but not on any one node for each "
        "pod (only " +
        std::to_string(fit) + " of " + std::to_string(unbound.size()) +
        " fit, pod slots counted); it waits for running pods to finish";
  } else if (short_by.empty()) {
    l.why =
        "the scheduler has not placed the gang's pods although each of them fits on a node they "
        "may use (taken by other pods meanwhile, or constraints between pods); see the evidence";
  } else {
    l.why = "the nodes these pods may use have too little free room for the gang (" + short_by +
            "); it waits for running pods to finish";
  }
  l.action = "wait for running pods to finish, or add nodes, or lower the job's minAvailable";
  return b.stop(Verdict::WaitingForCapacity, l.why);
}

// Running link: bound pods whose containers do not start.
std::optional<Explanation> running_link(Builder& b) {
  long long running = 0, bound = 0;
  for (const json& p : b.s.pods) {
    if (!live(p) || str(p, {"spec", "nodeName"}).empty()) continue;
    ++bound;
    if (str(p, {"status", "phase"}) == "Running") ++running;
  }
  Link& l =
      b.add("Running", LinkState::Through,
            std::to_string(running) + " of " + std::to_string(bound) + " pod(s) on nodes running");
  for (const json& p : b.s.pods) {
    if (!live(p) || str(p, {"spec", "nodeName"}).empty()) continue;
    const std::optional<ContainerTrouble> trouble = container_trouble(p);
    if (!trouble) continue;
    l.state = LinkState::Broken;
    l.why = "pod " + str(p, {"metadata", "name"}) + "'s container " + trouble->container +
            " cannot start: " + trouble->reason;
    if (!trouble->message.empty()) l.evidence.push_back(trouble->reason + ": " + trouble->message);
    append(l.evidence, event_lines(b.s, p, "pod " + str(p, {"metadata", "name"}), 3));
    l.action = trouble->action;
    return b.stop(Verdict::ConfigurationError, l.why);
  }
  if (running < bound) l.state = LinkState::Moving;
  return std::nullopt;
}

}  // namespace

Explanation diagnose(const Snapshot& s) {
  Builder b{s, {}};
  b.x.kind = s.job.is_null() ? "PodGroup" : "Job";
  b.x.namespace_ = s.namespace_;
  b.x.name = s.name;
  if (auto done = job_link(b)) return std::move(*done);
  if (auto done = podgroup_link(b)) return std::move(*done);

  const json& pg = s.podgroup;
  const std::string queue_name =
      str_or(pg, {"spec", "queue"}, str_or(s.job, {"spec", "queue"}, "default"));
  const api::ResourceList minimum = schedulable(resources(pg, {"spec", "minResources"}));
  const bool admitted = podgroup_admitted(str(pg, {"status", "phase"}));
  if (auto done = queue_link(b, queue_name, minimum, admitted)) return std::move(*done);
  if (!admitted && young(pg, s.now) && array_at(pg, {"status", "conditions"}).empty()) {
    b.add("Enqueue", LinkState::Moving, "the PodGroup is new: the scheduler has not looked yet");
    return b.through(Verdict::Progressing, "the PodGroup is new; the scheduler has not looked yet");
  }
  if (!admitted) return enqueue_stop(b, *find_queue(s, queue_name), minimum);
  b.add("Enqueue", LinkState::Through, "admitted: PodGroup " + str(pg, {"status", "phase"}));

  if (auto done = pods_link(b)) return std::move(*done);
  if (auto done = binding_link(b)) return std::move(*done);
  if (auto done = running_link(b)) return std::move(*done);

  const bool moving = std::any_of(b.x.chain.begin(), b.x.chain.end(),
                                  [](const Link& l) { return l.state == LinkState::Moving; });
  return b.through(Verdict::Progressing, moving ? "the job is progressing" : "the job is running");
}

const std::vector<std::string>& link_names() {
  static const std::vector<std::string> names{"Job",  "PodGroup", "Queue",  "Enqueue",
                                              "Pods", "Binding",  "Running"};
  return names;
}

std::string_view to_string(LinkState state) {
  switch (state) {
    case LinkState::Through:
      return "through";
    case LinkState::Moving:
      return "moving";
    case LinkState::Waiting:
      return "waiting";
    case LinkState::Broken:
      return "broken";
    case LinkState::NotReached:
      return "not-reached";
  }
  return "unknown";
}

std::string_view to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::Progressing:
      return "Progressing";
    case Verdict::Finished:
      return "Finished";
    case Verdict::WaitingForCapacity:
      return "WaitingForCapacity";
    case Verdict::ConfigurationError:
      return "ConfigurationError";
    case Verdict::Failed:
      return "Failed";
  }
  return "Unknown";
}

int exit_code(Verdict verdict) {
  switch (verdict) {
    case Verdict::Progressing:
    case Verdict::Finished:
      return 0;
    case Verdict::WaitingForCapacity:
      return 3;
    case Verdict::ConfigurationError:
      return 4;
    case Verdict::Failed:
      return 5;
  }
  return 1;
}

}  // namespace vc::controllers::explain

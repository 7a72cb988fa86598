#include "controllers/explain/read_snapshot.h"

#include <set>

#include "common/kube/resource.h"
#include "controllers/explain/json_read.h"

namespace vc::controllers::explain {
namespace {

namespace resources = kube::resources;
using nlohmann::json;

// The items of a list; a Forbidden list is a gap, any other error fails the read.
kube::Result<std::vector<json>> list_items(kube::Client& client, const kube::Resource& r,
                                           std::string_view ns, const kube::ListOptions& options,
                                           std::vector<std::string>& gaps) {
  std::vector<json> items;
  auto listed =
      client.list_each(r, ns, options, [&](json&& item) { items.push_back(std::move(item)); });
  if (!listed) {
    if (listed.error().kind == kube::ErrorKind::Forbidden ||
        listed.error().kind == kube::ErrorKind::NotFound) {
      gaps.push_back("could not list " + std::string(r.plural) + ": " + listed.error().describe());
      return items;
    }
    return listed.error();
  }
  return items;
}

bool owned_by(const json& object, const std::string& uid) {
  for (const json& ref : array_at(object, {"metadata", "ownerReferences"})) {
    if (str(ref, {"uid"}) == uid) return true;
  }
  return false;
}

// Up to this many objects, their events are read one field-selected list each; beyond, the
// namespace's events once.
constexpr std::size_t kEventQueriesMax = 12;

// The Job's PodGroup: Volcano names it "<job>-<job uid>" (older releases "<job>"); a GET of each,
// and only when neither is the Job's, the namespace's PodGroups once. Null when there is none.
kube::Result<json> find_podgroup(kube::Client& client, const std::string& ns,
                                 const std::string& job, const std::string& uid,
                                 std::vector<std::string>& gaps) {
  for (const std::string& name : {job + "-" + uid, job}) {
    auto pg = client.get(kube::resources::podgroups, ns, name);
    if (pg && owned_by(*pg, uid)) return std::move(*pg);
    if (!pg && pg.error().kind != kube::ErrorKind::NotFound &&
        pg.error().kind != kube::ErrorKind::Forbidden) {
      return pg.error();
    }
  }
  auto pgs = list_items(client, kube::resources::podgroups, ns, {}, gaps);
  if (!pgs) return pgs.error();
  for (json& pg : *pgs) {
    if (owned_by(pg, uid)) return std::move(pg);
  }
  return json();
}

// Whether the diagnosis may need the nodes' room: the PodGroup is missing or not admitted, or a
// live pod has no node.
bool needs_room(const Snapshot& s) {
  const std::string phase = str(s.podgroup, {"status", "phase"});
  if (s.podgroup.is_null() || phase.empty() || phase == "Pending") return true;
  for (const json& p : s.pods) {
    const std::string pod_phase = str(p, {"status", "phase"});
    if (!pod_deleted(p) && str(p, {"spec", "nodeName"}).empty() && pod_phase != "Succeeded" &&
        pod_phase != "Failed") {
      return true;
    }
  }
  return false;
}

}  // namespace

kube::Result<Snapshot> read_snapshot(kube::Client& client, const Target& target,
                                     std::vector<std::string>& gaps) {
  Snapshot s;
  s.now = std::chrono::system_clock::now();
  s.namespace_ = target.namespace_;
  s.name = target.name;
  const std::string& ns = target.namespace_;

  if (target.kind == TargetKind::Job) {
    auto job = client.get(resources::jobs, ns, target.name);
    if (!job) return job.error();
    s.job = std::move(*job);
    const std::string uid = str(s.job, {"metadata", "uid"});
    auto pg = find_podgroup(client, ns, target.name, uid, gaps);
    if (!pg) return pg.error();
    s.podgroup = std::move(*pg);
    kube::ListOptions by_job;
    by_job.label_selector = "volcano.sh/job-name=" + target.name;
    auto pods = list_items(client, resources::pods, ns, by_job, gaps);
    if (!pods) return pods.error();
    for (json& p : *pods) {
      if (owned_by(p, uid)) s.pods.push_back(std::move(p));
    }
  } else {
    auto pg = client.get(resources::podgroups, ns, target.name);
    if (!pg) return pg.error();
    s.podgroup = std::move(*pg);
    auto pods = list_items(client, resources::pods, ns, {}, gaps);
    if (!pods) return pods.error();
    for (json& p : *pods) {
      if (str(p, {"metadata", "annotations", "scheduling.k8s.io/group-name"}) == target.name) {
        s.pods.push_back(std::move(p));
      }
    }
  }

  // Events on the Job, its PodGroup and its pods: by object when they are few, else the
  // namespace's once.
  std::set<std::string> uids;
  for (const json* o : {&s.job, &s.podgroup}) {
    if (const std::string uid = str(*o, {"metadata", "uid"}); !uid.empty()) uids.insert(uid);
  }
  for (const json& p : s.pods) uids.insert(str(p, {"metadata", "uid"}));
  if (uids.size() <= kEventQueriesMax) {
    for (const std::string& uid : uids) {
      kube::ListOptions about;
      about.field_selector = "involvedObject.uid=" + uid;
      auto events = list_items(client, resources::events, ns, about, gaps);
      if (!events) return events.error();
      for (json& e : *events) s.events.push_back(std::move(e));
    }
  } else {
    auto events = list_items(client, resources::events, ns, {}, gaps);
    if (!events) return events.error();
    for (json& e : *events) {
      if (uids.contains(str(e, {"involvedObject", "uid"}))) s.events.push_back(std::move(e));
    }
  }

  auto queues = list_items(client, resources::queues, "", {}, gaps);
  if (!queues) return queues.error();
  s.queues = std::move(*queues);
  // The room on the nodes counts only for a job that waits for it: a PodGroup not admitted yet,
  // or pods not on a node.
  if (needs_room(s)) {
    auto nodes = list_items(client, resources::nodes, "", {}, gaps);
    if (!nodes) return nodes.error();
    s.nodes = std::move(*nodes);
    kube::ListOptions bound;
    bound.field_selector = "spec.nodeName!=,status.phase!=Succeeded,status.phase!=Failed";
    auto node_pods = list_items(client, resources::pods, "", bound, gaps);
    if (!node_pods) return node_pods.error();
    s.node_pods = std::move(*node_pods);
  }
  auto classes = list_items(client, resources::priorityclasses, "", {}, gaps);
  if (!classes) return classes.error();
  s.priority_classes = std::move(*classes);
  return s;
}

}  // namespace vc::controllers::explain

#include "controllers/explain/read_snapshot.h"

#include <set>

#include "common/kube/resource.h"
#include "controllers/explain/json_read.h"

namespace vc::controllers::explain {
namespace {

namespace resources = kube::resources;
using nlohmann::json;

// The items of a list, each passed through `slim` when given; a Forbidden list is a gap, any
// other error fails the read.
kube::Result<std::vector<json>> list_items(kube::Client& client, const kube::Resource& r,
                                           std::string_view ns, const kube::ListOptions& options,
                                           std::vector<std::string>& gaps,
                                           json (*slim)(const json&) = nullptr) {
  std::vector<json> items;
  auto listed = client.list_each(
      r, ns, options, [&](json&& item) { items.push_back(slim ? slim(item) : std::move(item)); });
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
                                 std::vector<std::string>& gaps, bool list_when_not_found) {
  for (const std::string& name : {job + "-" + uid, job}) {
    auto pg = client.get(kube::resources::podgroups, ns, name);
    if (pg && owned_by(*pg, uid)) return std::move(*pg);
    if (!pg && pg.error().kind != kube::ErrorKind::NotFound &&
        pg.error().kind != kube::ErrorKind::Forbidden) {
      return pg.error();
    }
  }
  if (!list_when_not_found) return json();
  auto pgs = list_items(client, kube::resources::podgroups, ns, {}, gaps);
  if (!pgs) return pgs.error();
  for (json& pg : *pgs) {
    if (owned_by(pg, uid)) return std::move(pg);
  }
  return json();
}

}  // namespace

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

kube::Result<Snapshot> read_snapshot(kube::Client& client, const Target& target,
                                     std::vector<std::string>& gaps) {
  auto s = read_object_part(client, target, gaps);
  if (!s) return s.error();
  ClusterLists lists;
  // The room on the nodes counts only for a job that waits for it: a PodGroup not admitted yet,
  // or pods not on a node.
  if (auto read = read_cluster_lists(client, lists, needs_room(*s), gaps); !read) {
    return read.error();
  }
  swap_cluster_lists(*s, lists);
  return s;
}

void swap_cluster_lists(Snapshot& s, ClusterLists& lists) {
  std::swap(s.queues, lists.queues);
  std::swap(s.priority_classes, lists.priority_classes);
  std::swap(s.nodes, lists.nodes);
  std::swap(s.node_pods, lists.node_pods);
}

kube::Status read_cluster_lists(kube::Client& client, ClusterLists& lists, bool with_room,
                                std::vector<std::string>& gaps) {
  if (!lists.read) {
    auto queues = list_items(client, resources::queues, "", {}, gaps);
    if (!queues) return queues.error();
    auto classes = list_items(client, resources::priorityclasses, "", {}, gaps);
    if (!classes) return classes.error();
    lists.queues = std::move(*queues);
    lists.priority_classes = std::move(*classes);
    lists.read = true;
  }
  if (!with_room) return kube::ok_status();
  if (!lists.nodes_read) {
    auto nodes = list_items(client, resources::nodes, "", {}, gaps, slim_node);
    if (!nodes) return nodes.error();
    lists.nodes = std::move(*nodes);
    lists.nodes_read = true;
  }
  if (!lists.node_pods_read) {
    kube::ListOptions bound;
    bound.field_selector = "spec.nodeName!=,status.phase!=Succeeded,status.phase!=Failed";
    auto node_pods = list_items(client, resources::pods, "", bound, gaps, slim_pod);
    if (!node_pods) return node_pods.error();
    lists.node_pods = std::move(*node_pods);
    lists.node_pods_read = true;
  }
  return kube::ok_status();
}

namespace {

// Copies the members of `from` named in `keys` that it has into `to`.
void keep(const json& from, json& to, std::initializer_list<const char*> keys) {
  if (!from.is_object()) return;
  for (const char* k : keys) {
    if (const auto it = from.find(k); it != from.end()) to[k] = *it;
  }
}

}  // namespace

json slim_node(const json& node) {
  json out = {{"metadata", json::object()}, {"spec", json::object()}, {"status", json::object()}};
  keep(at(node, {"metadata"}), out["metadata"], {"name", "labels"});
  keep(at(node, {"spec"}), out["spec"], {"taints", "unschedulable"});
  keep(at(node, {"status"}), out["status"], {"allocatable", "conditions"});
  return out;
}

json slim_pod(const json& pod) {
  json out = {{"metadata", json::object()}, {"spec", json::object()}, {"status", json::object()}};
  keep(at(pod, {"metadata"}), out["metadata"], {"name", "namespace", "deletionTimestamp"});
  keep(at(pod, {"spec"}), out["spec"], {"nodeName", "overhead", "resources"});
  for (const char* part : {"containers", "initContainers"}) {
    json slim = json::array();
    for (const json& c : array_at(pod, {"spec", part})) {
      json each = json::object();
      keep(c, each, {"name", "restartPolicy"});
      if (const json& requests = at(c, {"resources", "requests"}); !requests.is_null()) {
        each["resources"]["requests"] = requests;
      }
      slim.push_back(std::move(each));
    }
    if (!slim.empty()) out["spec"][part] = std::move(slim);
  }
  keep(at(pod, {"status"}), out["status"], {"phase"});
  return out;
}

kube::Result<Snapshot> read_object_part(kube::Client& client, const Target& target,
                                        std::vector<std::string>& gaps,
                                        const ReadOptions& options) {
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
    auto pg =
        find_podgroup(client, ns, target.name, uid, gaps, options.list_podgroups_when_not_found);
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

  // Events on the Job, its PodGroup and its pods: by object when they are few; else the
  // namespace's once, or (options) those of the first objects only, the pods without a node
  // (the ones the diagnosis quotes) before the others.
  std::vector<std::string> uids;
  std::set<std::string> seen;
  const auto add_uid = [&](const json& o) {
    const std::string uid = str(o, {"metadata", "uid"});
    if (!uid.empty() && seen.insert(uid).second) uids.push_back(uid);
  };
  add_uid(s.job);
  add_uid(s.podgroup);
  for (const json& p : s.pods) {
    if (str(p, {"spec", "nodeName"}).empty()) add_uid(p);
  }
  for (const json& p : s.pods) add_uid(p);
  if (uids.size() > kEventQueriesMax && options.list_namespace_events_when_many) {
    auto events = list_items(client, resources::events, ns, {}, gaps);
    if (!events) return events.error();
    for (json& e : *events) {
      if (seen.contains(str(e, {"involvedObject", "uid"}))) s.events.push_back(std::move(e));
    }
    return s;
  }
  if (uids.size() > kEventQueriesMax) uids.resize(kEventQueriesMax);
  for (const std::string& uid : uids) {
    kube::ListOptions about;
    about.field_selector = "involvedObject.uid=" + uid;
    auto events = list_items(client, resources::events, ns, about, gaps);
    if (!events) return events.error();
    for (json& e : *events) s.events.push_back(std::move(e));
  }
  return s;
}

}  // namespace vc::controllers::explain

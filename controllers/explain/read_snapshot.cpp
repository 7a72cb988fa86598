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
    auto pgs = list_items(client, resources::podgroups, ns, {}, gaps);
    if (!pgs) return pgs.error();
    const std::string uid = str(s.job, {"metadata", "uid"});
    for (json& pg : *pgs) {
      if (owned_by(pg, uid)) {
        s.podgroup = std::move(pg);
        break;
      }
    }
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

  // Events on the Job, its PodGroup and its pods.
  std::set<std::string> uids;
  for (const json* o : {&s.job, &s.podgroup}) {
    if (const std::string uid = str(*o, {"metadata", "uid"}); !uid.empty()) uids.insert(uid);
  }
  for (const json& p : s.pods) uids.insert(str(p, {"metadata", "uid"}));
  auto events = list_items(client, resources::events, ns, {}, gaps);
  if (!events) return events.error();
  for (json& e : *events) {
    if (uids.contains(str(e, {"involvedObject", "uid"}))) s.events.push_back(std::move(e));
  }

  auto queues = list_items(client, resources::queues, "", {}, gaps);
  if (!queues) return queues.error();
  s.queues = std::move(*queues);
  auto nodes = list_items(client, resources::nodes, "", {}, gaps);
  if (!nodes) return nodes.error();
  s.nodes = std::move(*nodes);
  kube::ListOptions bound;
  bound.field_selector = "spec.nodeName!=,status.phase!=Succeeded,status.phase!=Failed";
  auto node_pods = list_items(client, resources::pods, "", bound, gaps);
  if (!node_pods) return node_pods.error();
  s.node_pods = std::move(*node_pods);
  auto classes = list_items(client, resources::priorityclasses, "", {}, gaps);
  if (!classes) return classes.error();
  s.priority_classes = std::move(*classes);
  return s;
}

}  // namespace vc::controllers::explain

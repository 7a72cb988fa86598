#include "controllers/podgroup/executor.h"

#include "common/log/log.h"

namespace vc::controllers::podgroup {

namespace {

using nlohmann::json;

// Owner kinds whose annotations a PodGroup inherits (spec controller-manager.md §3.3). Not in
// kube::resources because nothing else reads them.
constexpr kube::Resource kDaemonSets{"apps", "v1", "daemonsets", "DaemonSet", true};
constexpr kube::Resource kBatchJobs{"batch", "v1", "jobs", "Job", true};

const kube::Resource* owner_resource(std::string_view kind) {
  if (kind == "ReplicaSet") return &kube::resources::replicasets;
  if (kind == "DaemonSet") return &kDaemonSets;
  if (kind == "StatefulSet") return &kube::resources::statefulsets;
  if (kind == "Job") return &kBatchJobs;
  return nullptr;
}

json object_or_empty(const json& obj, const char* key) {
  auto it = obj.find(key);
  return it != obj.end() && it->is_object() ? *it : json::object();
}

}  // namespace

Executor::Executor(kube::Client& client, const ControllerOptions& options, Clock now)
    : client_(client), options_(options), now_(now) {}

std::string Executor::join_patch(const std::string& podgroup_name) {
  return json{{"metadata", {{"annotations", {{views::kGroupNameAnnotation, podgroup_name}}}}}}
      .dump();
}

OwnerAnnotations Executor::owner_annotations(const views::PodView& pod) {
  OwnerAnnotations merged;
  if (!options_.inherit_owner_annotations) return merged;
  for (const views::OwnerRefView& ref : pod.owner_references) {
    if (ref.kind.empty() || ref.name.empty()) continue;
    const kube::Resource* resource = owner_resource(ref.kind);
    if (resource == nullptr) continue;
    auto owner = client_.get(*resource, pod.namespace_, ref.name);
    if (!owner.ok()) {
      VC_LOG_ERROR("cannot read the pod's owner; its annotations are not inherited",
                   kv("pod", pod.key()), kv("owner", std::string(ref.kind) + "/" + ref.name),
                   kv("error", owner.error().describe()));
      continue;
    }
    const json annotations = object_or_empty(object_or_empty(*owner, "metadata"), "annotations");
    for (const auto& [k, v] : annotations.items()) {
      if (v.is_string()) merged.emplace(k, v.get<std::string>());  // first owner wins
    }
  }
  return merged;
}

DerivedPodGroup Executor::derive(const views::PodView& pod) {
  DerivedPodGroup derived = derive_podgroup(pod, owner_annotations(pod), options_, now_());
  for (const std::string& w : derived.warnings) {
    VC_LOG_WARN("invalid PodGroup setting on a pod or its owner", kv("pod", pod.key()),
                kv("detail", w));
  }
  return derived;
}

kube::Status Executor::create(const views::PodView& pod, const json& podgroup) {
  const std::string name = podgroup["metadata"]["name"].get<std::string>();
  auto created = client_.create(kube::resources::podgroups, pod.namespace_, podgroup);
  if (created.ok()) {
    VC_LOG_INFO("created PodGroup", kv("podgroup", pod.namespace_ + "/" + name),
                kv("pod", pod.key()));
    return kube::ok_status();
  }
  if (created.is(kube::ErrorKind::AlreadyExists)) {
    VC_LOG_DEBUG("PodGroup already exists", kv("podgroup", pod.namespace_ + "/" + name));
    return kube::ok_status();
  }
  VC_LOG_ERROR("cannot create PodGroup", kv("podgroup", pod.namespace_ + "/" + name),
               kv("pod", pod.key()), kv("error", created.error().describe()));
  return created.error();
}

kube::Status Executor::annotate(const views::PodView& pod, const std::string& podgroup_name) {
  const std::string_view current = pod.group_name();
  if (!current.empty()) {
    if (current != podgroup_name) {
      VC_LOG_ERROR("pod already belongs to another PodGroup", kv("pod", pod.key()),
                   kv("podgroup", std::string(current)), kv("expected", podgroup_name));
    }
    return kube::ok_status();
  }
  auto patched = client_.patch(kube::resources::pods, pod.namespace_, pod.name,
                               kube::PatchType::Merge, join_patch(podgroup_name));
  if (!patched.ok()) {
    VC_LOG_ERROR("cannot annotate pod with its PodGroup", kv("pod", pod.key()),
                 kv("podgroup", podgroup_name), kv("error", patched.error().describe()));
    return patched.error();
  }
  VC_LOG_DEBUG("pod joined PodGroup", kv("pod", pod.key()), kv("podgroup", podgroup_name));
  return kube::ok_status();
}

kube::Status Executor::apply(const views::PodView& pod, const PodPlan& plan) {
  if (!plan.skip_reason.empty()) return kube::ok_status();
  if (plan.create_podgroup) {
    auto st = create(pod, derive(pod).object);
    if (!st.ok()) return st;
  }
  if (plan.annotate_pod) return annotate(pod, plan.podgroup_name);
  return kube::ok_status();
}

kube::Status Executor::create_or_update(const views::PodView& pod) {
  json rebuilt = derive(pod).object;
  const std::string name = rebuilt["metadata"]["name"].get<std::string>();
  // Compared against the API object, not the cache: the cached view does not hold every field
  // that a full UPDATE sends back.
  auto current = client_.get(kube::resources::podgroups, pod.namespace_, name);
  if (current.is(kube::ErrorKind::NotFound)) {
    auto st = create(pod, rebuilt);
    if (!st.ok()) return st;
  } else if (!current.ok()) {
    return current.error();
  } else {
    json& existing = *current;
    json& meta = existing["metadata"];
    const json& new_meta = rebuilt["metadata"];
    const bool same =
        existing.value("spec", json::object()) == rebuilt["spec"] &&
        object_or_empty(meta, "labels") == object_or_empty(new_meta, "labels") &&
        object_or_empty(meta, "annotations") == object_or_empty(new_meta, "annotations");
    if (!same) {
      existing["spec"] = rebuilt["spec"];
      meta["labels"] = object_or_empty(new_meta, "labels");
      meta["annotations"] = object_or_empty(new_meta, "annotations");
      auto updated = client_.update(kube::resources::podgroups, pod.namespace_, existing);
      if (updated.ok()) {
        VC_LOG_INFO("updated PodGroup", kv("podgroup", pod.namespace_ + "/" + name),
                    kv("pod", pod.key()));
      } else {
        // Not retried (spec controller-manager.md §3.5): the next ReplicaSet/StatefulSet event
        // rebuilds it.
        VC_LOG_ERROR("cannot update PodGroup", kv("podgroup", pod.namespace_ + "/" + name),
                     kv("error", updated.error().describe()));
      }
    }
  }
  return annotate(pod, name);
}

kube::Status Executor::delete_podgroup(const std::string& ns, const std::string& name) {
  auto removed = client_.remove(kube::resources::podgroups, ns, name);
  if (removed.ok()) {
    VC_LOG_INFO("deleted PodGroup of a workload scaled to zero", kv("podgroup", ns + "/" + name));
    return kube::ok_status();
  }
  if (removed.is(kube::ErrorKind::NotFound)) return kube::ok_status();
  VC_LOG_ERROR("cannot delete PodGroup", kv("podgroup", ns + "/" + name),
               kv("error", removed.error().describe()));
  return removed.error();
}

}  // namespace vc::controllers::podgroup

#include "controllers/views/pod_view.h"

#include <stdexcept>

#include "controllers/views/intern.h"
#include "controllers/views/pod_resources.h"

namespace vc::controllers::views {

namespace {

using nlohmann::json;

const json& object_at(const json& obj, const char* key) {
  static const json kEmpty = json::object();
  auto it = obj.find(key);
  return it != obj.end() && it->is_object() ? *it : kEmpty;
}

std::string string_at(const json& obj, const char* key) {
  auto it = obj.find(key);
  return it == obj.end() || it->is_null() ? std::string() : it->get<std::string>();
}

std::optional<api::TimePoint> time_at(const json& obj, const char* key) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return std::nullopt;
  auto t = api::parse_time(it->get<std::string>());
  if (!t) throw std::invalid_argument(std::string("metadata.") + key + ": malformed timestamp");
  return t;
}

void read_statuses(const json& status, const char* key, bool init,
                   std::vector<ContainerStatusView>& out) {
  auto it = status.find(key);
  if (it == status.end() || !it->is_array()) return;
  for (const json& cs : *it) {
    ContainerStatusView v;
    v.init = init;
    v.restart_count = cs.value("restartCount", 0);
    v.ready = cs.value("ready", false);
    const json& state = object_at(cs, "state");
    if (auto t = state.find("terminated"); t != state.end() && t->is_object()) {
      v.terminated = true;
      v.exit_code = t->value("exitCode", 0);
      v.reason = string_at(*t, "reason");
    }
    out.push_back(std::move(v));
  }
}

}  // namespace

bool keep_pod_annotation(std::string_view key) {
  return key.starts_with("volcano.sh/") || key.starts_with("scheduling.volcano.sh/") ||
         key == kGroupNameAnnotation;
}

std::string_view PodView::group_name() const {
  const std::string* v = annotation(kGroupNameAnnotation);
  return v ? std::string_view(*v) : std::string_view();
}

std::int64_t PodView::total_restart_count() const {
  std::int64_t sum = 0;
  for (const auto& cs : container_statuses) sum += cs.restart_count;
  return sum;
}

std::optional<std::int32_t> PodView::first_container_exit_code() const {
  if (container_statuses.empty() || container_statuses.front().init ||
      !container_statuses.front().terminated) {
    return std::nullopt;
  }
  return container_statuses.front().exit_code;
}

bool PodView::all_containers_ready() const {
  bool any = false;
  for (const auto& cs : container_statuses) {
    if (cs.init) continue;
    if (!cs.ready) return false;
    any = true;
  }
  return any;
}

std::shared_ptr<PodView> make_pod_view(const json& pod) {
  auto v = std::make_shared<PodView>();
  kube::cache::read_metadata(pod, *v);
  const json& meta = object_at(pod, "metadata");
  v->creation_timestamp = time_at(meta, "creationTimestamp");
  v->deletion_timestamp = time_at(meta, "deletionTimestamp");
  if (auto g = meta.find("deletionGracePeriodSeconds"); g != meta.end() && !g->is_null()) {
    v->deletion_grace_period_seconds = g->get<std::int64_t>();
  }
  v->annotations = read_annotations(meta, keep_pod_annotation);
  v->owner_references = read_owner_refs(meta);

  const json& spec = object_at(pod, "spec");
  v->scheduler_name = intern(string_at(spec, "schedulerName"));
  v->node_name = string_at(spec, "nodeName");
  v->priority_class_name = string_at(spec, "priorityClassName");
  v->requests = to_amounts(pod_requests(spec));
  v->limits = to_amounts(pod_limits(spec));

  const json& status = object_at(pod, "status");
  v->phase = intern(string_at(status, "phase"));
  read_statuses(status, "containerStatuses", false, v->container_statuses);
  read_statuses(status, "initContainerStatuses", true, v->container_statuses);
  v->container_statuses.shrink_to_fit();
  return v;
}

std::shared_ptr<const fastjson::MemberFilter> pod_view_reads() {
  // Every member make_pod_view reads (read_metadata, pod_resources.cpp, read_statuses above).
  // views_test checks that a view built from only these equals one built from the whole pod.
  static const auto reads = std::make_shared<const fastjson::MemberFilter>(
      fastjson::MemberFilter::only({"metadata.namespace",
                                    "metadata.name",
                                    "metadata.uid",
                                    "metadata.resourceVersion",
                                    "metadata.labels",
                                    "metadata.annotations",
                                    "metadata.ownerReferences",
                                    "metadata.creationTimestamp",
                                    "metadata.deletionTimestamp",
                                    "metadata.deletionGracePeriodSeconds",
                                    "spec.schedulerName",
                                    "spec.nodeName",
                                    "spec.priorityClassName",
                                    "spec.overhead",
                                    "spec.resources",
                                    "spec.containers.resources",
                                    "spec.containers.restartPolicy",
                                    "spec.initContainers.resources",
                                    "spec.initContainers.restartPolicy",
                                    "status.phase",
                                    "status.containerStatuses.restartCount",
                                    "status.containerStatuses.ready",
                                    "status.containerStatuses.state.terminated.exitCode",
                                    "status.containerStatuses.state.terminated.reason",
                                    "status.initContainerStatuses.restartCount",
                                    "status.initContainerStatuses.ready",
                                    "status.initContainerStatuses.state.terminated.exitCode",
                                    "status.initContainerStatuses.state.terminated.reason"}));
  return reads;
}

kube::cache::Transform pod_view_transform() {
  return {"pod-view", [](json&& pod) -> kube::cache::ObjectPtr { return make_pod_view(pod); },
          pod_view_reads()};
}

PodViewPtr as_pod_view(const kube::cache::ObjectPtr& obj) {
  return std::dynamic_pointer_cast<const PodView>(obj);
}

}  // namespace vc::controllers::views

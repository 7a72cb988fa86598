#include "controllers/views/pod_view.h"

#include <stdexcept>

#include "common/volcano/json_read.h"
#include "controllers/views/intern.h"
#include "controllers/views/pod_resources.h"

namespace vc::controllers::views {

namespace {

using nlohmann::json;
namespace read = volcano::read;
using volcano::FieldPath;

void read_statuses(const json& status, const char* key, bool init, const FieldPath& at,
                   std::vector<ContainerStatusView>& out) {
  read::each_at(status, key, at, [&](const json& cs, const FieldPath& cp) {
    ContainerStatusView v;
    v.init = init;
    v.restart_count = read::int32_at(cs, "restartCount", cp);
    v.ready = read::bool_at(cs, "ready", cp);
    if (const json* state = read::object_at(cs, "state", cp)) {
      const FieldPath sp = cp.key("state");
      if (const json* t = read::object_at(*state, "terminated", sp)) {
        const FieldPath tp = sp.key("terminated");
        v.terminated = true;
        v.exit_code = read::int32_at(*t, "exitCode", tp);
        v.reason = read::string_at(*t, "reason", tp);
      }
    }
    out.push_back(std::move(v));
  });
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
  const FieldPath root;
  kube::cache::read_metadata(pod, *v);
  static const json kEmpty = json::object();
  const json* meta_p = read::object_at(pod, "metadata", root);
  const json& meta = meta_p ? *meta_p : kEmpty;
  const FieldPath mp = root.key("metadata");
  v->creation_timestamp = read::time_at(meta, "creationTimestamp", mp);
  v->deletion_timestamp = read::time_at(meta, "deletionTimestamp", mp);
  v->deletion_grace_period_seconds = read::opt_int64_at(meta, "deletionGracePeriodSeconds", mp);
  v->annotations = read_annotations(meta, keep_pod_annotation);
  v->owner_references = read_owner_refs(meta);

  const json* spec_p = read::object_at(pod, "spec", root);
  const json& spec = spec_p ? *spec_p : kEmpty;
  const FieldPath sp = root.key("spec");
  v->scheduler_name = intern(read::string_at(spec, "schedulerName", sp));
  v->node_name = read::string_at(spec, "nodeName", sp);
  v->priority_class_name = read::string_at(spec, "priorityClassName", sp);
  v->requests = to_amounts(pod_requests(spec));
  v->limits = to_amounts(pod_limits(spec));

  if (const json* status = read::object_at(pod, "status", root)) {
    const FieldPath tp = root.key("status");
    v->phase = intern(read::string_at(*status, "phase", tp));
    read_statuses(*status, "containerStatuses", false, tp, v->container_statuses);
    read_statuses(*status, "initContainerStatuses", true, tp, v->container_statuses);
  }
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

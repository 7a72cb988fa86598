#include "controllers/views/podgroup_view.h"

#include <stdexcept>

#include "common/volcano/json_read.h"
#include "controllers/views/intern.h"

namespace vc::controllers::views {

namespace {

using nlohmann::json;
namespace read = volcano::read;
using volcano::FieldPath;

bool keep_all(std::string_view) {
  return true;
}

}  // namespace

std::shared_ptr<PodGroupView> make_podgroup_view(const json& pg) {
  auto v = std::make_shared<PodGroupView>();
  const FieldPath root;
  kube::cache::read_metadata(pg, *v);
  if (const json* meta = read::object_at(pg, "metadata", root)) {
    v->annotations = read_annotations(*meta, keep_all);
    v->owner_references = read_owner_refs(*meta);
  }

  if (const json* spec = read::object_at(pg, "spec", root)) {
    const FieldPath sp = root.key("spec");
    v->min_member = read::int32_at(*spec, "minMember", sp);
    read::each_entry_at(
        *spec, "minTaskMember", sp, [&](std::string_view task, const json& n, const FieldPath& np) {
          v->min_task_member.emplace_back(task, n.is_null() ? 0 : read::int32(n, np));
        });
    if (const json* mr = read::find(*spec, "minResources", sp)) {
      auto list = api::resource_list_from_json(*mr, "spec.minResources");
      if (!list) throw volcano::DecodeError(list.error());
      v->min_resources = to_amounts(*list);
    }
    v->queue = read::string_at(*spec, "queue", sp);
    v->priority_class_name = read::string_at(*spec, "priorityClassName", sp);
  }

  if (const json* status = read::object_at(pg, "status", root)) {
    const FieldPath tp = root.key("status");
    v->phase = intern(read::string_at(*status, "phase", tp));
    v->running = read::int32_at(*status, "running", tp);
    v->succeeded = read::int32_at(*status, "succeeded", tp);
    v->failed = read::int32_at(*status, "failed", tp);
    read::each_at(*status, "conditions", tp, [&](const json& c, const FieldPath& cp) {
      v->conditions.push_back({intern(read::string_at(c, "type", cp)),
                               intern(read::string_at(c, "status", cp)),
                               read::string_at(c, "reason", cp), read::string_at(c, "message", cp),
                               read::string_at(c, "lastTransitionTime", cp)});
    });
  }
  return v;
}

kube::cache::Transform podgroup_view_transform() {
  return {"podgroup-view",
          [](json&& pg) -> kube::cache::ObjectPtr { return make_podgroup_view(pg); }};
}

PodGroupViewPtr as_podgroup_view(const kube::cache::ObjectPtr& obj) {
  return std::dynamic_pointer_cast<const PodGroupView>(obj);
}

}  // namespace vc::controllers::views

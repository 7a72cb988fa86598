#include "controllers/views/podgroup_view.h"

#include "common/volcano/podgroup.h"
#include "controllers/views/intern.h"

namespace vc::controllers::views {

std::shared_ptr<PodGroupView> make_podgroup_view(const nlohmann::json& podgroup) {
  volcano::PodGroup pg;
  volcano::decode_podgroup(podgroup, pg);
  auto v = std::make_shared<PodGroupView>();
  v->namespace_ = std::move(pg.namespace_);
  v->name = std::move(pg.name);
  v->uid = std::move(pg.uid);
  v->resource_version = std::move(pg.resource_version);
  v->labels = std::move(pg.labels);
  v->annotations.reserve(pg.annotations.size());
  for (auto& [key, value] : pg.annotations)
    v->annotations.push_back({intern(key), std::move(value)});
  v->owner_references.reserve(pg.owner_references.size());
  for (api::OwnerRef& r : pg.owner_references) {
    v->owner_references.push_back({intern(r.api_version), intern(r.kind), std::move(r.name),
                                   std::move(r.uid), r.controller, r.block_owner_deletion});
  }

  v->min_member = pg.spec.min_member;
  // std::map iterates in key order: the vector comes out sorted by task.
  v->min_task_member.assign(pg.spec.min_task_member.begin(), pg.spec.min_task_member.end());
  if (pg.spec.min_resources) v->min_resources = to_amounts(*pg.spec.min_resources);
  v->queue = std::move(pg.spec.queue);
  v->priority_class_name = std::move(pg.spec.priority_class_name);

  v->phase = intern(pg.status.phase);
  v->running = pg.status.running;
  v->succeeded = pg.status.succeeded;
  v->failed = pg.status.failed;
  v->conditions.reserve(pg.status.conditions.size());
  for (volcano::PodGroupCondition& c : pg.status.conditions) {
    v->conditions.push_back({intern(c.type), intern(c.status), std::move(c.reason),
                             std::move(c.message), c.last_transition_time});
  }
  return v;
}

kube::cache::Transform podgroup_view_transform() {
  return {"podgroup-view",
          [](nlohmann::json&& pg) -> kube::cache::ObjectPtr { return make_podgroup_view(pg); }};
}

PodGroupViewPtr as_podgroup_view(const kube::cache::ObjectPtr& obj) {
  return std::dynamic_pointer_cast<const PodGroupView>(obj);
}

}  // namespace vc::controllers::views

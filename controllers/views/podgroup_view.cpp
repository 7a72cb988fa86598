#include "controllers/views/podgroup_view.h"

#include <stdexcept>

#include "controllers/views/intern.h"

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

std::int32_t int_at(const json& obj, const char* key) {
  auto it = obj.find(key);
  return it == obj.end() || it->is_null() ? 0 : it->get<std::int32_t>();
}

bool keep_all(std::string_view) {
  return true;
}

}  // namespace

std::shared_ptr<PodGroupView> make_podgroup_view(const json& pg) {
  auto v = std::make_shared<PodGroupView>();
  kube::cache::read_metadata(pg, *v);
  const json& meta = object_at(pg, "metadata");
  v->annotations = read_annotations(meta, keep_all);
  v->owner_references = read_owner_refs(meta);

  const json& spec = object_at(pg, "spec");
  v->min_member = int_at(spec, "minMember");
  for (const auto& [task, n] : object_at(spec, "minTaskMember").items()) {
    v->min_task_member.emplace_back(task, n.get<std::int32_t>());
  }
  if (auto mr = spec.find("minResources"); mr != spec.end() && !mr->is_null()) {
    auto list = api::resource_list_from_json(*mr, "spec.minResources");
    if (!list) throw std::invalid_argument(list.error());
    v->min_resources = to_amounts(*list);
  }
  v->queue = string_at(spec, "queue");
  v->priority_class_name = string_at(spec, "priorityClassName");

  const json& status = object_at(pg, "status");
  v->phase = intern(string_at(status, "phase"));
  v->running = int_at(status, "running");
  v->succeeded = int_at(status, "succeeded");
  v->failed = int_at(status, "failed");
  if (auto cs = status.find("conditions"); cs != status.end() && cs->is_array()) {
    for (const json& c : *cs) {
      v->conditions.push_back({intern(string_at(c, "type")), intern(string_at(c, "status")),
                               string_at(c, "reason"), string_at(c, "message"),
                               string_at(c, "lastTransitionTime")});
    }
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

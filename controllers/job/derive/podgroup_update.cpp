// update_podgroup (spec job-controller.md §4.1 "Update"): the comparisons Volcano makes on a
// copy of the existing PodGroup, expressed on its JSON.
#include <map>
#include <string_view>

#include "controllers/job/derive/podgroup.h"

namespace vc::controllers::job {

namespace {

using nlohmann::json;

const json& member(const json& object, std::string_view key) {
  static const json kNull;
  if (!object.is_object()) return kNull;
  auto it = object.find(key);
  return it == object.end() ? kNull : *it;
}

std::string string_member(const json& object, std::string_view key) {
  const json& v = member(object, key);
  return v.is_string() ? v.get<std::string>() : std::string();
}

// Sets a string field, leaving it out when empty (Go's omitempty).
void set_or_erase(json& object, const char* key, const std::string& value) {
  if (value.empty()) {
    object.erase(key);
  } else {
    object[key] = value;
  }
}

// A networkTopology as Go decodes and re-encodes it: empty strings and nulls dropped.
json canonical_topology(const json& nt) {
  json out = json::object();
  if (const json& m = member(nt, "mode"); m.is_string() && !m.get<std::string>().empty()) {
    out["mode"] = m;
  }
  if (const json& t = member(nt, "highestTierAllowed"); !t.is_null()) out["highestTierAllowed"] = t;
  if (const json& n = member(nt, "highestTierName");
      n.is_string() && !n.get<std::string>().empty()) {
    out["highestTierName"] = n;
  }
  return out;
}

// A subGroupPolicy entry in the form Kubernetes' semantic equality sees: nil and empty lists
// and maps are equal, unset optionals and empty strings are dropped, unknown fields ignored.
json canonical_subgroup(const json& entry) {
  json out = json::object();
  if (const json& n = member(entry, "name"); n.is_string() && !n.get<std::string>().empty()) {
    out["name"] = n;
  }
  for (const char* key : {"subGroupSize", "minSubGroups"}) {
    if (const json& v = member(entry, key); !v.is_null()) out[key] = v;
  }
  if (const json& sel = member(entry, "labelSelector"); !sel.is_null()) {
    json s = json::object();
    for (const char* key : {"matchLabels", "matchExpressions"}) {
      if (const json& v = member(sel, key); !v.is_null() && !v.empty()) s[key] = v;
    }
    out["labelSelector"] = std::move(s);
  }
  if (const json& keys = member(entry, "matchLabelKeys"); keys.is_array() && !keys.empty()) {
    out["matchLabelKeys"] = keys;
  }
  if (const json& nt = member(entry, "networkTopology"); !nt.is_null()) {
    out["networkTopology"] = canonical_topology(nt);
  }
  return out;
}

// Volcano's updatePgSubGroupPolicy: entries are matched by name; a partitioned task whose entry
// is missing or differs, or an unpartitioned task that has an entry, rebuilds the whole list.
// Entries named after no task do not by themselves cause an update.
bool update_subgroups(const Job& job, json& spec) {
  std::map<std::string, json> old_by_name;
  if (const json& list = member(spec, "subGroupPolicy"); list.is_array()) {
    for (const json& e : list) old_by_name[string_member(e, "name")] = canonical_subgroup(e);
  }
  bool changed = false;
  json rebuilt = json::array();
  for (const TaskSpec& task : job.spec.tasks) {
    auto old = old_by_name.find(task.name);
    if (!task.partition_policy) {
      if (old != old_by_name.end()) changed = true;
      continue;
    }
    json wanted = subgroup_policy(task);
    // A missing entry compares against the zero entry, which a partitioned task never equals.
    if (old == old_by_name.end() || canonical_subgroup(wanted) != old->second) changed = true;
    rebuilt.push_back(std::move(wanted));
  }
  if (!changed) return false;
  if (rebuilt.empty()) {
    spec.erase("subGroupPolicy");
  } else {
    spec["subGroupPolicy"] = std::move(rebuilt);
  }
  return true;
}

// Semantic equality of an existing minResources with the computed one. Absent or null is Go's
// nil pointer, which never equals the computed (non-nil) list; an undecodable one is rewritten.
bool same_min_resources(const json& existing, const api::ResourceList& wanted) {
  if (existing.is_null()) return false;
  auto list = api::resource_list_from_json(existing);
  if (!list || list->size() != wanted.size()) return false;
  for (const auto& [name, q] : wanted) {
    auto it = list->find(name);
    if (it == list->end() || !(it->second == q)) return false;
  }
  return true;
}

std::int64_t int_member(const json& object, std::string_view key) {
  const json& v = member(object, key);
  return v.is_number_integer() ? v.get<std::int64_t>() : 0;
}

}  // namespace

std::optional<json> update_podgroup(const Job& job, const json& existing,
                                    const PriorityOf& priority_of) {
  json updated = existing;
  if (!updated.contains("spec") || !updated["spec"].is_object()) updated["spec"] = json::object();
  json& spec = updated["spec"];
  bool changed = false;

  if (string_member(spec, "priorityClassName") != job.spec.priority_class_name) {
    set_or_erase(spec, "priorityClassName", job.spec.priority_class_name);
    changed = true;
  }

  const api::ResourceList min_resources = job_min_resources(job, priority_of);
  if (int_member(spec, "minMember") != job.spec.min_available ||
      !same_min_resources(member(spec, "minResources"), min_resources)) {
    if (job.spec.min_available == 0) {
      spec.erase("minMember");
    } else {
      spec["minMember"] = job.spec.min_available;
    }
    spec["minResources"] = min_resources;
    changed = true;
  }

  if (!member(spec, "minTaskMember").is_object()) {
    spec["minTaskMember"] = json::object();
    changed = true;
  }
  json& min_task = spec["minTaskMember"];
  for (const TaskSpec& task : job.spec.tasks) {
    const std::int32_t wanted = min_task_member(task);
    const json& have = member(min_task, task.name);
    if (!have.is_number_integer() || have.get<std::int64_t>() != wanted) {
      min_task[task.name] = wanted;
      changed = true;
    }
  }

  // An empty map is left out on the wire (omitempty), as Volcano's PUT does.
  if (min_task.empty()) spec.erase("minTaskMember");

  if (update_subgroups(job, spec)) changed = true;

  if (!changed) return std::nullopt;
  return updated;
}

}  // namespace vc::controllers::job

#include "controllers/jobflow/patch.h"

#include <algorithm>
#include <functional>
#include <string_view>
#include <utility>
#include <vector>

namespace vc::controllers::jobflow {
namespace {

using nlohmann::json;
// How a patch value goes into the template's value at the same place.
using Merge = std::function<void(json& base, const json& patch)>;
// The members of an object that merge by a rule of their own; the others are replaced.
using Rules = std::vector<std::pair<std::string_view, Merge>>;

void replace(json& base, const json& patch) {
  base = patch;
}

// Every member of patch over base: a null changes nothing; a member with a rule is merged by
// it; any other replaces. A patch that is not an object replaces base whole.
void merge_members(json& base, const json& patch, const Rules& rules) {
  if (!patch.is_object()) {
    base = patch;
    return;
  }
  if (!base.is_object()) base = json::object();
  for (const auto& [key, value] : patch.items()) {
    if (value.is_null()) continue;
    json& slot = base[key];
    const auto rule = std::find_if(rules.begin(), rules.end(),
                                   [&key = key](const auto& r) { return r.first == key; });
    if (slot.is_null() || rule == rules.end()) {
      slot = value;
    } else {
      rule->second(slot, value);
    }
  }
}

// An object whose listed members merge by their rules.
Merge fields(Rules rules) {
  return [rules = std::move(rules)](json& base, const json& patch) {
    merge_members(base, patch, rules);
  };
}

// Maps merge key by key (labels, annotations, nodeSelector, plugins, requests, limits).
void merge_map(json& base, const json& patch) {
  merge_members(base, patch, {});
}

// A list of objects merged on `key`: a patch entry with a matching entry goes into it by
// `entry`; one without the key or without a match is appended.
void merge_list(json& base, const json& patch, const char* key, const Merge& entry) {
  if (!patch.is_array()) {
    base = patch;
    return;
  }
  if (!base.is_array()) base = json::array();
  for (const json& e : patch) {
    const json* id = e.is_object() && e.contains(key) ? &e[key] : nullptr;
    json* match = nullptr;
    for (json& b : base) {
      if (id != nullptr && b.is_object() && b.contains(key) && b[key] == *id) {
        match = &b;
        break;
      }
    }
    if (match != nullptr) {
      entry(*match, e);
    } else {
      base.push_back(e);
    }
  }
}

Merge by(const char* key, Merge entry) {
  return [key, entry = std::move(entry)](json& base, const json& patch) {
    merge_list(base, patch, key, entry);
  };
}

const Merge& merge_task() {
  static const Merge container = fields({
      {"env", by("name", replace)},
      {"volumeMounts", by("mountPath", replace)},
      {"ports", by("containerPort", replace)},
      {"resources", fields({{"requests", merge_map}, {"limits", merge_map}})},
  });
  static const Merge pod_spec = fields({
      {"containers", by("name", container)},
      {"initContainers", by("name", container)},
      {"volumes", by("name", replace)},
      {"tolerations", by("key", replace)},
      {"hostAliases", by("ip", replace)},
      {"nodeSelector", merge_map},
  });
  static const Merge task = fields({
      {"template", fields({
                       {"metadata", fields({{"labels", merge_map}, {"annotations", merge_map}})},
                       {"spec", pod_spec},
                   })},
  });
  return task;
}

// Tasks by name; a patch task without a name patches every task of the template.
void merge_tasks(json& base, const json& patch) {
  if (!patch.is_array()) {
    base = patch;
    return;
  }
  json named = json::array();
  for (const json& task : patch) {
    const bool unnamed = task.is_object() &&
                         (!task.contains("name") || task["name"].is_null() || task["name"] == "");
    if (unnamed && base.is_array() && !base.empty()) {
      for (json& b : base) merge_task()(b, task);
    } else {
      named.push_back(task);
    }
  }
  merge_list(base, named, "name", merge_task());
}

}  // namespace

json apply_flow_patch(const json& template_spec, const json& patch_spec) {
  json out = template_spec.is_object() ? template_spec : json::object();
  if (!patch_spec.is_object()) return out;
  merge_members(
      out, patch_spec,
      {{"tasks", merge_tasks}, {"volumes", by("mountPath", replace)}, {"plugins", merge_map}});
  return out;
}

}  // namespace vc::controllers::jobflow

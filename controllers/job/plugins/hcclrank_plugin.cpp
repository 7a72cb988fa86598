#include "controllers/job/plugins/hcclrank_plugin.h"

#include <optional>

#include "controllers/job/plugins/plugin_support.h"

namespace vc::controllers::job::plugins {

using nlohmann::json;

namespace {

// The value of the first env var named RANK over the regular containers ("" if it has none, e.g.
// a valueFrom entry), or "" when no container has one.
std::string first_rank_env(json& pod) {
  std::optional<std::string> found;
  for_each_container(pod, Containers::Regular, [&](json& c) {
    const auto env = c.find("env");
    if (found || env == c.end() || !env->is_array()) return;
    for (const json& e : *env) {
      if (e.is_object() && e.value("name", "") == "RANK") {
        found = e.value("value", "");
        return;
      }
    }
  });
  return found.value_or("");
}

}  // namespace

HcclRankPlugin::HcclRankPlugin(const std::vector<std::string>& args) : Plugin(kName) {
  GoFlagSet flags;
  flags.add_string("master", &master_);
  flags.add_string("worker", &worker_);
  parse_args(flags, kName, args);
}

api::Status HcclRankPlugin::on_pod_create(json& pod, const Job& job) {
  if (!pod_annotation(pod, kHcclRankAnnotation).empty()) return api::ok_status();
  json& meta = pod["metadata"];
  if (!meta.is_object()) meta = json::object();
  json& annotations = meta["annotations"];
  if (!annotations.is_object()) annotations = json::object();

  if (std::string rank = first_rank_env(pod); !rank.empty()) {
    annotations[kHcclRankAnnotation] = rank;
    return api::ok_status();
  }
  const std::string task = pod_task(pod);
  if (task != master_ && task != worker_) return api::ok_status();
  const json& labels = meta.value("labels", json::object());
  if (!labels.is_object() || !labels.contains(keys::kTaskIndex)) {
    return api::Unexpected{"pod " + pod_name(pod) + " doesn't have " + keys::kTaskIndex + " label"};
  }
  const std::string text = labels[keys::kTaskIndex].is_string()
                               ? labels[keys::kTaskIndex].get<std::string>()
                               : labels[keys::kTaskIndex].dump();
  const auto index = go_atoi(text);
  if (!index) {
    return api::Unexpected{"failed to parse task index for pod " + pod_name(pod) +
                           ": strconv.Atoi: parsing \"" + text + "\": invalid syntax"};
  }
  std::int64_t rank = *index;
  if (task != master_) {
    const TaskSpec* master = find_task(job.spec, master_);
    rank += master ? master->replicas : 0;
  }
  annotations[kHcclRankAnnotation] = std::to_string(rank);
  return api::ok_status();
}

}  // namespace vc::controllers::job::plugins

#include "common/volcano/task_status_count.h"

namespace vc::volcano {

using nlohmann::json;

TaskStatusCount task_status_count_at(const json& object, std::string_view name,
                                     const FieldPath& at) {
  static const json kZeroTaskState = json::object();
  TaskStatusCount out;
  read::each_entry_at(
      object, name, at, [&](std::string_view task, const json& v, const FieldPath& tp) {
        TaskPhaseCounts& phases = out[std::string(task)];
        const json& state = v.is_null() ? kZeroTaskState : read::object(v, tp);
        read::each_entry_at(state, "phase", tp,
                            [&](std::string_view phase, const json& n, const FieldPath& np) {
                              phases[std::string(phase)] = n.is_null() ? 0 : read::int32(n, np);
                            });
      });
  return out;
}

json encode_task_status_count(const TaskStatusCount& counts) {
  json out = json::object();
  for (const auto& [task, phases] : counts) {
    json state = json::object();
    if (!phases.empty()) state["phase"] = phases;
    out[task] = std::move(state);
  }
  return out;
}

}  // namespace vc::volcano

#include "controllers/job/model/command.h"

#include "controllers/job/model/job.h"

namespace vc::controllers::job {

using nlohmann::json;

namespace {

// The string member, "" when absent or null; false when it has another JSON type.
bool read_string(const json& object, const char* key, std::string& out) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) {
    out.clear();
    return true;
  }
  if (!it->is_string()) return false;
  out = it->get<std::string>();
  return true;
}

}  // namespace

std::optional<JobCommand> job_command_from_json(const json& command) {
  if (!command.is_object()) return std::nullopt;
  auto target = command.find("target");
  if (target == command.end() || !target->is_object()) return std::nullopt;
  std::string api_version, kind;
  if (!read_string(*target, "apiVersion", api_version) || api_version != kJobApiVersion ||
      !read_string(*target, "kind", kind) || kind != kJobKind) {
    return std::nullopt;
  }
  JobCommand out;
  if (!read_string(*target, "name", out.target_name) ||
      !read_string(*target, "uid", out.target_uid) || !read_string(command, "action", out.action)) {
    return std::nullopt;
  }
  if (auto meta = command.find("metadata"); meta != command.end() && !meta->is_null()) {
    if (!meta->is_object() || !read_string(*meta, "namespace", out.namespace_) ||
        !read_string(*meta, "name", out.name) || !read_string(*meta, "uid", out.uid)) {
      return std::nullopt;
    }
  }
  return out;
}

}  // namespace vc::controllers::job

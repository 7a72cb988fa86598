#include "common/volcano/command.h"

#include "common/volcano/meta_types.h"

namespace vc::volcano {

bool Command::targets(std::string_view api_version, std::string_view kind) const {
  return target && target->api_version == api_version && target->kind == kind;
}

void decode_command(const nlohmann::json& command, Command& out, const FieldPath& root) {
  read::object(command, root);
  decode_object_meta(command, root, out);
  out.action = read::string_at(command, "action", root);
  out.target = owner_ref_at(command, "target", root);
  out.reason = read::string_at(command, "reason", root);
  out.message = read::string_at(command, "message", root);
}

api::Expected<Command> command_from_json(const nlohmann::json& command) {
  return decode_or_error<Command>([&] {
    Command out;
    decode_command(command, out);
    return out;
  });
}

}  // namespace vc::volcano

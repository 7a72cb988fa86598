#include "common/kube/object_writer.h"

#include "common/kube/client.h"

namespace vc::kube {

Result<nlohmann::json> ObjectWriter::remove(const Resource& r, std::string_view ns,
                                            std::string_view name) {
  return remove(r, ns, name, DeleteOptions{});
}

Result<nlohmann::json> ClientObjectWriter::get(const Resource& r, std::string_view ns,
                                               std::string_view name) {
  return client_.get(r, ns, name);
}

Result<nlohmann::json> ClientObjectWriter::create(const Resource& r, std::string_view ns,
                                                  const nlohmann::json& object) {
  return client_.create(r, ns, object);
}

Result<nlohmann::json> ClientObjectWriter::create(const Resource& r, std::string_view ns,
                                                  const nlohmann::json& object,
                                                  const fastjson::MemberFilter& reply_reads) {
  return client_.create(r, ns, object, reply_reads);
}

Result<nlohmann::json> ClientObjectWriter::update(const Resource& r, std::string_view ns,
                                                  const nlohmann::json& object) {
  return client_.update(r, ns, object);
}

Result<nlohmann::json> ClientObjectWriter::update_status(const Resource& r, std::string_view ns,
                                                         const nlohmann::json& object) {
  return client_.update_status(r, ns, object);
}

Result<nlohmann::json> ClientObjectWriter::update_status(
    const Resource& r, std::string_view ns, const nlohmann::json& object,
    const fastjson::MemberFilter& reply_reads) {
  return client_.update_status(r, ns, object, reply_reads);
}

Result<nlohmann::json> ClientObjectWriter::patch(const Resource& r, std::string_view ns,
                                                 std::string_view name, PatchType type,
                                                 const std::string& body) {
  return client_.patch(r, ns, name, type, body);
}

Result<nlohmann::json> ClientObjectWriter::remove(const Resource& r, std::string_view ns,
                                                  std::string_view name,
                                                  const DeleteOptions& options) {
  return client_.remove(r, ns, name, options);
}

}  // namespace vc::kube

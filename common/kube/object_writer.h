#pragma once
// ObjectWriter: the single-object calls a reconciler's executor makes (read one object, create,
// update, write status, patch, delete), behind an interface so that an executor can be tested by
// recording its calls in memory. ClientObjectWriter sends them through a Client; a controller's
// tests substitute a recorder and assert the exact ordered list of writes.
//
// Thread-safety: ClientObjectWriter is as thread-safe as Client (any thread, at once).

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/json/member_filter.h"
#include "common/kube/resource.h"
#include "common/kube/result.h"

namespace vc::kube {

class Client;
enum class PatchType;
struct DeleteOptions;

class ObjectWriter {
 public:
  virtual ~ObjectWriter() = default;
  virtual Result<nlohmann::json> get(const Resource& r, std::string_view ns,
                                     std::string_view name) = 0;
  virtual Result<nlohmann::json> create(const Resource& r, std::string_view ns,
                                        const nlohmann::json& object) = 0;
  // The same, building only the members of the reply that reply_reads keeps.
  virtual Result<nlohmann::json> create(const Resource& r, std::string_view ns,
                                        const nlohmann::json& object,
                                        const fastjson::MemberFilter& reply_reads) = 0;
  // PUT; name and resourceVersion come from object.metadata.
  virtual Result<nlohmann::json> update(const Resource& r, std::string_view ns,
                                        const nlohmann::json& object) = 0;
  virtual Result<nlohmann::json> update_status(const Resource& r, std::string_view ns,
                                               const nlohmann::json& object) = 0;
  virtual Result<nlohmann::json> update_status(const Resource& r, std::string_view ns,
                                               const nlohmann::json& object,
                                               const fastjson::MemberFilter& reply_reads) = 0;
  virtual Result<nlohmann::json> patch(const Resource& r, std::string_view ns,
                                       std::string_view name, PatchType type,
                                       const std::string& body) = 0;
  virtual Result<nlohmann::json> remove(const Resource& r, std::string_view ns,
                                        std::string_view name, const DeleteOptions& options) = 0;
  Result<nlohmann::json> remove(const Resource& r, std::string_view ns, std::string_view name);
};

// The calls, made on the API server.
class ClientObjectWriter final : public ObjectWriter {
 public:
  explicit ClientObjectWriter(Client& client) : client_(client) {}
  using ObjectWriter::remove;
  Result<nlohmann::json> get(const Resource& r, std::string_view ns,
                             std::string_view name) override;
  Result<nlohmann::json> create(const Resource& r, std::string_view ns,
                                const nlohmann::json& object) override;
  Result<nlohmann::json> create(const Resource& r, std::string_view ns,
                                const nlohmann::json& object,
                                const fastjson::MemberFilter& reply_reads) override;
  Result<nlohmann::json> update(const Resource& r, std::string_view ns,
                                const nlohmann::json& object) override;
  Result<nlohmann::json> update_status(const Resource& r, std::string_view ns,
                                       const nlohmann::json& object) override;
  Result<nlohmann::json> update_status(const Resource& r, std::string_view ns,
                                       const nlohmann::json& object,
                                       const fastjson::MemberFilter& reply_reads) override;
  Result<nlohmann::json> patch(const Resource& r, std::string_view ns, std::string_view name,
                               PatchType type, const std::string& body) override;
  Result<nlohmann::json> remove(const Resource& r, std::string_view ns, std::string_view name,
                                const DeleteOptions& options) override;

 private:
  Client& client_;
};

}  // namespace vc::kube

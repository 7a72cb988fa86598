#pragma once
// MemoryApi: an in-memory API server behind kube::ObjectWriter, for executor tests that call a
// reconciler synchronously and assert the exact ordered list of writes it made. Objects are kept
// per resource and "namespace/name" with the server's bookkeeping: create assigns a uid, a
// resourceVersion and a creationTimestamp (and a new pod starts Pending) and refuses a duplicate
// (AlreadyExists); update and update_status refuse a stale resourceVersion (Conflict), update
// keeps the stored status and update_status changes only the status; patch applies an RFC 6902
// JSON patch or an RFC 7386 merge patch; remove honours a UID precondition. Missing objects are
// NotFound. fail_next() scripts an error for one upcoming call; like the real Client, a transient
// one is noted in the calling thread's kube::FaultScope.
//
// Threads: every method may be called from any thread (one mutex); an executor that issues calls
// from several threads records them in the order they reached the mutex.

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/kube/client.h"
#include "common/kube/object_writer.h"

namespace vc::testing {

class MemoryApi final : public kube::ObjectWriter {
 public:
  // One call as the executor made it: verb is create, get, update, update-status, patch or
  // delete; key is "namespace/name" (or "name" for a cluster-scoped resource).
  struct Call {
    std::string verb;
    std::string resource;  // plural, e.g. "pods"
    std::string key;
    nlohmann::json body;  // what was sent (null for get and delete)
  };

  // Stores object as another client would (no call is recorded), filling in the server's
  // bookkeeping fields that are missing. Returns the stored object.
  nlohmann::json put(const kube::Resource& r, nlohmann::json object);
  // The stored object, or nullopt.
  std::optional<nlohmann::json> find(const kube::Resource& r, const std::string& key) const;
  // Every stored object of a resource, by key.
  std::vector<nlohmann::json> objects(const kube::Resource& r) const;
  void erase(const kube::Resource& r, const std::string& key);

  // The next call with this verb on this resource and key fails with error (once). A key
  // "<namespace>/*" matches any object of that namespace (e.g. whatever a create names).
  void fail_next(const std::string& verb, const kube::Resource& r, const std::string& key,
                 kube::ApiError error);

  std::vector<Call> calls() const;
  // "<verb> <resource> <key>" of each call other than get, in order.
  std::vector<std::string> writes() const;
  void clear_calls();

  using ObjectWriter::remove;
  kube::Result<nlohmann::json> get(const kube::Resource& r, std::string_view ns,
                                   std::string_view name) override;
  kube::Result<nlohmann::json> create(const kube::Resource& r, std::string_view ns,
                                      const nlohmann::json& object) override;
  kube::Result<nlohmann::json> create(const kube::Resource& r, std::string_view ns,
                                      const nlohmann::json& object,
                                      const fastjson::MemberFilter& reply_reads) override;
  kube::Result<nlohmann::json> update(const kube::Resource& r, std::string_view ns,
                                      const nlohmann::json& object) override;
  kube::Result<nlohmann::json> update_status(const kube::Resource& r, std::string_view ns,
                                             const nlohmann::json& object) override;
  kube::Result<nlohmann::json> update_status(const kube::Resource& r, std::string_view ns,
                                             const nlohmann::json& object,
                                             const fastjson::MemberFilter& reply_reads) override;
  kube::Result<nlohmann::json> patch(const kube::Resource& r, std::string_view ns,
                                     std::string_view name, kube::PatchType type,
                                     const std::string& body) override;
  kube::Result<nlohmann::json> remove(const kube::Resource& r, std::string_view ns,
                                      std::string_view name,
                                      const kube::DeleteOptions& options) override;

  // The creationTimestamp given to created objects.
  static constexpr const char* kCreationTimestamp = "2026-01-01T00:00:00Z";

 private:
  using Objects = std::map<std::string, nlohmann::json>;  // key -> object
  Objects& objects_locked(const kube::Resource& r) { return by_resource_[std::string(r.plural)]; }
  // Records the call; returns the scripted error for it, if any.
  std::optional<kube::ApiError> begin_locked(const std::string& verb, const kube::Resource& r,
                                             const std::string& key, nlohmann::json body);
  nlohmann::json stamp_locked(const kube::Resource& r, nlohmann::json object);
  kube::Result<nlohmann::json> write_locked(const std::string& verb, const kube::Resource& r,
                                            std::string_view ns, const nlohmann::json& object);

  mutable std::mutex mu_;
  std::map<std::string, Objects> by_resource_;
  std::map<std::string, kube::ApiError> failures_;  // "<verb> <resource> <key>"
  std::vector<Call> calls_;
  int next_version_ = 1000;
  int next_uid_ = 1;
};

// An ApiError as the API server would report it.
kube::ApiError api_error(kube::ErrorKind kind, std::string message = "scripted failure");

}  // namespace vc::testing

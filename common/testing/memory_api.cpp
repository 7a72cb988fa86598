#include "common/testing/memory_api.h"

#include "common/kube/cache/object.h"
#include "common/kube/fault_scope.h"

namespace vc::testing {

using nlohmann::json;

namespace {

std::string key_of(std::string_view ns, std::string_view name) {
  return kube::cache::object_key(ns, name);
}

std::string name_of(const json& object) {
  const json& meta = object.contains("metadata") ? object["metadata"] : json();
  return meta.is_object() ? meta.value("name", "") : "";
}

std::string resource_version_of(const json& object) {
  const json& meta = object.contains("metadata") ? object["metadata"] : json();
  return meta.is_object() ? meta.value("resourceVersion", "") : "";
}

int http_status_of(kube::ErrorKind kind) {
  switch (kind) {
    case kube::ErrorKind::BadRequest:
      return 400;
    case kube::ErrorKind::Unauthorized:
      return 401;
    case kube::ErrorKind::Forbidden:
      return 403;
    case kube::ErrorKind::NotFound:
      return 404;
    case kube::ErrorKind::AlreadyExists:
    case kube::ErrorKind::Conflict:
      return 409;
    case kube::ErrorKind::Invalid:
      return 422;
    case kube::ErrorKind::TooManyRequests:
      return 429;
    case kube::ErrorKind::ServiceUnavailable:
      return 503;
    default:
      return 500;
  }
}

}  // namespace

kube::ApiError api_error(kube::ErrorKind kind, std::string message) {
  kube::ApiError e;
  e.kind = kind;
  e.http_status = http_status_of(kind);
  e.reason = kube::to_string(kind);
  e.message = std::move(message);
  return e;
}

json MemoryApi::stamp_locked(const kube::Resource& r, json object) {
  json& meta = object["metadata"];
  if (!meta.contains("uid")) meta["uid"] = "uid-" + std::to_string(next_uid_++);
  if (!meta.contains("creationTimestamp")) meta["creationTimestamp"] = kCreationTimestamp;
  meta["resourceVersion"] = std::to_string(++next_version_);
  if (r.plural == "pods" && !object.contains("status")) object["status"] = {{"phase", "Pending"}};
  return object;
}

json MemoryApi::put(const kube::Resource& r, json object) {
  std::lock_guard lock(mu_);
  const std::string ns =
      object.contains("metadata") ? object["metadata"].value("namespace", "") : "";
  json stored = stamp_locked(r, std::move(object));
  objects_locked(r)[key_of(ns, name_of(stored))] = stored;
  return stored;
}

std::optional<json> MemoryApi::find(const kube::Resource& r, const std::string& key) const {
  std::lock_guard lock(mu_);
  auto res = by_resource_.find(std::string(r.plural));
  if (res == by_resource_.end()) return std::nullopt;
  auto it = res->second.find(key);
  if (it == res->second.end()) return std::nullopt;
  return it->second;
}

std::vector<json> MemoryApi::objects(const kube::Resource& r) const {
  std::lock_guard lock(mu_);
  std::vector<json> out;
  auto res = by_resource_.find(std::string(r.plural));
  if (res == by_resource_.end()) return out;
  for (const auto& [key, object] : res->second) out.push_back(object);
  return out;
}

void MemoryApi::erase(const kube::Resource& r, const std::string& key) {
  std::lock_guard lock(mu_);
  objects_locked(r).erase(key);
}

void MemoryApi::fail_next(const std::string& verb, const kube::Resource& r, const std::string& key,
                          kube::ApiError error) {
  std::lock_guard lock(mu_);
  failures_[verb + " " + std::string(r.plural) + " " + key] = std::move(error);
}

std::vector<MemoryApi::Call> MemoryApi::calls() const {
  std::lock_guard lock(mu_);
  return calls_;
}

std::vector<std::string> MemoryApi::writes() const {
  std::lock_guard lock(mu_);
  std::vector<std::string> out;
  for (const Call& c : calls_) {
    if (c.verb != "get") out.push_back(c.verb + " " + c.resource + " " + c.key);
  }
  return out;
}

void MemoryApi::clear_calls() {
  std::lock_guard lock(mu_);
  calls_.clear();
}

std::optional<kube::ApiError> MemoryApi::begin_locked(const std::string& verb,
                                                      const kube::Resource& r,
                                                      const std::string& key, json body) {
  calls_.push_back(Call{verb, std::string(r.plural), key, std::move(body)});
  const std::string prefix = verb + " " + std::string(r.plural) + " ";
  auto it = failures_.find(prefix + key);
  if (it == failures_.end()) {
    const auto slash = key.find('/');
    if (slash != std::string::npos) it = failures_.find(prefix + key.substr(0, slash) + "/*");
  }
  if (it == failures_.end()) return std::nullopt;
  kube::ApiError error = std::move(it->second);
  failures_.erase(it);
  kube::FaultScope::note_api_error(error);  // as the real Client notes a call's final failure
  return error;
}

kube::Result<json> MemoryApi::get(const kube::Resource& r, std::string_view ns,
                                  std::string_view name) {
  std::lock_guard lock(mu_);
  const std::string key = key_of(ns, name);
  if (auto error = begin_locked("get", r, key, nullptr)) return *error;
  Objects& objects = objects_locked(r);
  auto it = objects.find(key);
  if (it == objects.end()) {
    return api_error(kube::ErrorKind::NotFound,
                     std::string(r.plural) + " \"" + std::string(name) + "\" not found");
  }
  return it->second;
}

kube::Result<json> MemoryApi::create(const kube::Resource& r, std::string_view ns,
                                     const json& object) {
  std::lock_guard lock(mu_);
  const std::string name = name_of(object);
  const std::string key = key_of(ns, name);
  if (auto error = begin_locked("create", r, key, object)) return *error;
  Objects& objects = objects_locked(r);
  if (objects.contains(key)) {
    return api_error(kube::ErrorKind::AlreadyExists,
                     std::string(r.plural) + " \"" + name + "\" already exists");
  }
  json stored = object;
  if (!ns.empty()) stored["metadata"]["namespace"] = std::string(ns);
  stored = stamp_locked(r, std::move(stored));
  objects[key] = stored;
  return stored;
}

kube::Result<json> MemoryApi::create(const kube::Resource& r, std::string_view ns,
                                     const json& object, const fastjson::MemberFilter&) {
  return create(r, ns, object);
}

kube::Result<json> MemoryApi::write_locked(const std::string& verb, const kube::Resource& r,
                                           std::string_view ns, const json& object) {
  const std::string name = name_of(object);
  const std::string key = key_of(ns, name);
  if (auto error = begin_locked(verb, r, key, object)) return *error;
  Objects& objects = objects_locked(r);
  auto it = objects.find(key);
  if (it == objects.end()) {
    return api_error(kube::ErrorKind::NotFound,
                     std::string(r.plural) + " \"" + name + "\" not found");
  }
  const std::string sent_version = resource_version_of(object);
  if (!sent_version.empty() && sent_version != resource_version_of(it->second)) {
    return api_error(kube::ErrorKind::Conflict,
                     "Operation cannot be fulfilled on " + std::string(r.plural) + " \"" + name +
                         "\": the object has been modified; please apply your changes to the "
                         "latest version and try again");
  }
  json next = it->second;
  if (verb == "update-status") {
    next["status"] = object.contains("status") ? object["status"] : json::object();
  } else {
    const json status = next.contains("status") ? next["status"] : json();
    next = object;
    next["metadata"]["uid"] = it->second["metadata"]["uid"];
    next["metadata"]["creationTimestamp"] = it->second["metadata"]["creationTimestamp"];
    if (!status.is_null()) next["status"] = status;
  }
  next["metadata"]["resourceVersion"] = std::to_string(++next_version_);
  it->second = next;
  return next;
}

kube::Result<json> MemoryApi::update(const kube::Resource& r, std::string_view ns,
                                     const json& object) {
  std::lock_guard lock(mu_);
  return write_locked("update", r, ns, object);
}

kube::Result<json> MemoryApi::update_status(const kube::Resource& r, std::string_view ns,
                                            const json& object) {
  std::lock_guard lock(mu_);
  return write_locked("update-status", r, ns, object);
}

kube::Result<json> MemoryApi::update_status(const kube::Resource& r, std::string_view ns,
                                            const json& object, const fastjson::MemberFilter&) {
  return update_status(r, ns, object);
}

kube::Result<json> MemoryApi::patch(const kube::Resource& r, std::string_view ns,
                                    std::string_view name, kube::PatchType type,
                                    const std::string& body) {
  std::lock_guard lock(mu_);
  const std::string key = key_of(ns, name);
  json parsed = json::parse(body, nullptr, false);
  if (auto error = begin_locked("patch", r, key, parsed)) return *error;
  Objects& objects = objects_locked(r);
  auto it = objects.find(key);
  if (it == objects.end()) {
    return api_error(kube::ErrorKind::NotFound,
                     std::string(r.plural) + " \"" + std::string(name) + "\" not found");
  }
  if (parsed.is_discarded()) return api_error(kube::ErrorKind::BadRequest, "patch is not JSON");
  json next = it->second;
  try {
    if (type == kube::PatchType::Json) {
      next = next.patch(parsed);
    } else if (type == kube::PatchType::Merge) {
      next.merge_patch(parsed);
    } else {
      return api_error(kube::ErrorKind::BadRequest, "server-side apply is not modelled");
    }
  } catch (const json::exception& e) {
    return api_error(kube::ErrorKind::Invalid, e.what());
  }
  next["metadata"]["resourceVersion"] = std::to_string(++next_version_);
  it->second = next;
  return next;
}

kube::Result<json> MemoryApi::remove(const kube::Resource& r, std::string_view ns,
                                     std::string_view name, const kube::DeleteOptions& options) {
  std::lock_guard lock(mu_);
  const std::string key = key_of(ns, name);
  if (auto error = begin_locked("delete", r, key, nullptr)) return *error;
  Objects& objects = objects_locked(r);
  auto it = objects.find(key);
  if (it == objects.end()) {
    return api_error(kube::ErrorKind::NotFound,
                     std::string(r.plural) + " \"" + std::string(name) + "\" not found");
  }
  if (options.precondition_uid &&
      *options.precondition_uid != it->second["metadata"].value("uid", "")) {
    return api_error(kube::ErrorKind::Conflict, "Precondition failed: UID in precondition");
  }
  json gone = std::move(it->second);
  objects.erase(it);
  return gone;
}

}  // namespace vc::testing

#pragma once
// Object: the unit an informer cache holds. Caches hand out std::shared_ptr<const Object>; an
// object is immutable once cached, so readers on any thread share it without locks or copies.
//
// The subclass is the transform's choice. The default keeps the whole JSON document (minus
// metadata.managedFields, which no controller reads and which is often the largest part of an
// object); a controller that reads a few fields installs a transform that builds a compact typed
// view instead, which is most of the memory saving on large clusters.

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/json/member_filter.h"

namespace vc::kube::cache {

// Labels sorted by key: a flat vector is several times smaller than a map for the handful of
// labels objects carry.
using Labels = std::vector<std::pair<std::string, std::string>>;

struct Object {
  virtual ~Object() = default;

  std::string namespace_;  // empty for cluster-scoped objects
  std::string name;
  std::string uid;
  std::string resource_version;
  Labels labels;

  // "namespace/name", or "name" for cluster-scoped objects: the store and work queue key.
  std::string key() const;
  // The value of a label, or null.
  const std::string* label(std::string_view key) const;
};

using ObjectPtr = std::shared_ptr<const Object>;

// The default cached form: the object's JSON without metadata.managedFields.
struct JsonObject : Object {
  nlohmann::json json;
};

// Turns one object from the API server into its cached form. It may throw (nlohmann exceptions,
// std::invalid_argument) or return null for an object it cannot represent; the reflector logs
// and skips such an object. Must be thread-safe: several informers may share one.
using TransformFn = std::function<ObjectPtr(nlohmann::json&&)>;

// A transform with a name: shared informers are keyed by the name, since functions cannot be
// compared. Two different functions must not share a name.
struct Transform {
  Transform() = default;
  Transform(std::string name_, TransformFn fn_,
            std::shared_ptr<const fastjson::MemberFilter> reads_ = nullptr)
      : name(std::move(name_)), fn(std::move(fn_)), reads(std::move(reads_)) {}

  std::string name = "json";
  TransformFn fn;  // null = json_transform
  // The members fn reads, when it reads only some: watch events then build only those (the rest
  // of each object is checked and skipped, never allocated). Null = the whole object. Objects
  // from a list are parsed whole; the transform must give the same result for both.
  std::shared_ptr<const fastjson::MemberFilter> reads;
};

// "ns/name" or "name".
std::string object_key(std::string_view ns, std::string_view name);
// Splits a key into namespace (empty for cluster-scoped) and name.
std::pair<std::string_view, std::string_view> split_key(std::string_view key);

// Fills namespace_, name, uid, resource_version and labels from object["metadata"]. Missing
// fields stay empty; fields of the wrong JSON type throw nlohmann::json::type_error.
void read_metadata(const nlohmann::json& object, Object& out);

// The default transform: strips metadata.managedFields and keeps the rest as a JsonObject.
ObjectPtr json_transform(nlohmann::json&& object);

}  // namespace vc::kube::cache

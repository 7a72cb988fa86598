#pragma once
// OwnWrites: read-your-writes for the objects a controller updates itself.
//
// A controller plans from its informer cache and writes the result (a status update, say). The
// watch event that carries that write reaches the cache a little later: under load, hundreds of
// milliseconds. A sync of the same key in between (woken by some other event) would plan from the
// version the write replaced and take decisions that the write had already made moot: drop or
// recreate what it just recorded, or report missing what it just created.
//
// After a successful write the controller records the resourceVersion it wrote FROM (the cached
// version its plan read). A later sync whose cache still shows exactly that version knows the
// cache has not seen its write and waits for it instead of planning. Any other version (ours, or
// a newer one from someone else) is past the write, so the record is dropped. Equality is all
// that is compared: resourceVersions are opaque, and the cache never goes back to an older one
// than a version the controller has already read from it.
//
// Threads: any; a mutex guards the map. Entries live from a write until the next sync of the key
// sees the cache past it (or forget() on deletion), so the map holds the keys written in the last
// watch delay, not every key ever written.

#include <cstddef>
#include <mutex>
#include <string>
#include <unordered_map>

namespace vc::controllers {

class OwnWrites {
 public:
  // A write of `key` succeeded; the plan behind it read the object at `read_version`.
  void wrote(const std::string& key, const std::string& read_version);

  // True while the cache still holds the version the last recorded write replaced: plan later.
  // False (and the record dropped) once it holds any other version.
  bool cache_behind(const std::string& key, const std::string& cached_version);

  // The object is gone: nothing to wait for.
  void forget(const std::string& key);

  std::size_t size() const;

 private:
  mutable std::mutex mu_;
  std::unordered_map<std::string, std::string> replaced_;  // key -> version our write replaced
};

}  // namespace vc::controllers

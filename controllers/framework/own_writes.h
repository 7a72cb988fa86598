#pragma once
// OwnWrites: read-your-writes for the objects a controller updates itself.
//
// A controller plans from its informer cache and writes the result (a status update, say). The
// watch event that carries that write reaches the cache a little later: under load, hundreds of
// milliseconds. A sync in between (woken by some other event, or by another worker's request for
// the same object) would plan from the version the write replaced and take decisions that the
// write had already made moot: drop or recreate what it just recorded, or report missing what it
// just created.
//
// After a write that changed the object the controller records the resourceVersion it wrote FROM
// (the cached version its plan read). A later sync whose cache still shows exactly that version
// knows the cache has not seen its write and waits for it instead of planning. Any other version
// (ours, or a newer one from someone else) is past the write, so the record is dropped. Equality
// is all that is compared: resourceVersions are opaque, and the cache never goes back to an older
// one than a version the controller has already read from it. A write that changed nothing (the
// API server kept the version) is not recorded: no event would ever move the cache past it. A
// record older than max_wait is dropped too, so a watch that lost the event cannot stall a key
// (the write's resourceVersion precondition still guards a plan made from a stale cache).
//
// Threads: any; a mutex guards the map. Entries live from a write until the next sync of the key
// sees the cache past it (or max_wait, or forget() on deletion), so the map holds the keys written
// in the last watch delay, not every key ever written.

#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>
#include <unordered_map>

namespace vc::controllers {

class OwnWrites {
 public:
  using Clock = std::chrono::steady_clock;

  explicit OwnWrites(Clock::duration max_wait = std::chrono::seconds(30)) : max_wait_(max_wait) {}

  // A write of `key` succeeded: the plan behind it read the object at `read_version`, the API
  // server answered with `written_version`.
  void wrote(const std::string& key, const std::string& read_version,
             const std::string& written_version, Clock::time_point now = Clock::now());

  // True while the cache still holds the version the last recorded write replaced: plan later.
  // False (and the record dropped) once it holds any other version, or the record is too old.
  bool cache_behind(const std::string& key, const std::string& cached_version,
                    Clock::time_point now = Clock::now());

  // The object is gone: nothing to wait for.
  void forget(const std::string& key);

  std::size_t size() const;

 private:
  struct Record {
    std::string replaced;  // the version our write replaced
    Clock::time_point at;
  };
  const Clock::duration max_wait_;
  mutable std::mutex mu_;
  std::unordered_map<std::string, Record> records_;
};

// How soon a sync put off for a cache that has not seen our own write tries again, should the
// write's watch event not wake it first.
inline constexpr std::chrono::milliseconds kOwnWriteRetry{500};

}  // namespace vc::controllers

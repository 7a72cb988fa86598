#pragma once
// Reflector: keeps a sink in step with one resource collection on the API server. It lists the
// collection in pages, hands the complete list to the sink, then watches from the list's
// resourceVersion and hands over each change:
//
//   list (limit 500, continue, ...) -> sink.replace(all, rv)
//   watch ?resourceVersion=rv&allowWatchBookmarks=true -> sink.apply(event) for each event
//
// Every event and bookmark advances the last seen resourceVersion. When a watch ends - the
// server's timeout, a reset connection, an ERROR event - the reflector watches again from that
// version, so nothing is lost or repeated. When the server no longer has that version (410 Gone
// at the start of a watch, an ERROR event with code 410, or an expired continue token while
// paging) it lists again; the sink's replace() works out what changed, including deletions that
// happened while nobody watched. Failures wait a jittered, growing backoff (800 ms to 30 s),
// reset once a watch has stayed up for a healthy period; a cleanly ended, healthy watch resumes
// at once.
//
// An object the transform cannot decode (it throws or returns null) is handed to the sink as a
// DecodeRejection - from a list with the complete collection, from a watch on its own - so that
// the sink can keep it known instead of treating it as gone (see Informer). Only an object
// without a name, which cannot be keyed, is dropped with a log line.
//
// Threads: run() blocks the calling thread (the informer's reflector thread) until stop is
// requested, which ends an open watch promptly. The sink is called on that thread only.
// last_resource_version() may be called from any thread.

#include <chrono>
#include <mutex>
#include <random>
#include <stop_token>
#include <string>
#include <vector>

#include "common/kube/cache/backoff.h"
#include "common/kube/cache/decode_rejection.h"
#include "common/kube/cache/object.h"
#include "common/kube/cache/written_objects.h"
#include "common/kube/client.h"
#include "common/random/random.h"

namespace vc::kube::cache {

class ReflectorSink {
 public:
  virtual ~ReflectorSink() = default;
  // The complete collection as of resource_version (after the first list and every relist):
  // objects decoded, and rejected those the transform could not decode, which exist all the
  // same.
  virtual void replace(std::vector<ObjectPtr> objects, const std::string& resource_version,
                       std::vector<DecodeRejection> rejected) = 0;
  // One watch event: Added, Modified or Deleted (for Deleted, obj is the final state).
  virtual void apply(WatchEvent::Type type, ObjectPtr obj) = 0;
  // An Added or Modified watch event whose object the transform could not decode.
  virtual void reject(DecodeRejection rejection) = 0;
  // A deletion whose final state could not be transformed: the sink forgets key all the same.
  virtual void remove(const std::string& key) = 0;
};

struct ReflectorOptions {
  std::string namespace_;  // "" = all namespaces (or a cluster-scoped resource)
  std::string label_selector;
  std::string field_selector;
  int64_t page_size = 500;
  TransformFn transform;                                          // null = json_transform
  std::shared_ptr<const fastjson::MemberFilter> transform_reads;  // Transform::reads
  BackoffOptions backoff;
  // Objects this process wrote (not owned; null = none): a watch event for exactly an offered
  // version takes the offered object instead of being decoded.
  WrittenObjects* written = nullptr;
  // A watch that stays up this long is healthy: the backoff starts again from its initial delay.
  std::chrono::milliseconds healthy_after{std::chrono::minutes(2)};
  // Each watch asks the server to end it after a random time in [min, 2*min], so that watches
  // of many clients do not all end at once.
  std::chrono::seconds min_watch_timeout{std::chrono::minutes(5)};
};

class Reflector {
 public:
  Reflector(Client& client, const Resource& resource, ReflectorOptions options,
            ReflectorSink& sink);
  Reflector(const Reflector&) = delete;
  Reflector& operator=(const Reflector&) = delete;

  void run(std::stop_token stop);
  std::string last_resource_version() const;

 private:
  enum class WatchEnd { Clean, Gone, Failed, Stopped };

  Status list_and_replace(std::stop_token stop);
  WatchEnd watch(std::stop_token stop);
  // Transforms one object. Null when it cannot be cached: then *rejected (if given) describes it
  // when it has a name, and its name is empty when it has none (logged and dropped).
  ObjectPtr transform(nlohmann::json&& object, DecodeRejection* rejected = nullptr);
  void set_resource_version(std::string rv);
  // Sleeps the next backoff delay; false if stop was requested meanwhile.
  bool wait_backoff(std::stop_token stop);

  Client& client_;
  const Resource resource_;
  const ReflectorOptions options_;
  const std::string what_;  // "pods" or "pods in ns", for logs
  ReflectorSink& sink_;
  Backoff backoff_;
  random::SmallRng rng_;  // watch timeouts

  mutable std::mutex rv_mu_;
  std::string resource_version_;  // the last version seen: list, event or bookmark
};

}  // namespace vc::kube::cache

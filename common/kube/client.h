#pragma once
// Client: the REST verbs of the Kubernetes API for any resource in resource.h.
//
// Thread-safety: every method may be called from any thread at once. Calls block the calling
// thread until the response (or, for watch, the end of the stream) arrives; each call has its own
// deadline. All calls of one Client share one keep-alive connection pool and one client-side rate
// limiter (--kube-api-qps/--kube-api-burst), or two when ClientOptions::own_bucket_group_suffix
// is set.

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/json/member_filter.h"
#include "common/kube/config.h"
#include "common/kube/resource.h"
#include "common/kube/result.h"

namespace vc::kube {

using nlohmann::json;

struct ListOptions {
  std::string label_selector;
  std::string field_selector;
  int64_t limit = 0;                   // page size; 0 = server default (everything)
  std::string continue_token;          // from the previous page's metadata.continue
  std::string resource_version;        // "" = most recent (quorum read); "0" = any, from cache
  std::string resource_version_match;  // "", "NotOlderThan" or "Exact"
};

struct WatchEvent {
  enum class Type { Added, Modified, Deleted, Bookmark, Error };
  Type type = Type::Added;
  json object;  // the object; for Error, a metav1.Status
  // Set when WatchOptions::known_version said the caller holds this version: object then has
  // only metadata.namespace, metadata.name and metadata.resourceVersion.
  bool head_only = false;
};

// What identifies the object of an Added or Modified watch event, read before it is built.
struct WatchEventHead {
  WatchEvent::Type type = WatchEvent::Type::Added;
  std::string_view namespace_;
  std::string_view name;
  std::string_view resource_version;
};

struct WatchOptions {
  std::string label_selector;
  std::string field_selector;
  std::string resource_version;  // start after this version
  bool allow_bookmarks = true;
  int timeout_seconds = 0;  // server-side timeoutSeconds; 0 = let the server pick (~5-10 min)
  // The members of each event's object to build (an ERROR event's Status is always whole
  // enough to read). Null = all of it but metadata.managedFields.
  std::shared_ptr<const fastjson::MemberFilter> object_filter;
  // Optional. Asked with the head of each Added and Modified event before its object is built;
  // true means the caller already holds that object at exactly that version (from the reply to
  // its own write), and the event arrives head_only, without the cost of building it.
  std::function<bool(const WatchEventHead&)> known_version;
  // Optional, with known_version. Asked before each event: false means known_version would
  // answer no to any head now, so the head is not read at all (reading it scans the whole event).
  std::function<bool()> anything_known;
};

enum class PatchType {
  Merge,  // application/merge-patch+json (RFC 7386)
  Json,   // application/json-patch+json (RFC 6902)
  Apply,  // application/apply-patch+yaml: server-side apply (JSON is valid YAML)
};

struct PatchOptions {
  std::string field_manager;  // required for Apply
  bool force = false;         // Apply only: take ownership of conflicting fields
  std::string subresource;    // e.g. "status"
};

struct DeleteOptions {
  std::optional<std::string> propagation_policy;  // "Foreground", "Background", "Orphan"
  std::optional<std::string> precondition_uid;
  std::optional<std::string> precondition_resource_version;
  std::optional<int64_t> grace_period_seconds;
};

struct ClientOptions {
  double qps = 50;  // --kube-api-qps; <= 0 disables client-side limiting
  int burst = 100;  // --kube-api-burst
  // Requests for API groups ending with this suffix take their tokens from a second bucket of the
  // same qps/burst; empty: one bucket for everything. Volcano's controller-manager reaches its own
  // groups through a second clientset, which has its own token bucket
  // (spec controller-manager.md §1.6), so ".volcano.sh" there gives the same request budget.
  std::string own_bucket_group_suffix;
  std::string user_agent = "vc-cpp/" VC_VERSION;     // "<binary>/<version>"
  std::chrono::milliseconds request_timeout{30000};  // per request, not for watches
  int max_idle_connections = 16;
  // Retries: GET/list retry transport errors, 429 and 5xx; other verbs retry only 429 (the server
  // did not process the request). All attempts of one call share its request_timeout.
  int max_retries = 3;
  std::chrono::milliseconds retry_base_delay{200};  // doubled per attempt, with jitter
  std::chrono::seconds max_retry_after{10};         // cap on a server's Retry-After
  // A watch with timeout_seconds set is abandoned this long after the server should have ended it
  // (guards against a half-open connection).
  std::chrono::seconds watch_grace{30};
  // StreamPacing::pause of every watch: after reading all that had arrived, wait this long before
  // reading again, so a busy watch wakes once per batch of events instead of once per event.
  // Events arrive up to this much later. 0: read at once.
  std::chrono::milliseconds watch_read_pause{0};
  // --kube-api-content-type: "application/json", or "application/vnd.kubernetes.protobuf" to
  // exchange built-in objects (pods, events, leases, nodes, ...: what proto/schema.h knows) in
  // Kubernetes' protobuf encoding, which costs the API server less to encode and decode. Custom
  // resources and patches are JSON either way, and so is an object our encoder cannot write
  // exactly (a field newer than our schema). Callers see JSON in every case.
  std::string content_type = "application/json";
};

// A bound on one call tighter than ClientOptions::request_timeout: the call, retries included,
// gives up at this instant (ErrorKind::Timeout), its connection reset. For a caller whose answer
// is worthless after a point, e.g. a lease renewal after the renew deadline.
using CallDeadline = std::optional<std::chrono::steady_clock::time_point>;

// How a call waits for a token of the client-side rate limiter.
enum class LimiterWait {
  Wait,      // as long as the bucket needs (the default)
  FailFast,  // not at all: with no token free now, the call (or its retry) fails at once with
             // ErrorKind::TooManyRequests and http_status 0, sending nothing. For a caller that
             // answers someone waiting, e.g. an admission review.
};

class Client {
 public:
  // Throws ConfigError when the server URL or the TLS material in config is unusable.
  Client(Config config, ClientOptions options = {});
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  Result<json> get(const Resource& r, std::string_view ns, std::string_view name,
                   std::string_view subresource = {}, CallDeadline by = {},
                   LimiterWait wait = LimiterWait::Wait);
  // ns empty: all namespaces (or a cluster-scoped resource). Returns the List object as sent.
  Result<json> list(const Resource& r, std::string_view ns, const ListOptions& options = {});
  // Like list, but hands each item to on_item as soon as it is parsed and returns the List
  // without them ("items" empty; metadata.resourceVersion and metadata.continue intact). Peak
  // memory is one decoded item instead of the whole tree: use it for big lists (informers). On
  // an error some items may already have been delivered; the caller discards them.
  Result<json> list_each(const Resource& r, std::string_view ns, const ListOptions& options,
                         const std::function<void(json&&)>& on_item);
  Result<json> create(const Resource& r, std::string_view ns, const json& object,
                      CallDeadline by = {});
  // The same, building only the members of the created object that reply_reads keeps (the
  // rest of the reply is checked and skipped): for callers that read a field or two of it.
  Result<json> create(const Resource& r, std::string_view ns, const json& object,
                      const fastjson::MemberFilter& reply_reads);
  // PUT; name and resourceVersion come from object.metadata.
  Result<json> update(const Resource& r, std::string_view ns, const json& object,
                      CallDeadline by = {});
  Result<json> update_status(const Resource& r, std::string_view ns, const json& object);
  // The same, building only the members of the reply that reply_reads keeps (see create).
  Result<json> update_status(const Resource& r, std::string_view ns, const json& object,
                             const fastjson::MemberFilter& reply_reads);
  Result<json> patch(const Resource& r, std::string_view ns, std::string_view name, PatchType type,
                     const std::string& body, const PatchOptions& options = {});
  // DELETE; returns the object (or Status) the server sent back.
  Result<json> remove(const Resource& r, std::string_view ns, std::string_view name,
                      const DeleteOptions& options = {});

  // Streams watch events to on_event until the server ends the stream, an error occurs, or
  // stop is requested (then returns ErrorKind::Cancelled promptly, closing the connection).
  // A clean end of stream returns ok. Errors before the first event (e.g. 410 Gone when the
  // resourceVersion is too old) are returned as ApiError; an ERROR event mid-stream is delivered
  // to on_event like any other event.
  Status watch(const Resource& r, std::string_view ns, const WatchOptions& options,
               const std::function<void(WatchEvent&&)>& on_event, std::stop_token stop = {});

  // Leadership fencing, for a replica that has just lost its lease: fence() cancels every call
  // in flight (its connection is reset, so no byte of it still queued reaches the server, and a
  // call waiting for a rate-limiter token gives up) and makes every later call fail at once with
  // ErrorKind::Cancelled, until unfence(). Watches are left alone: they only read, and their
  // owners stop them. Thread-safe; fence() returns without waiting for the cancelled calls.
  void fence();
  void unfence();
  bool fenced() const;

  const Config& config() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace vc::kube

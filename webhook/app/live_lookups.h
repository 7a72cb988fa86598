#pragma once
// LiveLookups: the webhook's few reads from the API server made while a review waits (a queue or
// namespace its informer does not hold: created a moment ago, or the informer has not synced).
// Admit functions run on the admission server's I/O threads, so every read here is bounded:
//
//   - a deadline (--live-lookup-timeout, default 2 s, well inside the API server's 10 s webhook
//     timeout), retries included;
//   - no wait for a client-side rate-limiter token (kube::LimiterWait::FailFast): with none free
//     the read is not sent;
//   - at most `concurrency` reads at once (--live-lookup-concurrency); beyond that a review does
//     not read at all, so a flood of reviews naming missing objects, or a slow API server, holds
//     at most that many I/O threads and never all of them;
//   - a negative cache: an object the API server just said does not exist is not read again for
//     negative_ttl (--live-lookup-negative-ttl), holding at most negative_capacity names (oldest
//     forgotten first). Callers consult their informer first, so an object created meanwhile is
//     found there.
//
// A read not made or not answered is Failed with the reason; callers answer what Volcano answers
// when its lookup fails (informer_cluster_view.h).
//
// Metrics (process registry):
//   vc_webhook_live_lookups_total{resource,result}   counter; result found|not_found|
//       negative_cached|busy|throttled|timeout|error (the last four are Failed; negative_cached
//       and busy sent nothing)
//   vc_webhook_live_lookup_duration_seconds{resource} histogram of the reads sent
//
// Thread-safety: get() may be called from any thread at once.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "common/kube/client.h"

namespace vc::webhook::app {

struct LiveLookupOptions {
  std::chrono::milliseconds timeout{2000};        // --live-lookup-timeout; > 0
  int concurrency = 1;                            // reads at once; 0 = never read live
  std::chrono::milliseconds negative_ttl{10000};  // --live-lookup-negative-ttl; 0 = no cache
  std::size_t negative_capacity = 10000;          // names remembered as missing
};

class LiveLookups {
 public:
  using Clock = std::chrono::steady_clock;
  using NowFn = std::function<Clock::time_point()>;

  enum class Outcome { Found, NotFound, Failed };
  struct Answer {
    Outcome outcome = Outcome::Failed;
    nlohmann::json object;  // Found: the object, without metadata.managedFields
    std::string why;        // NotFound/Failed: the API server's message or why nothing was read
  };

  // client must outlive this; now is injectable for tests (the negative cache's clock).
  LiveLookups(kube::Client& client, LiveLookupOptions options, NowFn now = {});

  // The cluster-scoped object `name` of r (queues, namespaces), read as the header says.
  Answer get(const kube::Resource& r, std::string_view name);

  const LiveLookupOptions& options() const { return options_; }

 private:
  bool negatively_cached(const std::string& key);
  void remember_missing(const std::string& key);
  bool try_begin();  // takes a concurrency slot
  void end() { in_flight_.fetch_sub(1); }

  kube::Client& client_;
  const LiveLookupOptions options_;
  NowFn now_;
  std::atomic<int> in_flight_{0};

  std::mutex mu_;
  // "resource/name" -> when it stops counting as missing. Invariant: every key of missing_ has an
  // entry in order_ with the same expiry; order_ is in insertion order, which is expiry order
  // because the TTL is fixed; entries of order_ whose expiry no longer matches missing_ are
  // stale and skipped.
  std::unordered_map<std::string, Clock::time_point> missing_;   // guarded by mu_
  std::deque<std::pair<std::string, Clock::time_point>> order_;  // guarded by mu_
};

}  // namespace vc::webhook::app

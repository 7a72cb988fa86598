#include "webhook/app/live_lookups.h"

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/histogram.h>

#include "common/log/log.h"
#include "common/metrics/registry.h"

namespace vc::webhook::app {
namespace {

void count(const kube::Resource& r, const char* result) {
  static auto& family = prometheus::BuildCounter()
                            .Name("vc_webhook_live_lookups_total")
                            .Help(
                                "Reads from the API server wanted during an admission review "
                                "(an object missing from its informer), by resource and result.")
                            .Register(vc::metrics::registry());
  family.Add({{"resource", std::string(r.plural)}, {"result", result}}).Increment();
}

void observe(const kube::Resource& r, std::chrono::steady_clock::duration took) {
  static auto& family = prometheus::BuildHistogram()
                            .Name("vc_webhook_live_lookup_duration_seconds")
                            .Help("Time of the live reads sent during admission reviews.")
                            .Register(vc::metrics::registry());
  static const prometheus::Histogram::BucketBoundaries kBuckets{0.001, 0.005, 0.01, 0.05, 0.1,
                                                                0.25,  0.5,   1,    2,    5};
  family.Add({{"resource", std::string(r.plural)}}, kBuckets)
      .Observe(std::chrono::duration<double>(took).count());
}

LiveLookups::Answer failed(std::string why) {
  return {LiveLookups::Outcome::Failed, nullptr, std::move(why)};
}

}  // namespace

LiveLookups::LiveLookups(kube::Client& client, LiveLookupOptions options, NowFn now)
    : client_(client),
      options_(options),
      now_(now ? std::move(now) : NowFn([] { return Clock::now(); })) {}

LiveLookups::Answer LiveLookups::get(const kube::Resource& r, std::string_view name) {
  const std::string key = std::string(r.plural) + "/" + std::string(name);
  if (negatively_cached(key)) {
    count(r, "negative_cached");
    return {Outcome::NotFound, nullptr,
            "not found by a read less than --live-lookup-negative-ttl ago"};
  }
  if (!try_begin()) {
    count(r, "busy");
    return failed(options_.concurrency == 0
                      ? "live reads are off (--live-lookup-concurrency=0)"
                      : "not read: " + std::to_string(options_.concurrency) +
                            " live reads already in flight (--live-lookup-concurrency)");
  }
  const auto started = Clock::now();
  auto live = client_.get(r, "", name, {}, started + options_.timeout, kube::LimiterWait::FailFast);
  end();
  const bool sent = !(live.is(kube::ErrorKind::TooManyRequests) && live.error().http_status == 0);
  if (sent) observe(r, Clock::now() - started);
  if (live.ok()) {
    count(r, "found");
    Answer answer{Outcome::Found, std::move(live).value(), {}};
    if (auto m = answer.object.find("metadata"); m != answer.object.end() && m->is_object()) {
      m->erase("managedFields");
    }
    return answer;
  }
  const auto& e = live.error();
  if (e.kind == kube::ErrorKind::NotFound) {
    count(r, "not_found");
    remember_missing(key);
    return {Outcome::NotFound, nullptr, e.message.empty() ? e.describe() : e.message};
  }
  const char* result = !sent                                ? "throttled"
                       : e.kind == kube::ErrorKind::Timeout ? "timeout"
                                                            : "error";
  count(r, result);
  VC_LOG_WARN("live read during an admission review failed", kv("resource", r.plural),
              kv("name", name), kv("result", result), kv("err", e.describe()));
  return failed(e.describe());
}

bool LiveLookups::try_begin() {
  int n = in_flight_.load();
  do {
    if (n >= options_.concurrency) return false;
  } while (!in_flight_.compare_exchange_weak(n, n + 1));
  return true;
}

bool LiveLookups::negatively_cached(const std::string& key) {
  if (options_.negative_ttl <= std::chrono::milliseconds::zero()) return false;
  std::lock_guard lock(mu_);
  const auto it = missing_.find(key);
  return it != missing_.end() && now_() < it->second;
}

void LiveLookups::remember_missing(const std::string& key) {
  if (options_.negative_ttl <= std::chrono::milliseconds::zero() || options_.negative_capacity == 0)
    return;
  std::lock_guard lock(mu_);
  const auto now = now_();
  // Forget what has expired, then the oldest while full.
  auto pop_front = [&] {
    auto& [k, expiry] = order_.front();
    if (auto it = missing_.find(k); it != missing_.end() && it->second == expiry)
      missing_.erase(it);
    order_.pop_front();
  };
  while (!order_.empty() && order_.front().second <= now) pop_front();
  while (!order_.empty() && missing_.size() >= options_.negative_capacity) pop_front();
  const auto expiry = now + options_.negative_ttl;
  missing_[key] = expiry;
  order_.emplace_back(key, expiry);
}

}  // namespace vc::webhook::app

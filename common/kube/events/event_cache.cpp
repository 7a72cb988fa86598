#include "common/kube/events/event_cache.h"

#include <cstring>
#include <stdexcept>

#include <openssl/evp.h>

#include "common/kube/events/event_json.h"

namespace vc::kube::events {
namespace {

// Length-prefixed so that no field's content can make two different events collide.
void add(std::string& key, const std::string& field) {
  key += std::to_string(field.size());
  key += ':';
  key += field;
}

}  // namespace

std::string aggregation_key(const Event& e) {
  std::string key;
  add(key, e.object.kind);
  add(key, e.object.namespace_);
  add(key, e.object.name);
  add(key, e.object.uid);
  add(key, e.object.api_version);
  add(key, e.object.field_path);
  add(key, to_string(e.type));
  add(key, e.reason);
  add(key, e.message);
  return key;
}

EventDigest aggregation_digest(const Event& e) {
  const std::string key = aggregation_key(e);
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  if (EVP_Digest(key.data(), key.size(), md, &n, EVP_sha256(), nullptr) != 1 ||
      n < sizeof(EventDigest)) {
    throw std::runtime_error("SHA-256 of an event's identity failed");
  }
  EventDigest d;
  std::memcpy(d.data(), md, d.size());
  return d;
}

std::size_t EventCache::DigestHash::operator()(const EventDigest& d) const noexcept {
  std::size_t h;  // the digest's bytes are already uniformly spread
  std::memcpy(&h, d.data(), sizeof h);
  return h;
}

EventCache::EventCache(std::size_t capacity, std::chrono::seconds window)
    : capacity_(capacity), window_(window) {
  if (capacity_ == 0) throw std::invalid_argument("event cache capacity must be positive");
}

Plan EventCache::plan(const Event& e) const {
  const auto it = index_.find(aggregation_digest(e));
  if (it != index_.end()) {
    const Entry& prev = it->second;
    if (e.time - prev.last_timestamp < window_) {
      return Plan{Plan::Verb::Patch, prev.name, prev.namespace_, prev.count + 1,
                  prev.first_timestamp};
    }
  }
  return Plan{Plan::Verb::Create, event_name(e.object.name, e.time), event_namespace(e.object), 1,
              e.time};
}

void EventCache::remember(const Event& e, const Plan& sent) {
  auto [it, added] = index_.try_emplace(aggregation_digest(e));
  Entry& entry = it->second;
  if (!added) lru_.erase(entry.recency);
  lru_.push_front(&it->first);
  entry = Entry{sent.name, sent.namespace_, sent.count, sent.first_timestamp, e.time, lru_.begin()};
  while (lru_.size() > capacity_) {
    const EventDigest* oldest = lru_.back();
    lru_.pop_back();
    index_.erase(index_.find(*oldest));  // by iterator: the key lives in the erased node
  }
}

void EventCache::forget(const Event& e) {
  const auto it = index_.find(aggregation_digest(e));
  if (it == index_.end()) return;
  lru_.erase(it->second.recency);
  index_.erase(it);
}

}  // namespace vc::kube::events

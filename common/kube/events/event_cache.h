#pragma once
// EventCache: decides whether an event is new (create an Event) or a repeat of one sent recently
// (patch that Event's count and lastTimestamp), as client-go's event correlator does. Events are
// the same when their involved object (kind, namespace, name, uid, apiVersion, fieldPath, not
// resourceVersion), type, reason and message are; a repeat counts only within `window` of the
// previous occurrence. The cache is a bounded LRU: the least recently seen event is forgotten
// first, and a forgotten event starts a new Event object. Entries are keyed by a 128-bit digest of
// the aggregation identity, not the identity itself (a few hundred bytes with the message): a
// full cache of 4096 entries then holds ~0.5 MiB instead of ~2 MiB, and two different events
// sharing a digest is as likely as guessing a random 128-bit number.
//
// Pure and single-threaded: the recorder's sender thread owns it.

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <list>
#include <string>
#include <unordered_map>

#include "common/kube/events/event.h"

namespace vc::kube::events {

// The aggregation identity of an event.
std::string aggregation_key(const Event& e);

// The first 128 bits of the SHA-256 of aggregation_key(e): what the cache keys by.
using EventDigest = std::array<unsigned char, 16>;
EventDigest aggregation_digest(const Event& e);

struct Plan {
  enum class Verb { Create, Patch };
  Verb verb = Verb::Create;
  std::string name;        // of the Event object
  std::string namespace_;  // of the Event object
  std::int32_t count = 1;  // the count after this occurrence
  WallTime first_timestamp;
};

class EventCache {
 public:
  EventCache(std::size_t capacity, std::chrono::seconds window);

  // What to send for e.
  Plan plan(const Event& e) const;
  // Records that plan was sent successfully for e, making e the most recent entry.
  void remember(const Event& e, const Plan& sent);
  // Drops e's entry (its Event object is gone).
  void forget(const Event& e);

  std::size_t size() const { return index_.size(); }

 private:
  struct Entry {
    std::string name;
    std::string namespace_;
    std::int32_t count = 0;
    WallTime first_timestamp;
    WallTime last_timestamp;
    std::list<const EventDigest*>::iterator recency;  // its place in lru_
  };
  struct DigestHash {
    std::size_t operator()(const EventDigest& d) const noexcept;
  };

  const std::size_t capacity_;
  const std::chrono::seconds window_;
  // Each digest is held once, by index_ (a node's key never moves); lru_ points at them, front =
  // most recently sent. Invariant: lru_ holds exactly one pointer to each key of index_, which
  // holds its position.
  std::unordered_map<EventDigest, Entry, DigestHash> index_;
  std::list<const EventDigest*> lru_;
};

}  // namespace vc::kube::events

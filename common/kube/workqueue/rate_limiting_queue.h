#pragma once
// RateLimitingQueue<Key>: a Queue whose keys can be retried with backoff, the queue every
// controller owns. The worker loop, as in Kubernetes controllers:
//
//   while (auto key = queue.get()) {
//     if (sync(*key).ok()) queue.forget(*key); else queue.add_rate_limited(*key);
//     queue.done(*key);
//   }
//
// Thread-safety: as Queue; every method may be called from any thread.

#include <algorithm>
#include <memory>
#include <string>

#include "common/kube/workqueue/queue.h"
#include "common/kube/workqueue/rate_limiter.h"

namespace vc::kube::workqueue {

template <class Key, class Hash = std::hash<Key>>
class RateLimitingQueue : public Queue<Key, Hash> {
 public:
  // A null limiter means default_controller_rate_limiter() on the queue's clock.
  explicit RateLimitingQueue(QueueOptions options = {},
                             std::unique_ptr<RateLimiter<Key, Hash>> limiter = nullptr)
      : Queue<Key, Hash>(std::move(options)),
        limiter_(limiter ? std::move(limiter)
                         : default_controller_rate_limiter<Key, Hash>({}, this->clock_ptr())) {}

  // Re-adds key after the limiter's delay and counts a retry.
  void add_rate_limited(const Key& key) {
    if (this->shutting_down()) return;  // no retry is coming, so record no failure
    this->metrics().retry();
    this->add_after(key, limiter_->when(key));
  }
  // The same, waiting at most max_delay: for failures whose cause is outside the key (an API
  // server outage), whose retries must resume soon after it ends whatever the backoff has grown to.
  void add_rate_limited(const Key& key, Duration max_delay) {
    if (this->shutting_down()) return;
    this->metrics().retry();
    this->add_after(key, std::min(limiter_->when(key), max_delay));
  }
  // Ends the key's backoff: the next failure starts again at the base delay.
  void forget(const Key& key) { limiter_->forget(key); }
  int num_requeues(const Key& key) const { return limiter_->num_requeues(key); }

 private:
  const std::unique_ptr<RateLimiter<Key, Hash>> limiter_;
};

}  // namespace vc::kube::workqueue

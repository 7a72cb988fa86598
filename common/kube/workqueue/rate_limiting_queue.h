#pragma once
// RateLimitingQueue: a Queue whose keys can be retried with backoff, the queue every controller
// owns. The worker loop, as in Kubernetes controllers:
//
//   while (auto key = queue.get()) {
//     if (sync(*key).ok()) queue.forget(*key); else queue.add_rate_limited(*key);
//     queue.done(*key);
//   }
//
// Thread-safety: as Queue; every method may be called from any thread.

#include <memory>
#include <string>

#include "common/kube/workqueue/queue.h"
#include "common/kube/workqueue/rate_limiter.h"

namespace vc::kube::workqueue {

class RateLimitingQueue : public Queue {
 public:
  // A null limiter means default_controller_rate_limiter() on the queue's clock.
  explicit RateLimitingQueue(QueueOptions options = {},
                             std::unique_ptr<RateLimiter> limiter = nullptr);

  // Re-adds key after the limiter's delay and counts a retry.
  void add_rate_limited(const std::string& key);
  // Ends the key's backoff: the next failure starts again at the base delay.
  void forget(const std::string& key);
  int num_requeues(const std::string& key) const;

 private:
  const std::unique_ptr<RateLimiter> limiter_;
};

}  // namespace vc::kube::workqueue

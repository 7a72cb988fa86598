#include "common/kube/workqueue/rate_limiting_queue.h"

namespace vc::kube::workqueue {

RateLimitingQueue::RateLimitingQueue(QueueOptions options, std::unique_ptr<RateLimiter> limiter)
    : Queue(std::move(options)),
      limiter_(limiter ? std::move(limiter) : default_controller_rate_limiter({}, clock_ptr())) {}

void RateLimitingQueue::add_rate_limited(const std::string& key) {
  if (shutting_down()) return;  // no retry is coming, so record no failure
  metrics().retry();
  add_after(key, limiter_->when(key));
}

void RateLimitingQueue::forget(const std::string& key) {
  limiter_->forget(key);
}

int RateLimitingQueue::num_requeues(const std::string& key) const {
  return limiter_->num_requeues(key);
}

}  // namespace vc::kube::workqueue

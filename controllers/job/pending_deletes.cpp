#include "controllers/job/pending_deletes.h"

namespace vc::controllers::job {

void PendingDeletes::record(const std::string& uid, Clock::time_point now) {
  if (uid.empty()) return;
  std::lock_guard lock(mu_);
  prune_locked(now);
  recorded_[uid] = now;
  count_.store(recorded_.size(), std::memory_order_release);
}

bool PendingDeletes::contains(const std::string& uid, Clock::time_point now) const {
  if (empty() || uid.empty()) return false;
  std::lock_guard lock(mu_);
  auto it = recorded_.find(uid);
  return it != recorded_.end() && now - it->second < ttl_;
}

void PendingDeletes::forget(const std::string& uid) {
  if (empty()) return;
  std::lock_guard lock(mu_);
  if (recorded_.erase(uid) > 0) count_.store(recorded_.size(), std::memory_order_release);
}

std::size_t PendingDeletes::size() const {
  std::lock_guard lock(mu_);
  return recorded_.size();
}

// Expired entries are dropped at most once per ttl, so a burst of deletes stays linear.
void PendingDeletes::prune_locked(Clock::time_point now) {
  if (now < next_prune_) return;
  std::erase_if(recorded_, [&](const auto& entry) { return now - entry.second >= ttl_; });
  next_prune_ = now + ttl_;
}

}  // namespace vc::controllers::job

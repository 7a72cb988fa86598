#include "controllers/job/pending_creates.h"

#include <iterator>

namespace vc::controllers::job {

void PendingCreates::record(const std::string& job_key, kube::cache::ObjectPtr object,
                            Clock::time_point now) {
  if (!object || object->uid.empty()) return;
  std::lock_guard lock(mu_);
  prune_locked(now);
  const std::string uid = object->uid;
  auto [it, added] = by_job_[job_key].insert_or_assign(uid, Entry{std::move(object), now});
  if (added) count_.fetch_add(1, std::memory_order_release);
}

std::vector<kube::cache::ObjectPtr> PendingCreates::of(const std::string& job_key,
                                                       Clock::time_point now) const {
  std::vector<kube::cache::ObjectPtr> out;
  if (empty()) return out;
  std::lock_guard lock(mu_);
  auto it = by_job_.find(job_key);
  if (it == by_job_.end()) return out;
  out.reserve(it->second.size());
  for (const auto& [uid, entry] : it->second) {
    if (now - entry.at < ttl_) out.push_back(entry.object);
  }
  return out;
}

void PendingCreates::forget(const std::string& job_key, const std::string& uid) {
  if (empty()) return;
  std::lock_guard lock(mu_);
  auto it = by_job_.find(job_key);
  if (it == by_job_.end() || it->second.erase(uid) == 0) return;
  if (it->second.empty()) by_job_.erase(it);
  count_.fetch_sub(1, std::memory_order_release);
}

std::size_t PendingCreates::size() const {
  return count_.load(std::memory_order_acquire);
}

// Expired entries are dropped at most once per ttl, so a burst of creates stays linear.
void PendingCreates::prune_locked(Clock::time_point now) {
  if (now < next_prune_) return;
  std::size_t dropped = 0;
  for (auto it = by_job_.begin(); it != by_job_.end();) {
    dropped +=
        std::erase_if(it->second, [&](const auto& entry) { return now - entry.second.at >= ttl_; });
    it = it->second.empty() ? by_job_.erase(it) : std::next(it);
  }
  next_prune_ = now + ttl_;
  if (dropped > 0) count_.fetch_sub(dropped, std::memory_order_release);
}

}  // namespace vc::controllers::job

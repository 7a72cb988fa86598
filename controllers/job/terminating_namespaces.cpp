#include "controllers/job/terminating_namespaces.h"

#include <iterator>

namespace vc::controllers::job {

bool TerminatingNamespaces::may_create(std::string_view ns, Clock::time_point now) {
  if (count_.load(std::memory_order_acquire) == 0) return true;
  std::lock_guard lock(mu_);
  const auto it = until_.find(std::string(ns));
  if (it == until_.end()) return true;
  if (it->second > now) return false;
  it->second = now + hold_;  // this caller probes; the others wait for its answer
  return true;
}

void TerminatingNamespaces::refused(std::string_view ns, Clock::time_point now) {
  std::lock_guard lock(mu_);
  // A namespace being deleted is refused again at each probe, so an entry whose mark ended a
  // hold ago is a namespace that is gone (or was never probed again): dropped here, which keeps
  // the map to the namespaces being deleted right now.
  for (auto it = until_.begin(); it != until_.end();) {
    it = it->second + hold_ <= now ? until_.erase(it) : std::next(it);
  }
  until_[std::string(ns)] = now + hold_;
  count_.store(until_.size(), std::memory_order_release);
}

void TerminatingNamespaces::created(std::string_view ns) {
  if (count_.load(std::memory_order_acquire) == 0) return;
  std::lock_guard lock(mu_);
  until_.erase(std::string(ns));
  count_.store(until_.size(), std::memory_order_release);
}

TerminatingNamespaces::Clock::duration TerminatingNamespaces::held_for(
    std::string_view ns, Clock::time_point now) const {
  if (count_.load(std::memory_order_acquire) == 0) return Clock::duration::zero();
  std::lock_guard lock(mu_);
  const auto it = until_.find(std::string(ns));
  if (it == until_.end() || it->second <= now) return Clock::duration::zero();
  return it->second - now;
}

std::size_t TerminatingNamespaces::size() const {
  std::lock_guard lock(mu_);
  return until_.size();
}

}  // namespace vc::controllers::job

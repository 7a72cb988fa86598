#include "controllers/framework/own_writes.h"

namespace vc::controllers {

void OwnWrites::wrote(const std::string& key, const std::string& read_version,
                      const std::string& written_version, Clock::time_point now) {
  // Nothing to compare a later cache against, or nothing changed: no event will come.
  if (read_version.empty() || written_version.empty() || written_version == read_version) return;
  std::lock_guard lock(mu_);
  // The plan read read_version from the cache, so any earlier record is already past; two writes
  // from one plan (or one snapshot) wait past the same version.
  records_[key] = Record{read_version, now};
}

bool OwnWrites::cache_behind(const std::string& key, const std::string& cached_version,
                             Clock::time_point now) {
  std::lock_guard lock(mu_);
  const auto it = records_.find(key);
  if (it == records_.end()) return false;
  if (it->second.replaced == cached_version && now - it->second.at < max_wait_) return true;
  records_.erase(it);
  return false;
}

void OwnWrites::forget(const std::string& key) {
  std::lock_guard lock(mu_);
  records_.erase(key);
}

std::size_t OwnWrites::size() const {
  std::lock_guard lock(mu_);
  return records_.size();
}

}  // namespace vc::controllers

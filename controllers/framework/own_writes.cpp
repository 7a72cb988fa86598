#include "controllers/framework/own_writes.h"

namespace vc::controllers {

void OwnWrites::wrote(const std::string& key, const std::string& read_version) {
  if (read_version.empty()) return;  // nothing to compare a later cache against
  std::lock_guard lock(mu_);
  replaced_[key] = read_version;
}

bool OwnWrites::cache_behind(const std::string& key, const std::string& cached_version) {
  std::lock_guard lock(mu_);
  const auto it = replaced_.find(key);
  if (it == replaced_.end()) return false;
  if (it->second == cached_version) return true;
  replaced_.erase(it);
  return false;
}

void OwnWrites::forget(const std::string& key) {
  std::lock_guard lock(mu_);
  replaced_.erase(key);
}

std::size_t OwnWrites::size() const {
  std::lock_guard lock(mu_);
  return replaced_.size();
}

}  // namespace vc::controllers

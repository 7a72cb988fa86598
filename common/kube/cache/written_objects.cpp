#include "common/kube/cache/written_objects.h"

#include <utility>

namespace vc::kube::cache {

void WrittenObjects::offer(ObjectPtr obj) {
  if (!obj || obj->resource_version.empty()) return;
  std::string key = obj->key();
  std::lock_guard lock(mu_);
  // Offers whose version never comes (a watch that skipped it and has not relisted yet) must
  // not pile up: past the bound, start over; the cost is a decode per forgotten object.
  if (by_key_.size() >= capacity_ && by_key_.find(key) == by_key_.end()) by_key_.clear();
  by_key_[std::move(key)] = std::move(obj);
  count();
}

ObjectPtr WrittenObjects::take(const std::string& key, std::string_view resource_version) {
  std::lock_guard lock(mu_);
  auto it = by_key_.find(key);
  if (it == by_key_.end() || it->second->resource_version != resource_version) return nullptr;
  ObjectPtr out = std::move(it->second);
  by_key_.erase(it);
  count();
  return out;
}

void WrittenObjects::forget(const std::string& key) {
  std::lock_guard lock(mu_);
  by_key_.erase(key);
  count();
}

void WrittenObjects::clear() {
  std::lock_guard lock(mu_);
  by_key_.clear();
  count();
}

std::size_t WrittenObjects::size() const {
  std::lock_guard lock(mu_);
  return by_key_.size();
}

}  // namespace vc::kube::cache

#include "common/kube/cache/store.h"

#include <mutex>
#include <stdexcept>

namespace vc::kube::cache {

Store::Store() {
  indexes_.emplace(
      kNamespaceIndex,
      Index{[](const Object& o) { return std::vector<std::string>{o.namespace_}; }, {}});
}

bool Store::add_indexer(const std::string& name, IndexFunc fn) {
  std::unique_lock lock(mu_);
  if (!items_.empty()) {
    throw std::logic_error("store: index " + name + " registered after objects were stored");
  }
  return indexes_.emplace(name, Index{std::move(fn), {}}).second;
}

void Store::file_locked(const ObjectPtr& obj) {
  for (auto& [name, index] : indexes_) {
    for (auto& value : index.fn(*obj)) index.buckets[std::move(value)].insert(obj);
  }
}

void Store::unfile_locked(const ObjectPtr& obj) {
  // Objects are immutable, so the index functions return the values they were filed under.
  for (auto& [name, index] : indexes_) {
    for (const auto& value : index.fn(*obj)) {
      auto bucket = index.buckets.find(value);
      if (bucket == index.buckets.end()) continue;
      bucket->second.erase(obj);
      if (bucket->second.empty()) index.buckets.erase(bucket);
    }
  }
}

ObjectPtr Store::upsert_locked(std::string key, ObjectPtr obj) {
  auto [it, inserted] = items_.try_emplace(std::move(key), obj);
  ObjectPtr old;
  if (!inserted) {
    old = std::move(it->second);
    unfile_locked(old);
    it->second = obj;
  }
  file_locked(obj);
  return old;
}

ObjectPtr Store::upsert(ObjectPtr obj) {
  std::string key = obj->key();
  std::unique_lock lock(mu_);
  return upsert_locked(std::move(key), std::move(obj));
}

ObjectPtr Store::remove(const std::string& key) {
  std::unique_lock lock(mu_);
  auto it = items_.find(key);
  if (it == items_.end()) return nullptr;
  ObjectPtr old = std::move(it->second);
  items_.erase(it);
  unfile_locked(old);
  return old;
}

std::vector<StoreChange> Store::replace(std::vector<ObjectPtr> objects) {
  std::unordered_map<std::string, ObjectPtr> incoming;
  incoming.reserve(objects.size());
  std::vector<std::string> order;  // first-seen order, so changes come out in list order
  order.reserve(objects.size());
  for (auto& obj : objects) {
    std::string key = obj->key();
    auto [it, inserted] = incoming.try_emplace(key, obj);
    if (inserted) {
      order.push_back(std::move(key));
    } else {
      it->second = std::move(obj);
    }
  }
  objects.clear();

  std::vector<StoreChange> changes;
  std::unique_lock lock(mu_);
  for (auto& key : order) {
    ObjectPtr& obj = incoming[key];
    auto current = items_.find(key);
    if (current != items_.end() && current->second->resource_version == obj->resource_version) {
      continue;
    }
    ObjectPtr old = upsert_locked(key, obj);
    changes.push_back({std::move(old), obj});
  }
  for (auto it = items_.begin(); it != items_.end();) {
    if (incoming.contains(it->first)) {
      ++it;
      continue;
    }
    unfile_locked(it->second);
    changes.push_back({std::move(it->second), nullptr});
    it = items_.erase(it);
  }
  return changes;
}

ObjectPtr Store::get(const std::string& key) const {
  std::shared_lock lock(mu_);
  auto it = items_.find(key);
  return it == items_.end() ? nullptr : it->second;
}

std::vector<ObjectPtr> Store::list() const {
  std::shared_lock lock(mu_);
  std::vector<ObjectPtr> out;
  out.reserve(items_.size());
  for (const auto& [key, obj] : items_) out.push_back(obj);
  return out;
}

std::vector<std::string> Store::keys() const {
  std::shared_lock lock(mu_);
  std::vector<std::string> out;
  out.reserve(items_.size());
  for (const auto& [key, obj] : items_) out.push_back(key);
  return out;
}

size_t Store::size() const {
  std::shared_lock lock(mu_);
  return items_.size();
}

const Store::Index& Store::index_locked(const std::string& name) const {
  auto it = indexes_.find(name);
  if (it == indexes_.end()) throw std::invalid_argument("store: no index named " + name);
  return it->second;
}

const Store::Bucket* Store::bucket_locked(const std::string& index,
                                          const std::string& value) const {
  const Index& idx = index_locked(index);
  auto it = idx.buckets.find(value);
  return it == idx.buckets.end() ? nullptr : &it->second;
}

std::vector<ObjectPtr> Store::by_index(const std::string& index, const std::string& value) const {
  std::shared_lock lock(mu_);
  const Bucket* bucket = bucket_locked(index, value);
  if (bucket == nullptr) return {};
  return {bucket->begin(), bucket->end()};
}

void Store::for_each_in_index(const std::string& index, const std::string& value,
                              const std::function<void(const Object&)>& visit) const {
  std::shared_lock lock(mu_);
  const Bucket* bucket = bucket_locked(index, value);
  if (bucket == nullptr) return;
  for (const ObjectPtr& obj : *bucket) visit(*obj);
}

std::vector<std::string> Store::index_values(const std::string& index) const {
  std::shared_lock lock(mu_);
  const Index& idx = index_locked(index);
  std::vector<std::string> out;
  out.reserve(idx.buckets.size());
  for (const auto& [value, bucket] : idx.buckets) out.push_back(value);
  return out;
}

}  // namespace vc::kube::cache

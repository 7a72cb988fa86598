#include "controllers/job/job_store.h"

#include <charconv>
#include <cstdint>

#include "controllers/job/model/job_json.h"

namespace vc::controllers::job {

namespace {

bool parse_u64(const std::string& s, std::uint64_t& out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size() && !s.empty();
}

}  // namespace

bool newer_resource_version(const std::string& a, const std::string& b) {
  std::uint64_t x = 0;
  std::uint64_t y = 0;
  return parse_u64(a, x) && parse_u64(b, y) && x > y;
}

JobPtr JobStore::get(const std::string& key) const {
  JobPtr cached = as_job(store_.get(key));
  std::lock_guard lock(mu_);
  auto it = overlay_.find(key);
  if (it == overlay_.end()) return cached;
  if (!cached) return nullptr;  // deleted: the informer is the authority on existence
  if (cached->uid == it->second->uid &&
      newer_resource_version(it->second->resource_version, cached->resource_version)) {
    return it->second;
  }
  overlay_.erase(it);  // the informer caught up (or the job was re-created)
  return cached;
}

void JobStore::record_write(JobPtr written) {
  if (!written) return;
  if (written_) written_->offer(written);
  const std::string key = written->key();
  std::lock_guard lock(mu_);
  auto& slot = overlay_[key];
  if (!slot || newer_resource_version(written->resource_version, slot->resource_version)) {
    slot = std::move(written);
  }
}

void JobStore::forget(const std::string& key) {
  std::lock_guard lock(mu_);
  overlay_.erase(key);
}

std::size_t JobStore::overlay_size() const {
  std::lock_guard lock(mu_);
  return overlay_.size();
}

}  // namespace vc::controllers::job

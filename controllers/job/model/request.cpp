#include "controllers/job/model/request.h"

#include <stdexcept>

namespace vc::controllers::job {

namespace {

// Go's hash/fnv constants for the 32-bit variants.
constexpr std::uint32_t kFnvOffset32 = 2166136261u;
constexpr std::uint32_t kFnvPrime32 = 16777619u;

void mix(std::size_t& seed, std::size_t h) {
  // The usual golden-ratio combine: cheap, and spreads equal field hashes in different positions.
  seed ^= h + 0x9e3779b97f4a7c15ull + (seed << 6) + (seed >> 2);
}

}  // namespace

std::string Request::job_key() const {
  // Volcano formats the key as "%s/%s" unconditionally (jobs are always namespaced).
  std::string key;
  key.reserve(namespace_.size() + 1 + job_name.size());
  key.append(namespace_).append("/").append(job_name);
  return key;
}

std::size_t RequestHash::operator()(const Request& r) const {
  std::hash<std::string> hs;
  std::size_t seed = hs(r.namespace_);
  for (const std::string* s : {&r.job_name, &r.job_uid, &r.task_name, &r.pod_name, &r.pod_uid,
                               &r.partition_id, &r.event, &r.action}) {
    mix(seed, hs(*s));
  }
  mix(seed, std::hash<std::int32_t>{}(r.exit_code));
  mix(seed, std::hash<std::int32_t>{}(r.job_version));
  return seed;
}

std::uint32_t fnv1_32(std::string_view bytes) {
  // FNV-1 multiplies before it xors (FNV-1a is the other order); Volcano shards with FNV-1.
  std::uint32_t h = kFnvOffset32;
  for (unsigned char c : bytes) {
    h *= kFnvPrime32;
    h ^= c;
  }
  return h;
}

std::uint32_t shard_of(std::string_view job_key, std::uint32_t workers) {
  if (workers == 0) throw std::invalid_argument("shard_of: workers must be positive");
  return fnv1_32(job_key) % workers;
}

}  // namespace vc::controllers::job

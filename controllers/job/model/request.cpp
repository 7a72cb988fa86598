#include "controllers/job/model/request.h"

#include <stdexcept>

#include "common/kube/workqueue/key_hash.h"

namespace vc::controllers::job {

namespace {

// Go's hash/fnv constants for the 32-bit variants.
constexpr std::uint32_t kFnvOffset32 = 2166136261u;
constexpr std::uint32_t kFnvPrime32 = 16777619u;

}  // namespace

std::string Request::job_key() const {
  // Volcano formats the key as "%s/%s" unconditionally (jobs are always namespaced).
  std::string key;
  key.reserve(namespace_.size() + 1 + job_name.size());
  key.append(namespace_).append("/").append(job_name);
  return key;
}

Request job_request(const std::string& ns, const std::string& name, std::string_view event) {
  Request r;
  r.namespace_ = ns;
  r.job_name = name;
  r.event = std::string(event);
  return r;
}

std::size_t RequestHash::operator()(const Request& r) const {
  std::size_t seed = std::hash<std::string>{}(r.namespace_);
  for (const std::string* s : {&r.job_name, &r.job_uid, &r.task_name, &r.pod_name, &r.pod_uid,
                               &r.partition_id, &r.event, &r.action}) {
    kube::workqueue::hash_combine(seed, *s);
  }
  kube::workqueue::hash_combine(seed, r.exit_code);
  kube::workqueue::hash_combine(seed, r.job_version);
  return seed;
}

std::string describe(const Request& r) {
  // Only the fields that are set, so a log line shows what the request is about.
  std::string text = r.job_key();
  auto field = [&text](const char* name, const std::string& value) {
    if (!value.empty()) text.append(" ").append(name).append("=").append(value);
  };
  field("event", r.event);
  field("action", r.action);
  field("task", r.task_name);
  field("pod", r.pod_name);
  field("partition", r.partition_id);
  if (r.exit_code != 0) text.append(" exitCode=").append(std::to_string(r.exit_code));
  if (r.job_version != 0) text.append(" version=").append(std::to_string(r.job_version));
  return text;
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

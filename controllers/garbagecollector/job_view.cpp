#include "controllers/garbagecollector/job_view.h"

#include <memory>
#include <utility>

namespace vc::controllers::gc {

namespace {

using nlohmann::json;

// The member `key` of object when it is an object, else null.
const json* member(const json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

std::string string_or_empty(const json* value) {
  return value != nullptr && value->is_string() ? value->get<std::string>() : std::string();
}

}  // namespace

GcJob gc_job_from_json(const json& job) {
  GcJob out;
  const json* metadata = member(job, "metadata");
  if (metadata != nullptr && metadata->is_object()) {
    out.namespace_ = string_or_empty(member(*metadata, "namespace"));
    out.name = string_or_empty(member(*metadata, "name"));
    out.uid = string_or_empty(member(*metadata, "uid"));
    out.resource_version = string_or_empty(member(*metadata, "resourceVersion"));
    const json* deletion = member(*metadata, "deletionTimestamp");
    out.being_deleted = deletion != nullptr && !deletion->is_null();
  }
  if (const json* spec = member(job, "spec")) {
    const json* ttl = member(*spec, "ttlSecondsAfterFinished");
    if (ttl != nullptr && ttl->is_number_integer()) out.ttl_seconds = ttl->get<int64_t>();
  }
  if (const json* status = member(job, "status")) {
    if (const json* state = member(*status, "state")) {
      out.phase = string_or_empty(member(*state, "phase"));
      const std::string when = string_or_empty(member(*state, "lastTransitionTime"));
      if (!when.empty()) out.transitioned = api::parse_time(when);
    }
  }
  return out;
}

GcJob gc_job_of(const job::Job& job) {
  GcJob g;
  g.namespace_ = job.namespace_;
  g.name = job.name;
  g.uid = job.uid;
  g.resource_version = job.resource_version;
  g.being_deleted = job.deletion_timestamp.has_value();
  if (job.spec.ttl_seconds_after_finished) g.ttl_seconds = *job.spec.ttl_seconds_after_finished;
  g.phase = job.status.phase;
  g.transitioned = job.status.last_transition_time;
  return g;
}

}  // namespace vc::controllers::gc

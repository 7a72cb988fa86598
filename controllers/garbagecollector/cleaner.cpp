#include "controllers/garbagecollector/cleaner.h"

#include "common/kube/resource.h"
#include "common/log/log.h"
#include "controllers/garbagecollector/decision.h"
#include "controllers/garbagecollector/job_view.h"

namespace vc::controllers::gc {

namespace {

using log::kv;
using Kind = CleanupOutcome::Kind;

CleanupOutcome retry(std::string why) {
  return {Kind::Retry, {}, std::move(why)};
}

}  // namespace

CleanupOutcome clean_up(kube::Client& client, std::string_view ns, std::string_view name,
                        api::TimePoint now) {
  const std::string key = std::string(ns) + "/" + std::string(name);
  auto fresh = client.get(kube::resources::jobs, ns, name);
  if (fresh.is(kube::ErrorKind::NotFound)) return CleanupOutcome::of(Kind::Gone);
  if (!fresh) return retry("get job " + key + ": " + fresh.error().describe());

  const GcJob job = gc_job_from_json(*fresh);
  const Decision d = decide(job, now);
  switch (d.kind) {
    case Decision::Kind::Keep:
      return CleanupOutcome::of(Kind::Gone);
    case Decision::Kind::Error:
      return retry(d.error);
    case Decision::Kind::RecheckAfter:
      return {Kind::RecheckAfter, d.after, {}};
    case Decision::Kind::DeleteNow:
      break;
  }

  kube::DeleteOptions options;
  options.propagation_policy = "Foreground";
  options.precondition_uid = job.uid;
  auto deleted = client.remove(kube::resources::jobs, ns, name, options);
  if (deleted) {
    VC_LOG_INFO("deleted finished job after its TTL", kv("job", key), kv("uid", job.uid),
                kv("ttlSecondsAfterFinished", *job.ttl_seconds));
    return CleanupOutcome::of(Kind::Deleted);
  }
  // NotFound: someone else deleted it. Conflict: the UID precondition failed, so the name now
  // belongs to a newer job, which the informer reports (and we judge) on its own.
  if (deleted.is(kube::ErrorKind::NotFound) || deleted.is(kube::ErrorKind::Conflict)) {
    VC_LOG_DEBUG("job already gone or replaced", kv("job", key),
                 kv("reason", deleted.error().describe()));
    return CleanupOutcome::of(Kind::Gone);
  }
  return retry("delete job " + key + ": " + deleted.error().describe());
}

}  // namespace vc::controllers::gc

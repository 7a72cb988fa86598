#pragma once
// The CronJob controller's executor: performs a Plan's steps in order against the API server
// (history deletes, orphan and active-reference re-reads, Replace deletes, the Job create),
// records the events Volcano records, and writes status once at the end if anything in it
// changed. A failing step stops the sync without writing status, as Volcano's does; the caller
// retries with backoff.
//
// The status write is an update of the status subresource carrying the cached resourceVersion:
// a concurrent change conflicts and is retried from a fresh cache (Volcano swallows that error
// and loses the requeue; docs/compat.md).
//
// Threads: called from one worker at a time per CronJob; blocks on the API calls.

#include <chrono>
#include <optional>
#include <string>

#include "common/kube/client.h"
#include "common/kube/events/recorder.h"
#include "controllers/cronjob/cron_job_view.h"
#include "controllers/cronjob/plan.h"

namespace vc::controllers::cronjob {

struct Outcome {
  std::string error;  // "" on success
  std::optional<std::chrono::milliseconds> requeue_after;
  std::string status_written;  // the resourceVersion the status update returned; "" without one
};

Outcome execute(const Plan& plan, const CronJobView& cron_job, kube::Client& client,
                kube::events::EventRecorder& recorder);

}  // namespace vc::controllers::cronjob

#pragma once
// The CronJob informer's cached form: the typed CronJob (common/volcano/cron_job.h) plus its job
// template's spec as the API server stored it, which each new Job copies verbatim (a typed
// JobSpec would drop fields this version does not model). The spec is kept as compact JSON text,
// parsed when a run's Job is made: a parsed tree takes several times the text's memory, for every
// CronJob, all the time between its runs.
//
// Threads: the transform is thread-safe; cached CronJobs are immutable.

#include <memory>

#include <nlohmann/json.hpp>

#include "common/kube/cache/object.h"
#include "common/volcano/cron_job.h"

namespace vc::controllers::cronjob {

struct CronJobView : volcano::CronJob {
  std::string job_template_spec;  // spec.jobTemplate.spec as compact JSON; empty when absent
};

// Named "cronjob-view"; throws volcano::DecodeError naming the field on a malformed CronJob (the
// reflector logs and skips it, as Go's typed client would never deliver it).
kube::cache::Transform cron_job_view_transform();

// The cached object as a CronJob view; null if it is of another type.
std::shared_ptr<const CronJobView> as_cron_job(const kube::cache::ObjectPtr& object);

}  // namespace vc::controllers::cronjob

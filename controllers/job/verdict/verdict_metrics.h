#pragma once
// The gauge of jobs per verdict and queue, vc_cpp_job_verdicts{queue, verdict}, on the
// controller's /metrics (docs/metrics.md).
//
// Threads: publish() from one thread at a time (the verdict pass).

#include <map>
#include <string>
#include <utility>

#include "controllers/explain/diagnose.h"

namespace vc::controllers::job::verdict {

// Sets the gauge to counts: every verdict of a queue that has jobs gets a series (0 when no job
// has it), and the series of queues without jobs any more are removed.
void publish_verdict_counts(const std::map<std::pair<std::string, explain::Verdict>, long>& counts);

// Removes every series (the controller stopped leading: another process counts now).
void clear_verdict_counts();

}  // namespace vc::controllers::job::verdict

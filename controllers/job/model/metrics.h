#pragma once
// The job controller's three Prometheus metrics (spec job-controller.md §1.6,
// spec controller-manager.md §1.8), registered on vc::metrics::registry() on first use and kept for
// the whole process:
//   volcano_job_completed_phase_count{job_name="<ns>/<name>",queue_name}   counter
//   volcano_job_failed_phase_count{job_name="<ns>/<name>",queue_name}      counter
//   volcano_controller_job_to_pod_creation_latency_milliseconds            histogram, buckets
//       Prometheus' ExponentialBucketsRange(50, 60000, 30)
//
// Threads: every function may be called from any thread (prometheus families lock inside).

#include <chrono>
#include <string>
#include <vector>

#include "controllers/job/model/job.h"

namespace vc::controllers::job {

// Registers the three families now (otherwise on first use), so /metrics shows the histogram
// from the start as Volcano's does. Idempotent.
void register_job_metrics();

// +1 on the job's series, labels from job.namespace_/job.name and job.spec.queue.
void job_completed(const Job& job);
void job_failed(const Job& job);

// Removes the job's completed and failed series (the deleteJob handler); no-op when absent.
void delete_job_series(const std::string& ns, const std::string& name, const std::string& queue);

// One created pod: pod.creationTimestamp - job.creationTimestamp.
void observe_pod_creation_latency(std::chrono::milliseconds latency);

// The latency histogram's upper bounds, as client_golang computes them: 50 * g^i for
// i = 0..29 with g = (60000/50)^(1/29).
std::vector<double> pod_creation_latency_buckets();

}  // namespace vc::controllers::job

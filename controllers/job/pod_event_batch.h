#pragma once
// How long a pod event that can only refresh its job's status waits in the job's queue before
// the one sync that writes it, so that the transitions of a gang's pods (created, bound,
// started) are written together. Kubernetes' Job controller batches pod events for 1 s
// (syncJobBatchPeriod); Volcano does not batch. A fixed second made a small cluster see its
// jobs Running about 0.6 s later than with Volcano, while only a busy controller saves writes
// by waiting that long: 200 ms instead of 1 s at 500 jobs cost 3 % more job status writes (and
// in one of two runs 10 % more controller CPU); at 20 jobs all of them were Running 0.6-0.8 s
// sooner.
// So the wait follows the job's shard queue: the full second while it holds a backlog, 200 ms
// while it is nearly empty.

#include <chrono>
#include <cstddef>

namespace vc::controllers::job {

inline constexpr std::chrono::milliseconds kPodEventBatchBusy{1000};
inline constexpr std::chrono::milliseconds kPodEventBatchIdle{200};
// Requests in a shard (ready or waiting) from which it counts as busy: above what a few jobs'
// pod events keep there, far below the hundreds a burst of jobs leaves.
inline constexpr std::size_t kBusyShardRequests = 32;

// shard_requests: the job's shard queue's ready plus waiting requests.
constexpr std::chrono::milliseconds pod_event_batch(std::size_t shard_requests) {
  return shard_requests >= kBusyShardRequests ? kPodEventBatchBusy : kPodEventBatchIdle;
}

}  // namespace vc::controllers::job

#pragma once
// Runs n independent calls with at most `width` at a time and waits for all of them: the pod
// creations and deletions of one sync (spec job-controller.md §4.2 steps 7-8, "in parallel with
// bounded concurrency"). The calling thread takes part, so width 1 runs everything inline.
//
// Threads: fn is called concurrently from up to `width` threads with distinct indices.

#include <cstddef>
#include <functional>

namespace vc::controllers::job {

void parallel_for(std::size_t n, std::size_t width, const std::function<void(std::size_t)>& fn);

}  // namespace vc::controllers::job

#include "common/kube/workqueue/queue.h"

#include <spdlog/spdlog.h>

#include "common/process/thread_name.h"

namespace vc::kube::workqueue {

namespace detail {

void name_timer_thread(const std::string& queue_name) {
  set_thread_name("t:" + queue_name);
}

void log_dropped_at_shutdown(std::size_t queued, std::size_t waiting) {
  spdlog::debug("workqueue shutting down, dropping keys queued={} waiting={}", queued, waiting);
}

}  // namespace detail

template class Queue<std::string>;

}  // namespace vc::kube::workqueue

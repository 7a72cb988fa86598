#pragma once
// The five volcano_queue_pod_group_<phase>_count gauges, label queue_name
// (spec controller-manager.md §1.8): set on every SYNC pass, all five series removed when the Queue
// is deleted. The families live in the process registry (vc::metrics::registry()) for the whole
// process; a controller built again for a new leadership term reuses them.
//
// Thread-safety: every method may be called from any thread (prometheus families lock inside).

#include <memory>
#include <string>

#include "controllers/queue/model.h"

namespace vc::controllers::queue {

class QueueMetrics {
 public:
  // The process-wide instance.
  static QueueMetrics& instance();

  void set(const std::string& queue, const PhaseCounts& counts);
  void remove(const std::string& queue);

 private:
  QueueMetrics();
  ~QueueMetrics();
  struct Families;
  std::unique_ptr<Families> families_;
};

}  // namespace vc::controllers::queue

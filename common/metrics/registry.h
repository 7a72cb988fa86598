#pragma once
// The process-wide Prometheus registry. Every metric (workqueue_*, rest_client_*, volcano_*) is
// registered here and rendered by the /metrics endpoint in the text exposition format, followed
// by the process_* series read at that moment (process_metrics.h).

#include <memory>
#include <string>

#include <prometheus/registry.h>

namespace vc::metrics {

// Thread-safe; the registry lives for the whole process.
prometheus::Registry& registry();

// The registry and the process_* series in Prometheus text format 0.0.4: what /metrics serves.
std::string render_text();
// One registry alone.
std::string render_text(const prometheus::Registry& r);

}  // namespace vc::metrics

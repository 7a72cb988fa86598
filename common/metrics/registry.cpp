#include "common/metrics/registry.h"

#include <iterator>

#include <prometheus/text_serializer.h>

#include "common/metrics/process_metrics.h"

namespace vc::metrics {

prometheus::Registry& registry() {
  // Leaked on purpose: metric objects may be touched by threads still running at exit.
  static auto* r = new prometheus::Registry();
  return *r;
}

std::string render_text() {
  auto families = registry().Collect();
  auto process = ProcessCollector().Collect();
  families.insert(families.end(), std::make_move_iterator(process.begin()),
                  std::make_move_iterator(process.end()));
  return prometheus::TextSerializer().Serialize(families);
}

std::string render_text(const prometheus::Registry& r) {
  return prometheus::TextSerializer().Serialize(r.Collect());
}

}  // namespace vc::metrics

#include "common/metrics/registry.h"

#include <prometheus/text_serializer.h>

namespace vc::metrics {

prometheus::Registry& registry() {
  // Leaked on purpose: metric objects may be touched by threads still running at exit.
  static auto* r = new prometheus::Registry();
  return *r;
}

std::string render_text() {
  return render_text(registry());
}

std::string render_text(const prometheus::Registry& r) {
  return prometheus::TextSerializer().Serialize(r.Collect());
}

}  // namespace vc::metrics

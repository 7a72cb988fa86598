#pragma once
// Reading the process's own metrics in tests.

#include <string>
#include <string_view>

#include "common/metrics/registry.h"

namespace vc::testing {

// The value of one series in the process registry, e.g.
// metric_value(R"(workqueue_depth{name="queue-controller"})"); 0 when the series does not exist
// yet.
inline double metric_value(std::string_view series) {
  const std::string text = vc::metrics::render_text();
  const std::string needle = std::string(series) + " ";
  for (std::size_t pos = 0; (pos = text.find(needle, pos)) != std::string::npos; ++pos) {
    if (pos == 0 || text[pos - 1] == '\n') return std::stod(text.substr(pos + needle.size()));
  }
  return 0;
}

}  // namespace vc::testing

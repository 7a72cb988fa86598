#include "common/metrics/registry.h"

#include <gtest/gtest.h>
#include <prometheus/counter.h>

namespace vc::metrics {
namespace {

TEST(Registry, RendersRegisteredCounterInTextFormat) {
  prometheus::Registry r;
  auto& family = prometheus::BuildCounter().Name("vc_test_total").Help("test").Register(r);
  family.Add({{"kind", "a"}}).Increment(3);
  const std::string text = render_text(r);
  EXPECT_NE(text.find("# TYPE vc_test_total counter"), std::string::npos) << text;
  EXPECT_NE(text.find("vc_test_total{kind=\"a\"} 3"), std::string::npos) << text;
}

TEST(Registry, ProcessRegistryIsASingleton) {
  EXPECT_EQ(&registry(), &registry());
}

}  // namespace
}  // namespace vc::metrics

#include "common/kube/leaderelection/micro_time.h"

#include <gtest/gtest.h>

namespace vc::kube::leaderelection {
namespace {

using namespace std::chrono;

// 2006-01-02T15:04:05Z
const WallTime kRef{seconds(1136214245)};

TEST(MicroTime, FormatsUtcWithSixFractionalDigits) {
  EXPECT_EQ(format_micro_time(kRef), "2006-01-02T15:04:05.000000Z");
  EXPECT_EQ(format_micro_time(kRef + microseconds(123456) + nanoseconds(999)),
            "2006-01-02T15:04:05.123456Z");
}

TEST(MicroTime, RoundTripsAtMicrosecondPrecision) {
  const WallTime t = truncate_to_micros(kRef + nanoseconds(987654321));
  EXPECT_EQ(parse_time(format_micro_time(t)), t);
}

}  // namespace
}  // namespace vc::kube::leaderelection

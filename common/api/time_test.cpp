#include "common/api/time.h"

#include <gtest/gtest.h>

#include <random>

namespace vc::api {
namespace {

using namespace std::chrono;

TimePoint at(int y, unsigned mo, unsigned d, int h, int mi, int s, nanoseconds frac = {}) {
  return TimePoint(
      duration_cast<TimePoint::duration>(sys_days(year(y) / month(mo) / day(d)).time_since_epoch() +
                                         hours(h) + minutes(mi) + seconds(s) + frac));
}

TEST(TimeFormat, Rfc3339HasWholeSecondsInUtc) {
  EXPECT_EQ(format_rfc3339(at(2024, 1, 2, 3, 4, 5)), "2024-01-02T03:04:05Z");
  EXPECT_EQ(format_rfc3339(at(2024, 1, 2, 3, 4, 5, milliseconds(999))), "2024-01-02T03:04:05Z")
      << "fractions are truncated, not rounded";
  EXPECT_EQ(format_rfc3339(TimePoint{}), "1970-01-01T00:00:00Z");
  EXPECT_EQ(format_rfc3339(at(2024, 2, 29, 23, 59, 59)), "2024-02-29T23:59:59Z");
  EXPECT_EQ(format_rfc3339(at(2262, 4, 11, 23, 47, 16)), "2262-04-11T23:47:16Z");
}

TEST(TimeFormat, MicroTimeHasExactlySixDigits) {
  EXPECT_EQ(format_micro_time(at(2024, 1, 2, 3, 4, 5, microseconds(123456))),
            "2024-01-02T03:04:05.123456Z");
  EXPECT_EQ(format_micro_time(at(2024, 1, 2, 3, 4, 5)), "2024-01-02T03:04:05.000000Z");
  EXPECT_EQ(format_micro_time(at(2024, 1, 2, 3, 4, 5, nanoseconds(1999))),
            "2024-01-02T03:04:05.000001Z");
  EXPECT_EQ(format_micro_time(at(2024, 1, 2, 3, 4, 5, microseconds(7))),
            "2024-01-02T03:04:05.000007Z");
}

TEST(TimeFormat, InstantsBeforeTheEpochRoundTowardThePast) {
  EXPECT_EQ(format_rfc3339(TimePoint{} - milliseconds(1)), "1969-12-31T23:59:59Z");
  EXPECT_EQ(format_micro_time(TimePoint{} - microseconds(1)), "1969-12-31T23:59:59.999999Z");
  EXPECT_EQ(format_rfc3339(at(1900, 3, 1, 0, 0, 0)), "1900-03-01T00:00:00Z");
}

TEST(TimeParse, AcceptsBothKubernetesForms) {
  EXPECT_EQ(parse_time("2024-01-02T03:04:05Z"), at(2024, 1, 2, 3, 4, 5));
  EXPECT_EQ(parse_time("2024-01-02T03:04:05.123456Z"),
            at(2024, 1, 2, 3, 4, 5, microseconds(123456)));
  EXPECT_EQ(parse_time("1970-01-01T00:00:00Z"), TimePoint{});
}

TEST(TimeParse, AcceptsAnyFractionLengthAndTruncatesBelowNanoseconds) {
  EXPECT_EQ(parse_time("2024-01-02T03:04:05.5Z"), at(2024, 1, 2, 3, 4, 5, milliseconds(500)));
  EXPECT_EQ(parse_time("2024-01-02T03:04:05.123456789Z"),
            at(2024, 1, 2, 3, 4, 5, nanoseconds(123456789)));
  EXPECT_EQ(parse_time("2024-01-02T03:04:05.1234567899999Z"),
            at(2024, 1, 2, 3, 4, 5, nanoseconds(123456789)));
  EXPECT_EQ(parse_time("2024-01-02T03:04:05,25Z"), at(2024, 1, 2, 3, 4, 5, milliseconds(250)));
}

TEST(TimeParse, AppliesOffsetsToUtc) {
  EXPECT_EQ(parse_time("2024-01-02T05:04:05+02:00"), at(2024, 1, 2, 3, 4, 5));
  EXPECT_EQ(parse_time("2024-01-01T22:34:05-04:30"), at(2024, 1, 2, 3, 4, 5));
  EXPECT_EQ(parse_time("2024-01-02T03:04:05+00:00"), at(2024, 1, 2, 3, 4, 5));
  EXPECT_EQ(parse_time("2024-03-01T00:30:00+01:00"), at(2024, 2, 29, 23, 30, 0))
      << "offsets cross the leap day";
  EXPECT_EQ(parse_time("2024-01-02t03:04:05z"), at(2024, 1, 2, 3, 4, 5));
}

TEST(TimeParse, LeapYearsFollowTheGregorianRules) {
  EXPECT_TRUE(parse_time("2024-02-29T00:00:00Z").has_value());
  EXPECT_TRUE(parse_time("2000-02-29T00:00:00Z").has_value());
  EXPECT_FALSE(parse_time("2023-02-29T00:00:00Z").has_value());
  EXPECT_FALSE(parse_time("2100-02-29T00:00:00Z").has_value());
  EXPECT_FALSE(parse_time("2024-04-31T00:00:00Z").has_value());
  EXPECT_EQ(format_rfc3339(*parse_time("2000-02-29T12:00:00Z") + hours(12)),
            "2000-03-01T00:00:00Z");
}

TEST(TimeParse, RejectsMalformedAndOutOfRangeText) {
  for (const char* text : {"",
                           "2024-01-02",
                           "2024-01-02T03:04:05",
                           "2024-01-02 03:04:05Z",
                           "2024-1-02T03:04:05Z",
                           "2024-01-02T03:04:05.Z",
                           "2024-01-02T03:04:05ZZ",
                           "2024-01-02T24:00:00Z",
                           "2024-01-02T23:60:00Z",
                           "2024-01-02T23:59:60Z",
                           "2024-13-01T00:00:00Z",
                           "2024-00-01T00:00:00Z",
                           "2024-01-00T00:00:00Z",
                           "2024-01-02T03:04:05+0200",
                           "2024-01-02T03:04:05+24:00",
                           "2024-01-02T03:04:05+01:60",
                           "2024-01-02T03:04:05 Z",
                           " 2024-01-02T03:04:05Z",
                           "0001-01-01T00:00:00Z",
                           "9999-12-31T23:59:59Z",
                           "2024-01-02T03:04:05.123456+"}) {
    EXPECT_FALSE(parse_time(text).has_value()) << "'" << text << "'";
  }
}

TEST(TimeRoundTrip, FormattedTimesParseBackExactly) {
  std::mt19937_64 rng(3);
  for (int i = 0; i < 2000; ++i) {
    // Any microsecond between 1900 and 2200.
    const auto micros = static_cast<std::int64_t>(rng() % 9467280000000000ULL) - 2208988800000000LL;
    const TimePoint t{duration_cast<TimePoint::duration>(microseconds(micros))};
    EXPECT_EQ(parse_time(format_micro_time(t)), t) << format_micro_time(t);
    EXPECT_EQ(parse_time(format_rfc3339(t)), floor<seconds>(t)) << format_rfc3339(t);
  }
}

}  // namespace
}  // namespace vc::api

#include "controllers/job/model/go_duration.h"

#include <cstdint>
#include <limits>

#include <gtest/gtest.h>

namespace vc::controllers::job {
namespace {

struct Accepted {
  const char* text;
  std::int64_t nanos;
};

// Expected values printed by Go's time.ParseDuration.
TEST(ParseGoDuration, AcceptsWhatGoAccepts) {
  const Accepted cases[] = {
      {"1h2m3.5s", 3723500000000},
      {"300ms", 300000000},
      {"5m", 300000000000},
      {"0", 0},
      {"-1.5h", -5400000000000},
      {"1.0000000001s", 1000000000},
      {".5s", 500000000},
      {"1.s", 1000000000},
      {"+2us", 2000},
      {"3\u00b5s", 3000},
      {"4\u03bcs", 4000},
      {"0.1ns", 0},
      {"9223372036854775807ns", std::numeric_limits<std::int64_t>::max()},
      {"-9223372036854775808ns", std::numeric_limits<std::int64_t>::min()},
      {"2562047h47m16.854775807s", std::numeric_limits<std::int64_t>::max()},
  };
  for (const Accepted& c : cases) {
    auto d = parse_go_duration(c.text);
    ASSERT_TRUE(d.ok()) << c.text << ": " << d.error();
    EXPECT_EQ(d->count(), c.nanos) << c.text;
  }
}

struct Rejected {
  const char* text;
  const char* error;
};

TEST(ParseGoDuration, RejectsWithGosMessages) {
  const Rejected cases[] = {
      {"", "time: invalid duration \"\""},
      {".", "time: invalid duration \".\""},
      {"-", "time: invalid duration \"-\""},
      {"abc", "time: invalid duration \"abc\""},
      {"5", "time: missing unit in duration \"5\""},
      {"1h1", "time: missing unit in duration \"1h1\""},
      {"1.5.5s", "time: missing unit in duration \"1.5.5s\""},
      {"1d", "time: unknown unit \"d\" in duration \"1d\""},
      {"9223372036854775808ns", "time: invalid duration \"9223372036854775808ns\""},
      {"2562048h", "time: invalid duration \"2562048h\""},
      {"100000000000000000000ns", "time: invalid duration \"100000000000000000000ns\""},
  };
  for (const Rejected& c : cases) {
    auto d = parse_go_duration(c.text);
    ASSERT_FALSE(d.ok()) << c.text << " parsed as " << d->count();
    EXPECT_EQ(d.error(), c.error) << c.text;
  }
}

}  // namespace
}  // namespace vc::controllers::job

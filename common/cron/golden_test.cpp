// Our schedules against robfig/cron v3.0.1 itself: golden/main.go records, at build time, what
// ParseStandard and Next answer for its table (VC_CRON_GOLDEN); every answer must be ours too.
// Schedules without a zone prefix run in UTC on both sides (the recorder runs with TZ=UTC).

#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "common/cron/schedule.h"

namespace vc::cron {
namespace {

using nlohmann::json;

json golden() {
  std::ifstream in(VC_CRON_GOLDEN);
  return json::parse(in);
}

TEST(CronGolden, ParseAndNextMatchRobfig) {
  const json cases = golden();
  ASSERT_GT(cases.size(), 50u);
  std::size_t nexts = 0;
  for (const json& c : cases) {
    const std::string spec = c.at("spec").get<std::string>();
    const std::string want_error = c.at("err").get<std::string>();
    const auto parsed = Schedule::parse(spec, go::Location::utc());
    if (!want_error.empty()) {
      EXPECT_FALSE(parsed.ok()) << "spec " << spec << " parsed; robfig: " << want_error;
      EXPECT_EQ(parsed.error(), want_error) << "spec " << spec;
      continue;
    }
    ASSERT_TRUE(parsed.ok()) << "spec " << spec << ": " << parsed.error();
    for (const json& n : c.value("nexts", json::array())) {
      const auto from = n.at("from").get<std::int64_t>();
      const auto got = parsed->next(from);
      ++nexts;
      if (n.at("zero").get<bool>()) {
        EXPECT_FALSE(got.has_value()) << "spec " << spec << " from " << from << ": got " << *got;
      } else {
        EXPECT_EQ(got, std::optional<std::int64_t>(n.at("next").get<std::int64_t>()))
            << "spec " << spec << " from " << from;
      }
    }
  }
  EXPECT_GT(nexts, 500u);
}

}  // namespace
}  // namespace vc::cron

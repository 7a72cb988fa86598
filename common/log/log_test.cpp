#include "common/log/log.h"

#include <algorithm>
#include <limits>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

#include "common/log/line_format.h"

namespace vc::log {
namespace {

class LogTest : public ::testing::Test {
 protected:
  void use(Format format, int verbosity) {
    out_.str("");
    setup(Options{.format = format, .verbosity = verbosity}, out_);
  }
  // The stream dies with the fixture: point the logger back at stderr.
  void TearDown() override { setup(Options{}); }

  std::string output() const { return out_.str(); }

  std::ostringstream out_;
};

TEST_F(LogTest, TextLineHasTimestampLevelMessageAndFields) {
  use(Format::Text, 0);
  VC_LOG_INFO("created pod", kv("pod", "ns/p1"), kv("count", 3), kv("ok", true));
  const std::regex want(
      R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z info created pod pod=ns/p1 count=3 ok=true\n)");
  EXPECT_TRUE(std::regex_match(output(), want)) << output();
}

TEST_F(LogTest, TextQuotesValuesThatWouldBreakKeyValueParsing) {
  use(Format::Text, 0);
  VC_LOG_WARN("sync failed", kv("err", "quota \"gpu\" exceeded"), kv("expr", "a=b"),
              kv("empty", ""), kv("multi", "one\ntwo"));
  EXPECT_NE(output().find(R"( warn sync failed err="quota \"gpu\" exceeded" expr="a=b" empty="")"
                          R"( multi="one\ntwo")"),
            std::string::npos)
      << output();
}

TEST_F(LogTest, TextKeepsEachEventOnOneLine) {
  use(Format::Text, 0);
  VC_LOG_ERROR("line one\nline two");
  spdlog::info("plain\nspdlog");
  const std::string out = output();
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 2) << out;
  EXPECT_NE(out.find("error line one\\nline two\n"), std::string::npos) << out;
  EXPECT_NE(out.find("info plain\\nspdlog\n"), std::string::npos) << out;
}

TEST_F(LogTest, JsonLineIsAnObjectWithTypedFields) {
  use(Format::Json, 0);
  VC_LOG_INFO("created pod", kv("pod", "ns/p1"), kv("count", 3), kv("ratio", 0.5), kv("ok", false),
              kv("b", "two"));
  const std::string out = output();
  ASSERT_FALSE(out.empty());
  EXPECT_EQ(out.back(), '\n');
  const auto line = nlohmann::json::parse(out);
  EXPECT_TRUE(std::regex_match(line.at("ts").get<std::string>(),
                               std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z)")))
      << out;
  EXPECT_EQ(line.at("level"), "info");
  EXPECT_EQ(line.at("msg"), "created pod");
  EXPECT_EQ(line.at("pod"), "ns/p1");
  EXPECT_EQ(line.at("count"), 3);
  EXPECT_EQ(line.at("ratio"), 0.5);
  EXPECT_EQ(line.at("ok"), false);
  EXPECT_EQ(line.at("b"), "two");
}

TEST_F(LogTest, JsonReplacesInvalidUtf8InsteadOfBreakingTheLine) {
  use(Format::Json, 0);
  VC_LOG_INFO("bad bytes", kv("body", std::string("a\xff\xfe"
                                                  "b")));
  const auto line = nlohmann::json::parse(output());
  EXPECT_EQ(line.at("body"),
            "a\xEF\xBF\xBD\xEF\xBF\xBD"
            "b")
      << output();
}

TEST_F(LogTest, JsonKeepsNonFiniteNumbersAsStrings) {
  use(Format::Json, 0);
  VC_LOG_INFO("weird", kv("nan", std::numeric_limits<double>::quiet_NaN()));
  const auto line = nlohmann::json::parse(output());
  EXPECT_TRUE(line.at("nan").is_string()) << output();
}

TEST_F(LogTest, PlainSpdlogCallsComeOutAsJsonToo) {
  use(Format::Json, 0);
  spdlog::warn("hello {} \"quoted\"", 42);
  const auto line = nlohmann::json::parse(output());
  EXPECT_EQ(line.at("level"), "warn");
  EXPECT_EQ(line.at("msg"), "hello 42 \"quoted\"");
}

TEST_F(LogTest, JsonWritesOneObjectPerEvent) {
  use(Format::Json, 0);
  VC_LOG_INFO("first");
  VC_LOG_INFO("second", kv("n", 2));
  std::istringstream lines(output());
  std::string l;
  std::vector<std::string> msgs;
  while (std::getline(lines, l)) msgs.push_back(nlohmann::json::parse(l).at("msg"));
  EXPECT_EQ(msgs, (std::vector<std::string>{"first", "second"})) << output();
}

TEST(Verbosity, MapsLikeKlog) {
  EXPECT_EQ(level_for_verbosity(0), Level::Info);
  EXPECT_EQ(level_for_verbosity(1), Level::Info);
  EXPECT_EQ(level_for_verbosity(2), Level::Debug);
  EXPECT_EQ(level_for_verbosity(3), Level::Debug);
  EXPECT_EQ(level_for_verbosity(4), Level::Trace);
  EXPECT_EQ(level_for_verbosity(10), Level::Trace);
}

TEST_F(LogTest, DebugIsHiddenAtVerbosityOneAndShownAtTwo) {
  use(Format::Text, 1);
  VC_LOG_DEBUG("hidden");
  spdlog::debug("hidden too");
  EXPECT_EQ(output(), "");
  EXPECT_FALSE(enabled(Level::Debug));
  EXPECT_TRUE(enabled(Level::Info));

  use(Format::Text, 2);
  VC_LOG_DEBUG("shown");
  VC_LOG_TRACE("still hidden");
  EXPECT_NE(output().find("debug shown"), std::string::npos) << output();
  EXPECT_EQ(output().find("still hidden"), std::string::npos) << output();

  use(Format::Text, 4);
  VC_LOG_TRACE("now shown");
  EXPECT_NE(output().find("trace now shown"), std::string::npos) << output();
}

TEST_F(LogTest, DisabledLevelDoesNotEvaluateFields) {
  use(Format::Text, 0);
  int evaluated = 0;
  auto expensive = [&] {
    ++evaluated;
    return std::string("dump");
  };
  VC_LOG_DEBUG("details", kv("state", expensive()));
  EXPECT_EQ(evaluated, 0);
  VC_LOG_INFO("details", kv("state", expensive()));
  EXPECT_EQ(evaluated, 1);
}

TEST_F(LogTest, VGateFollowsVerbosity) {
  use(Format::Text, 3);
  EXPECT_EQ(verbosity(), 3);
  EXPECT_TRUE(v(0));
  EXPECT_TRUE(v(3));
  EXPECT_FALSE(v(4));
  VC_LOG_V(3, "at three", kv("k", 1));
  VC_LOG_V(4, "at four");
  EXPECT_NE(output().find("debug at three k=1"), std::string::npos) << output();
  EXPECT_EQ(output().find("at four"), std::string::npos) << output();
}

TEST(Setup, RejectsUnknownFormatAndNegativeVerbosity) {
  EXPECT_EQ(parse_format("text"), Format::Text);
  EXPECT_EQ(parse_format("json"), Format::Json);
  EXPECT_THROW(parse_format("xml"), std::invalid_argument);
  std::ostringstream out;
  EXPECT_THROW(setup(Options{.verbosity = -1}, out), std::invalid_argument);
}

TEST(LineFormat, TimestampIsUtcWithMicroseconds) {
  using namespace std::chrono;
  spdlog::memory_buf_t buf;
  // 2006-01-02T15:04:05.000007Z
  append_timestamp(buf, system_clock::time_point(seconds(1136214245) + microseconds(7)));
  EXPECT_EQ(std::string(buf.data(), buf.size()), "2006-01-02T15:04:05.000007Z");
}

TEST(LineFormat, TimestampsInTheSameAndTheNextSecondAndBefore1970) {
  using namespace std::chrono;
  const auto text = [](system_clock::time_point t) {
    spdlog::memory_buf_t buf;
    append_timestamp(buf, t);
    return std::string(buf.data(), buf.size());
  };
  const auto base = system_clock::time_point(seconds(1136214245));
  EXPECT_EQ(text(base + microseconds(999999)), "2006-01-02T15:04:05.999999Z");
  EXPECT_EQ(text(base + microseconds(123450)), "2006-01-02T15:04:05.123450Z");
  EXPECT_EQ(text(base + seconds(1)), "2006-01-02T15:04:06.000000Z");
  EXPECT_EQ(text(base + microseconds(10)), "2006-01-02T15:04:05.000010Z");
  EXPECT_EQ(text(system_clock::time_point(microseconds(-1))), "1969-12-31T23:59:59.999999Z");
  EXPECT_EQ(text(base + seconds(60) + microseconds(500000)), "2006-01-02T15:05:05.500000Z");
}

}  // namespace
}  // namespace vc::log

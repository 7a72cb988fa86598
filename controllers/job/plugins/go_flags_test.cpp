#include "controllers/job/plugins/go_flags.h"

#include <limits>
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include "common/go/strconv.h"

namespace vc::controllers::job::plugins {
namespace {

struct Flags {
  std::string master = "master";
  std::int64_t port = 22;
  bool enabled = false;
  GoFlagSet set;
  Flags() {
    set.add_string("master", &master);
    set.add_int("port", &port);
    set.add_bool("enabled", &enabled);
  }
};

TEST(GoFlags, SingleAndDoubleDashWithEqualsOrSeparateValue) {
  Flags f;
  EXPECT_EQ(f.set.parse({"-master=m", "--port", "2222", "--enabled"}).error(), "");
  EXPECT_EQ(f.master, "m");
  EXPECT_EQ(f.port, 2222);
  EXPECT_TRUE(f.enabled);
  EXPECT_TRUE(f.set.remaining().empty());
}

TEST(GoFlags, EmptyArgumentsKeepDefaults) {
  Flags f;
  EXPECT_EQ(f.set.parse({}).error(), "");
  EXPECT_EQ(f.master, "master");
  EXPECT_EQ(f.port, 22);
  EXPECT_FALSE(f.enabled);
}

TEST(GoFlags, BoolTakesOnlyAnAttachedValue) {
  Flags f;
  f.enabled = true;
  EXPECT_EQ(f.set.parse({"--enabled=false", "--port=1"}).error(), "");
  EXPECT_FALSE(f.enabled);
  EXPECT_EQ(f.port, 1);

  // "-enabled false": the bool does not consume "false", which is a non-flag and ends parsing.
  Flags g;
  EXPECT_EQ(g.set.parse({"-enabled", "false", "--port=7"}).error(), "");
  EXPECT_TRUE(g.enabled);
  EXPECT_EQ(g.port, 22);
  EXPECT_EQ(g.set.remaining(), (std::vector<std::string>{"false", "--port=7"}));
}

TEST(GoFlags, BoolAcceptsGoSpellings) {
  for (const char* yes : {"1", "t", "T", "TRUE", "true", "True"}) {
    Flags f;
    EXPECT_EQ(f.set.parse({std::string("--enabled=") + yes}).error(), "") << yes;
    EXPECT_TRUE(f.enabled) << yes;
  }
  Flags f;
  f.enabled = true;
  EXPECT_EQ(f.set.parse({"--enabled=F"}).error(), "");
  EXPECT_FALSE(f.enabled);
}

TEST(GoFlags, InvalidBoolStopsAndStoresFalse) {
  Flags f;
  f.enabled = true;
  EXPECT_EQ(f.set.parse({"--enabled=yes", "--port=5"}).error(),
            "invalid boolean value \"yes\" for -enabled: parse error");
  EXPECT_FALSE(f.enabled);
  EXPECT_EQ(f.port, 22);
}

TEST(GoFlags, ParsingStopsAtFirstNonFlag) {
  Flags f;
  EXPECT_EQ(f.set.parse({"--port=3", "extra", "--master=x"}).error(), "");
  EXPECT_EQ(f.port, 3);
  EXPECT_EQ(f.master, "master");
  EXPECT_EQ(f.set.remaining(), (std::vector<std::string>{"extra", "--master=x"}));

  Flags single_dash;
  EXPECT_EQ(single_dash.set.parse({"-", "--port=3"}).error(), "");
  EXPECT_EQ(single_dash.port, 22);
}

TEST(GoFlags, DoubleDashEndsFlagsAndIsConsumed) {
  Flags f;
  EXPECT_EQ(f.set.parse({"--", "--port=3"}).error(), "");
  EXPECT_EQ(f.port, 22);
  EXPECT_EQ(f.set.remaining(), (std::vector<std::string>{"--port=3"}));
}

TEST(GoFlags, UnknownFlagStopsParsingButKeepsEarlierValues) {
  Flags f;
  EXPECT_EQ(f.set.parse({"--port=9", "--nope=1", "--master=x"}).error(),
            "flag provided but not defined: -nope");
  EXPECT_EQ(f.port, 9);
  EXPECT_EQ(f.master, "master");
}

TEST(GoFlags, HelpIsReportedAsHelpRequest) {
  Flags f;
  EXPECT_EQ(f.set.parse({"-h"}).error(), "flag: help requested");
  EXPECT_EQ(f.set.parse({"--help"}).error(), "flag: help requested");
}

TEST(GoFlags, BadSyntaxIsAnError) {
  Flags f;
  EXPECT_EQ(f.set.parse({"---port=1"}).error(), "bad flag syntax: ---port=1");
  EXPECT_EQ(f.set.parse({"-=1"}).error(), "bad flag syntax: -=1");
  EXPECT_EQ(f.port, 22);
}

TEST(GoFlags, MissingValueIsAnError) {
  Flags f;
  EXPECT_EQ(f.set.parse({"--master"}).error(), "flag needs an argument: -master");
  EXPECT_EQ(f.master, "master");
}

TEST(GoFlags, StringTakesNextArgumentEvenIfItLooksLikeAFlag) {
  Flags f;
  EXPECT_EQ(f.set.parse({"--master", "--port=4"}).error(), "");
  EXPECT_EQ(f.master, "--port=4");
  EXPECT_EQ(f.port, 22);
}

TEST(GoFlags, EmptyValueAfterEquals) {
  Flags f;
  EXPECT_EQ(f.set.parse({"--master="}).error(), "");
  EXPECT_EQ(f.master, "");
}

TEST(GoFlags, LastOccurrenceWins) {
  Flags f;
  EXPECT_EQ(f.set.parse({"--port=1", "-port", "2"}).error(), "");
  EXPECT_EQ(f.port, 2);
}

TEST(GoFlags, InvalidIntStopsAndStoresWhatGoStores) {
  Flags f;
  EXPECT_EQ(f.set.parse({"--port=abc"}).error(),
            "invalid value \"abc\" for flag -port: parse error");
  EXPECT_EQ(f.port, 0);
  Flags g;
  EXPECT_EQ(g.set.parse({"--port=99999999999999999999"}).error(),
            "invalid value \"99999999999999999999\" for flag -port: value out of range");
  EXPECT_EQ(g.port, std::numeric_limits<std::int64_t>::max());
}

TEST(GoFlags, RedefiningAFlagIsAProgrammerError) {
  Flags f;
  std::string other;
  EXPECT_THROW(f.set.add_string("master", &other), std::logic_error);
}

TEST(GoFlags, IntTakesGoSyntaxBasePrefixesSignsAndUnderscores) {
  const std::pair<const char*, std::int64_t> cases[] = {
      {"23456", 23456},
      {"-10", -10},
      {"+7", 7},
      {"0x1F", 31},
      {"0o17", 15},
      {"017", 15},
      {"0b101", 5},
      {"0", 0},
      {"1_000", 1000},
      {"0x_1f", 31},
      {"-9223372036854775808", std::numeric_limits<std::int64_t>::min()}};
  for (const auto& [text, value] : cases) {
    Flags f;
    EXPECT_EQ(f.set.parse({std::string("--port=") + text}).error(), "") << text;
    EXPECT_EQ(f.port, value) << text;
  }
  for (const char* bad : {"", "-", "08", "0x", "1__0", "_1", "1_", "12a", " 1"}) {
    Flags f;
    EXPECT_EQ(f.set.parse({std::string("--port=") + bad}).error(),
              "invalid value " + go::quote(bad) + " for flag -port: parse error")
        << bad;
    EXPECT_EQ(f.port, 0) << bad;
  }
  Flags low;
  EXPECT_EQ(low.set.parse({"--port=-9223372036854775809"}).error(),
            "invalid value \"-9223372036854775809\" for flag -port: value out of range");
  EXPECT_EQ(low.port, std::numeric_limits<std::int64_t>::min());
}

TEST(GoAtoi, DecimalOnly) {
  EXPECT_EQ(go_atoi("12"), 12);
  EXPECT_EQ(go_atoi("-3"), -3);
  EXPECT_EQ(go_atoi("007"), 7);
  EXPECT_EQ(go_atoi("9223372036854775807"), std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(go_atoi("-9223372036854775808"), std::numeric_limits<std::int64_t>::min());
  for (const char* bad : {"", "+", "0x1", "1_0", "9223372036854775808", "a"}) {
    EXPECT_FALSE(go_atoi(bad).has_value()) << bad;
  }
}

}  // namespace
}  // namespace vc::controllers::job::plugins

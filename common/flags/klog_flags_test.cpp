#include "common/flags/klog_flags.h"

#include <gtest/gtest.h>

namespace vc::flags {
namespace {

using namespace std::chrono_literals;

class KlogFlagsTest : public ::testing::Test {
 protected:
  KlogFlagsTest() { add_klog_flags(fs, o); }
  api::Expected<ParseResult> parse(std::vector<std::string> args) { return fs.parse(args); }

  KlogOptions o;
  FlagSet fs{"x"};
};

TEST_F(KlogFlagsTest, AcceptsTheHelmCommandLine) {
  auto r = parse({"--logtostderr", "-v=4", "2>&1"});
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(o.v, 4);
  EXPECT_TRUE(o.logtostderr);
  EXPECT_EQ(r->args, std::vector<std::string>{"2>&1"});
}

TEST_F(KlogFlagsTest, VerbosityIsDecimalOnly) {
  ASSERT_TRUE(parse({"--v", "10"}).ok());
  EXPECT_EQ(o.v, 10);
  EXPECT_EQ(parse({"-v=0x1"}).error(),
            "invalid argument \"0x1\" for \"-v, --v\" flag: strconv.ParseInt: parsing \"0x1\": "
            "invalid syntax");
}

TEST_F(KlogFlagsTest, GoFlagBooleansReportParseError) {
  EXPECT_EQ(parse({"--logtostderr=maybe"}).error(),
            "invalid argument \"maybe\" for \"--logtostderr\" flag: parse error");
  EXPECT_EQ(parse({"--log-file-max-size=x"}).error(),
            "invalid argument \"x\" for \"--log-file-max-size\" flag: parse error");
}

TEST_F(KlogFlagsTest, UnderscoreNamesFromOldManifestsWork) {
  auto r = parse({"--log_dir=/tmp/l", "--log_file", "/tmp/f", "-alsologtostderr",
                  "--skip_headers=true", "--one_output", "--add_dir_header", "--skip_log_headers",
                  "--log_file_max_size=10", "--legacy_stderr_threshold_behavior=true"});
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(o.log_dir, "/tmp/l");
  EXPECT_EQ(o.log_file, "/tmp/f");
  EXPECT_TRUE(o.alsologtostderr);
  EXPECT_EQ(o.log_file_max_size, 10u);
}

TEST_F(KlogFlagsTest, StderrThresholdTakesNamesOrNumbersAndPrintsTheNumber) {
  EXPECT_EQ(fs.lookup("stderrthreshold")->default_text, "0");  // Volcano presets INFO
  ASSERT_TRUE(parse({"--stderrthreshold=warning"}).ok());
  EXPECT_EQ(o.stderrthreshold, "WARNING");
  EXPECT_EQ(fs.lookup("stderrthreshold")->value->str(), "1");
  ASSERT_TRUE(parse({"--stderrthreshold=2"}).ok());
  EXPECT_EQ(o.stderrthreshold, "ERROR");
  EXPECT_FALSE(parse({"--stderrthreshold=loud"}).ok());
}

TEST_F(KlogFlagsTest, VmoduleAndBacktraceAreCheckedLikeKlog) {
  ASSERT_TRUE(parse({"--vmodule=server*=3,,client=0"}).ok());
  EXPECT_EQ(parse({"--vmodule=server"}).error(),
            "invalid argument \"server\" for \"--vmodule\" flag: syntax error: expect "
            "comma-separated list of filename=N");
  EXPECT_EQ(parse({"--vmodule=a=-1"}).error(),
            "invalid argument \"a=-1\" for \"--vmodule\" flag: negative value for vmodule level");
  ASSERT_TRUE(parse({"--log-backtrace-at=server.go:12"}).ok());
  EXPECT_EQ(o.log_backtrace_at, "server.go:12");
  EXPECT_FALSE(parse({"--log-backtrace-at=server:12"}).ok());
  EXPECT_FALSE(parse({"--log-backtrace-at=a.go:0"}).ok());
}

TEST_F(KlogFlagsTest, FlushFrequencyIsADuration) {
  EXPECT_EQ(o.log_flush_frequency, 5s);
  ASSERT_TRUE(parse({"--log-flush-frequency=1s"}).ok());
  EXPECT_EQ(o.log_flush_frequency, 1s);
}

TEST_F(KlogFlagsTest, IgnoredSettingsAreReported) {
  EXPECT_TRUE(ignored_settings(o).empty());
  ASSERT_TRUE(parse({"--logtostderr=false", "--log-file=/x"}).ok());
  const auto notes = ignored_settings(o);
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_NE(notes[1].find("--log-file"), std::string::npos);
}

}  // namespace
}  // namespace vc::flags

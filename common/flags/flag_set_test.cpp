#include "common/flags/flag_set.h"

#include <gtest/gtest.h>

#include "common/flags/klog_flags.h"

namespace vc::flags {
namespace {

using namespace std::chrono_literals;

struct Options {
  std::string master;
  int port = 8443;
  bool healthz = false;
  bool protection = true;
  double qps = 50;
  std::chrono::nanoseconds grace = 30s;
  std::vector<std::string> schedulers{"volcano"};
  std::vector<std::string> controllers{"*", "-sharding-controller"};
  std::uint32_t workers = 3;
  std::string log_dir;
};

class FlagSetTest : public ::testing::Test {
 protected:
  FlagSetTest() {
    fs.string_var("master", &o.master, "API server URL.");
    fs.int_var("port", &o.port, "HTTPS port.");
    fs.bool_var("enable-healthz", &o.healthz, "Serve /healthz.");
    fs.bool_var("enable-root-queue-protection", &o.protection, "Protect root.");
    fs.float32_var("kube-api-qps", &o.qps, "Client QPS.");
    fs.duration_var("graceful-shutdown-time", &o.grace, "Grace period.");
    fs.string_array_var("scheduler-name", &o.schedulers, "Scheduler names.");
    fs.string_slice_var("controllers", &o.controllers, "Controllers.");
    fs.uint32_var("worker-threads", &o.workers, "Workers.");
    fs.string_var("log_dir", &o.log_dir, "Log directory.");
    add_klog_flags_for_test();
  }

  void add_klog_flags_for_test() {
    fs.var("v",
           std::make_unique<FuncValue>(
               "Level",
               [this](std::string_view t) -> api::Status {
                 v_text = std::string(t);
                 if (t == "x") return api::Unexpected{"bad level"};
                 return api::ok_status();
               },
               [this] { return v_text; }),
           "Verbosity.");
  }

  api::Expected<ParseResult> parse(std::vector<std::string> args) { return fs.parse(args); }

  Options o;
  std::string v_text = "0";
  FlagSet fs{"test-binary"};
};

TEST_F(FlagSetTest, DefaultsComeFromTheTargets) {
  auto r = parse({});
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(o.port, 8443);
  EXPECT_EQ(fs.lookup("port")->default_text, "8443");
  EXPECT_EQ(fs.lookup("kube-api-qps")->default_text, "50");
  EXPECT_EQ(fs.lookup("graceful-shutdown-time")->default_text, "30s");
  EXPECT_EQ(fs.lookup("scheduler-name")->default_text, "[volcano]");
  EXPECT_EQ(fs.lookup("controllers")->default_text, "[*,-sharding-controller]");
  EXPECT_FALSE(fs.changed("port"));
}

TEST_F(FlagSetTest, LongFlagsTakeEqualsOrTheNextArgument) {
  auto r = parse({"--port=9443", "--master", "https://x:6443", "--graceful-shutdown-time=1m30s"});
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(o.port, 9443);
  EXPECT_EQ(o.master, "https://x:6443");
  EXPECT_EQ(o.grace, 90s);
  EXPECT_TRUE(fs.changed("port"));
  EXPECT_TRUE(r->args.empty());
}

TEST_F(FlagSetTest, SingleDashLongNamesWorkAsInGoFlag) {
  auto r = parse({"-port=1234", "-master", "m"});
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(o.port, 1234);
  EXPECT_EQ(o.master, "m");
}

TEST_F(FlagSetTest, OneLetterFlagsTakeEveryShorthandForm) {
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"-v=3"}, {"-v", "3"}, {"-v3"}, {"--v=3"}, {"--v", "3"}}) {
    v_text = "0";
    auto r = parse(args);
    ASSERT_TRUE(r.ok()) << args[0] << ": " << r.error();
    EXPECT_EQ(v_text, "3") << args[0];
  }
}

TEST_F(FlagSetTest, BooleansDoNotConsumeTheNextArgument) {
  auto r = parse({"--enable-healthz", "false", "--enable-root-queue-protection=false"});
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_TRUE(o.healthz);
  EXPECT_FALSE(o.protection);
  EXPECT_EQ(r->args, std::vector<std::string>{"false"});
  ASSERT_TRUE(parse({"--enable-healthz=0"}).ok());
  EXPECT_FALSE(o.healthz);
}

TEST_F(FlagSetTest, StringArrayFirstOccurrenceReplacesDefaultAndLaterOnesAppend) {
  auto r = parse({"--scheduler-name=a,b", "--scheduler-name", "c"});
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(o.schedulers, (std::vector<std::string>{"a,b", "c"}));
  EXPECT_EQ(fs.lookup("scheduler-name")->value->str(), "[\"a,b\",c]");
}

TEST_F(FlagSetTest, StringSliceSplitsOnCommasAndAppends) {
  auto r = parse({"--controllers=job-controller,queue-controller", "--controllers=gc"});
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(o.controllers, (std::vector<std::string>{"job-controller", "queue-controller", "gc"}));
  ASSERT_FALSE(parse({"--controllers=a\"b"}).ok());
}

TEST_F(FlagSetTest, UnderscoresAndDashesAreTheSame) {
  ASSERT_TRUE(parse({"--log-dir=/a"}).ok());
  EXPECT_EQ(o.log_dir, "/a");
  ASSERT_TRUE(parse({"--log_dir=/b", "--enable_healthz"}).ok());
  EXPECT_EQ(o.log_dir, "/b");
  EXPECT_TRUE(o.healthz);
  EXPECT_NE(fs.lookup("log_dir"), nullptr);
  EXPECT_EQ(fs.lookup("log_dir")->name, "log-dir");
}

TEST_F(FlagSetTest, PositionalArgumentsAreCollectedInOrder) {
  auto r = parse({"2>&1", "--port=1", "-", "x", "--", "--port=2", "-v"});
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(o.port, 1);
  EXPECT_EQ(r->args, (std::vector<std::string>{"2>&1", "-", "x", "--port=2", "-v"}));
}

TEST_F(FlagSetTest, UnknownFlagsAreErrorsInPflagWords) {
  EXPECT_EQ(parse({"--nope=1"}).error(), "unknown flag: --nope");
  EXPECT_EQ(parse({"--no_pe"}).error(), "unknown flag: --no_pe");
  EXPECT_EQ(parse({"-xyz"}).error(), "unknown shorthand flag: 'x' in -xyz");
  EXPECT_EQ(parse({"---port"}).error(), "bad flag syntax: ---port");
  EXPECT_EQ(parse({"--=x"}).error(), "bad flag syntax: --=x");
}

TEST_F(FlagSetTest, MissingValuesAreErrors) {
  EXPECT_EQ(parse({"--port"}).error(), "flag needs an argument: --port");
  EXPECT_EQ(parse({"-v"}).error(), "flag needs an argument: 'v' in -v");
}

TEST_F(FlagSetTest, BadValuesNameTheFlagAndTheValue) {
  EXPECT_EQ(parse({"--port=abc"}).error(),
            "invalid argument \"abc\" for \"--port\" flag: strconv.ParseInt: parsing \"abc\": "
            "invalid syntax");
  EXPECT_EQ(parse({"--port", "99999999999"}).error(),
            "invalid argument \"99999999999\" for \"--port\" flag: strconv.ParseInt: parsing "
            "\"99999999999\": value out of range");
  EXPECT_EQ(parse({"--enable-healthz=yes"}).error(),
            "invalid argument \"yes\" for \"--enable-healthz\" flag: strconv.ParseBool: parsing "
            "\"yes\": invalid syntax");
  EXPECT_EQ(parse({"--graceful-shutdown-time=30"}).error(),
            "invalid argument \"30\" for \"--graceful-shutdown-time\" flag: time: missing unit in "
            "duration \"30\"");
  EXPECT_EQ(parse({"--kube-api-qps=fast"}).error(),
            "invalid argument \"fast\" for \"--kube-api-qps\" flag: strconv.ParseFloat: parsing "
            "\"fast\": invalid syntax");
  EXPECT_EQ(parse({"--worker-threads=-1"}).error(),
            "invalid argument \"-1\" for \"--worker-threads\" flag: strconv.ParseUint: parsing "
            "\"-1\": invalid syntax");
  EXPECT_EQ(parse({"-v=x"}).error(), "invalid argument \"x\" for \"-v, --v\" flag: bad level");
}

TEST_F(FlagSetTest, ValuesBeforeAnErrorStayApplied) {
  ASSERT_FALSE(parse({"--port=1", "--nope"}).ok());
  EXPECT_EQ(o.port, 1);
}

TEST_F(FlagSetTest, HelpStopsParsing) {
  auto r = parse({"--port=1", "--help", "--port=2"});
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_TRUE(r->help);
  EXPECT_EQ(o.port, 1);
  auto h = parse({"-h"});
  ASSERT_TRUE(h.ok());
  EXPECT_TRUE(h->help);
}

TEST_F(FlagSetTest, DeprecatedFlagsWarnWhenUsed) {
  fs.deprecate("master", "use --kubeconfig instead");
  auto r = parse({"--master=x"});
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->warnings, std::vector<std::string>{
                             "Flag --master has been deprecated, use --kubeconfig instead"});
}

TEST_F(FlagSetTest, UsageListsEveryVisibleFlagWithTypeAndNonZeroDefault) {
  fs.hide("worker-threads");
  const std::string usage = fs.usage();
  EXPECT_TRUE(usage.starts_with("Usage of test-binary:\n")) << usage;
  EXPECT_NE(usage.find("      --port int"), std::string::npos) << usage;
  EXPECT_NE(usage.find("HTTPS port. (default 8443)"), std::string::npos) << usage;
  EXPECT_NE(usage.find("      --enable-healthz "), std::string::npos) << usage;
  EXPECT_NE(usage.find("Serve /healthz.\n"), std::string::npos) << usage;  // zero default
  EXPECT_NE(usage.find("Protect root. (default true)"), std::string::npos) << usage;
  EXPECT_NE(usage.find("  -v, --v Level"), std::string::npos) << usage;
  EXPECT_NE(usage.find("--scheduler-name stringArray"), std::string::npos) << usage;
  EXPECT_NE(usage.find("(default [volcano])"), std::string::npos) << usage;
  EXPECT_NE(usage.find("--controllers strings"), std::string::npos) << usage;
  EXPECT_NE(usage.find("--graceful-shutdown-time duration"), std::string::npos) << usage;
  EXPECT_NE(usage.find("(default 30s)"), std::string::npos) << usage;
  EXPECT_NE(usage.find("--log-dir string"), std::string::npos) << usage;
  EXPECT_EQ(usage.find("worker-threads"), std::string::npos) << usage;
  // Help columns line up.
  const size_t a = usage.find("HTTPS port.") - usage.rfind('\n', usage.find("HTTPS port."));
  const size_t b = usage.find("API server URL.") - usage.rfind('\n', usage.find("API server URL."));
  EXPECT_EQ(a, b);
}

TEST_F(FlagSetTest, ValuesListsEveryFlagSortedWithItsText) {
  ASSERT_TRUE(parse({"--port=1"}).ok());
  const auto values = fs.values();
  ASSERT_FALSE(values.empty());
  EXPECT_TRUE(std::is_sorted(values.begin(), values.end()));
  EXPECT_NE(
      std::find(values.begin(), values.end(), std::pair<std::string, std::string>{"port", "1"}),
      values.end());
}

TEST(FlagSet, RegisteringANameTwiceIsAProgrammingError) {
  FlagSet fs("x");
  std::string a, b;
  fs.string_var("log_dir", &a, "");
  EXPECT_THROW(fs.string_var("log-dir", &b, ""), std::logic_error);
}

TEST(Csv, ReadsRecordsLikeGoEncodingCsv) {
  EXPECT_EQ(*read_csv_record(""), std::vector<std::string>{});
  EXPECT_EQ(*read_csv_record("a,b"), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(*read_csv_record("a,"), (std::vector<std::string>{"a", ""}));
  EXPECT_EQ(*read_csv_record(" a"), (std::vector<std::string>{" a"}));
  EXPECT_EQ(*read_csv_record("\"a,b\",\"c\"\"d\""), (std::vector<std::string>{"a,b", "c\"d"}));
  EXPECT_EQ(read_csv_record("a\"b").error(),
            "parse error on line 1, column 2: bare \" in non-quoted-field");
  EXPECT_EQ(read_csv_record("\"ab").error(),
            "parse error on line 1, column 4: extraneous or missing \" in quoted-field");
  EXPECT_FALSE(read_csv_record("\"a\"b").ok());
}

TEST(Csv, WritesFieldsQuotedOnlyWhenNeeded) {
  EXPECT_EQ(write_csv_record({"a", "b c", "d,e", "f\"g", " h", ""}),
            "a,b c,\"d,e\",\"f\"\"g\",\" h\",");
}

}  // namespace
}  // namespace vc::flags

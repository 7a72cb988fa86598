#include "common/flags/base_options.h"

#include <algorithm>

#include <gtest/gtest.h>

namespace vc::flags {
namespace {

struct TestOptions : BaseOptions {
  TestOptions() : BaseOptions(volcano_feature_gates()) {}
  int port = 1;
};

api::Expected<ParsedCommandLine<TestOptions>> parse(const std::vector<std::string>& args) {
  return parse_command_line<TestOptions>("test", args, [](FlagSet& fs, TestOptions& o) {
    add_base_flags(fs, o,
                   {.ca_cert_file = "CA.",
                    .version = "Version.",
                    .enable_healthz = "Healthz.",
                    .healthz_address = "Address.",
                    .feature_gates = "Gates."});
    fs.int_var("port", &o.port, "Port.");
  });
}

TEST(BaseOptions, SharedAndOwnFlagsParseIntoOneOptionsObject) {
  auto parsed =
      parse({"--kubeconfig=/k", "--kube-api-qps=2.5", "--enable-healthz", "--healthz-address=:9",
             "--feature-gates=PriorityClass=false", "--log-format=json", "-v=3", "--port=7", "2>&1",
             "--kube-api-content-type=application/vnd.kubernetes.protobuf"});
  ASSERT_TRUE(parsed.ok()) << parsed.error();
  const TestOptions& o = parsed->options;
  EXPECT_EQ(o.kubeconfig, "/k");
  EXPECT_EQ(o.kube_api_qps, 2.5);
  EXPECT_TRUE(o.enable_healthz);
  EXPECT_EQ(o.healthz_address, ":9");
  EXPECT_FALSE(o.feature_gates.enabled("PriorityClass"));
  EXPECT_EQ(o.log_format, "json");
  EXPECT_EQ(o.kube_api_content_type, "application/vnd.kubernetes.protobuf");
  EXPECT_EQ(o.klog.v, 3);
  EXPECT_EQ(o.port, 7);
  EXPECT_EQ(parsed->args, std::vector<std::string>{"2>&1"});
  EXPECT_NE(std::find(parsed->flag_lines.begin(), parsed->flag_lines.end(),
                      "FLAG: --healthz-address=\":9\""),
            parsed->flag_lines.end());
}

TEST(BaseOptions, EachBinaryKeepsItsOwnHelpText) {
  auto parsed = parse({"--help"});
  ASSERT_TRUE(parsed.ok()) << parsed.error();
  EXPECT_TRUE(parsed->help);
  for (const char* text : {"CA.", "Version.", "Healthz.", "Address.", "Gates.", "Port."}) {
    EXPECT_NE(parsed->usage.find(text), std::string::npos) << text;
  }
}

TEST(BaseOptions, ParseErrorsArePflagsAndSharedChecksAreExact) {
  EXPECT_EQ(parse({"--nope"}).error(), "unknown flag: --nope");
  TestOptions o;
  std::vector<std::string> errors;
  validate_base(o, errors);
  EXPECT_TRUE(errors.empty());
  o.kube_api_content_type = "application/vnd.kubernetes.protobuf";
  validate_base(o, errors);
  EXPECT_TRUE(errors.empty());
  o.log_format = "xml";
  o.kube_api_burst = -1;
  o.kube_api_content_type = "application/yaml";
  validate_base(o, errors);
  EXPECT_EQ(
      errors,
      (std::vector<std::string>{
          "invalid --log-format \"xml\": want \"text\" or \"json\"",
          "invalid --kube-api-burst: must not be negative",
          "invalid --kube-api-content-type \"application/yaml\": want \"application/json\" or "
          "\"application/vnd.kubernetes.protobuf\""}));
}

}  // namespace
}  // namespace vc::flags

#include "controllers/framework/gates.h"

#include <gtest/gtest.h>

namespace vc::controllers {
namespace {

struct GateCase {
  const char* name;
  std::vector<std::string> gates;
  const char* controller;
  bool enabled;
};

TEST(ControllerGates, DecisionTableMatchesVolcano) {
  const std::vector<GateCase> cases = {
      {"empty list enables everything", {}, "sharding-controller", true},
      {"star enables", {"*"}, "job-controller", true},
      {"default disables sharding", default_controller_gates(), "sharding-controller", false},
      {"default enables queue", default_controller_gates(), "queue-controller", true},
      {"bare name enables", {"job-controller"}, "job-controller", true},
      {"plus enables", {"+job-controller"}, "job-controller", true},
      {"minus disables", {"-job-controller"}, "job-controller", false},
      {"unnamed without star is off", {"job-controller"}, "queue-controller", false},
      {"unnamed with star is on", {"-job-controller", "*"}, "queue-controller", true},
      {"first decisive entry wins (minus first)",
       {"-job-controller", "+job-controller"},
       "job-controller",
       false},
      {"first decisive entry wins (plus first)",
       {"+job-controller", "-job-controller"},
       "job-controller",
       true},
      {"star then minus disables", {"*", "-job-controller"}, "job-controller", false},
      {"minus before star still disables", {"-job-controller", "*"}, "job-controller", false},
      {"one element with a comma matches nothing", {"*, -job-controller"}, "job-controller", false},
      {"leading space is kept, so it does not disable",
       {"*", " -job-controller"},
       "job-controller",
       true},
      {"case matters", {"*", "-hypernode-controller"}, "hyperNode-controller", true},
      {"double prefix is not a match", {"*", "--job-controller"}, "job-controller", true},
      {"prefix of another name does not match", {"-job"}, "job-controller", false},
      {"unknown names are harmless", {"*", "-nope"}, "gc-controller", true},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(controller_enabled(c.controller, c.gates), c.enabled) << c.name;
  }
}

TEST(ControllerGates, ValidationRejectsRepeatedBareNames) {
  struct Case {
    std::vector<std::string> gates;
    std::vector<std::string> errors;
  };
  const std::vector<Case> cases = {
      {{"*", "-sharding-controller"}, {}},
      {{}, {}},
      {{"*", "*"}, {}},
      {{"+x", "-x"}, {"controllers option -x cannot have both '-' and '+' prefixes"}},
      {{"+job-controller", "job-controller"},
       {"controllers option job-controller cannot have both '-' and '+' prefixes"}},
      {{"-a", "-a", "+a"},
       {"controllers option -a cannot have both '-' and '+' prefixes",
        "controllers option +a cannot have both '-' and '+' prefixes"}},
      {{"unknown-controller", "-other"}, {}},
      {{"-", "+"}, {"controllers option + cannot have both '-' and '+' prefixes"}},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(validate_controller_gates(c.gates), c.errors) << ::testing::PrintToString(c.gates);
  }
}

}  // namespace
}  // namespace vc::controllers

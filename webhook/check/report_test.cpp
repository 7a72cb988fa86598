#include "webhook/check/report.h"

#include <gtest/gtest.h>

namespace vc::webhook::check {
namespace {

TEST(Report, ObjectRefShowsKindNamespaceAndName) {
  const auto job = nlohmann::json::parse(R"({"kind":"Job","metadata":{"name":"train"}})");
  EXPECT_EQ(object_ref(job, "team-a"), "Job team-a/train");
  EXPECT_EQ(object_ref(job, ""), "Job train");
  const auto generated =
      nlohmann::json::parse(R"({"kind":"Job","metadata":{"generateName":"t-"}})");
  EXPECT_EQ(object_ref(generated, "ns"), "Job ns/t-*");
  EXPECT_EQ(object_ref(nlohmann::json::parse(R"({"kind":"Queue"})"), ""), "Queue <no name>");
}

TEST(Report, LinesHaveTheDocumentedShape) {
  EXPECT_EQ(result_line("a.yaml:2", "Job ns/j", "allowed"), "a.yaml:2: Job ns/j: allowed");
  EXPECT_EQ(result_line("a.yaml:2", "Job ns/j", "denied", "spec.tasks[0].name: bad"),
            "a.yaml:2: Job ns/j: denied: spec.tasks[0].name: bad");
  EXPECT_EQ(error_line("a.yaml:3", 7, 2, "oops"), "a.yaml:3: error: line 7, column 2: oops");
  EXPECT_EQ(error_line("a.yaml:3", 7, 0, "oops"), "a.yaml:3: error: line 7: oops");
  EXPECT_EQ(error_line("a.yaml", 0, 0, "cannot read"), "a.yaml: error: cannot read");
}

TEST(Report, SummaryCountsAndMentionsSkippedLookupsOnlyOffline) {
  Tally t{.allowed = 2, .denied = 1, .not_admitted = 1, .unreadable = 0, .lookups_skipped = 1};
  EXPECT_EQ(summary_line(t, true),
            "summary: 4 objects: 2 allowed, 1 denied, 1 not admitted; 0 unreadable; 1 cluster "
            "lookup skipped (no --kubeconfig)");
  EXPECT_EQ(summary_line(t, false),
            "summary: 4 objects: 2 allowed, 1 denied, 1 not admitted; 0 unreadable");
}

TEST(Report, ExitCodeIsTwoForReadErrorsThenOneForDenials) {
  EXPECT_EQ(exit_code(Tally{.allowed = 3}), 0);
  EXPECT_EQ(exit_code(Tally{.allowed = 1, .not_admitted = 2}), 0);
  EXPECT_EQ(exit_code(Tally{.allowed = 1, .denied = 1}), 1);
  EXPECT_EQ(exit_code(Tally{.denied = 1, .unreadable = 1}), 2);
}

}  // namespace
}  // namespace vc::webhook::check

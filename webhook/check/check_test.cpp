// `check` end to end through check_main: files in a temporary directory, the lines on stderr,
// the objects on stdout, and the exit code.
#include "webhook/check/check.h"

#include <cstdint>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/testing/temp_dir.h"
#include "webhook/check/check_test_util.h"
#include "webhook/check/manifest_reader.h"

namespace vc::webhook::check {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using testing::lines_of;
using ::testing::Not;
using testing::run_check_main;

const char* kJob = R"(apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata:
  name: train
spec:
  tasks:
  - name: worker
    replicas: 2
    template:
      spec:
        containers:
        - name: c
          image: busybox
)";

const char* kDuplicateTasks = R"(apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata:
  name: dup
spec:
  tasks:
  - name: worker
    replicas: 1
    template: {spec: {containers: [{name: c, image: busybox}]}}
  - name: worker
    replicas: 1
    template: {spec: {containers: [{name: c, image: busybox}]}}
)";

const char* kQueueWeightZero = R"(apiVersion: scheduling.volcano.sh/v1beta1
kind: Queue
metadata:
  name: research
spec:
  weight: 0
)";

class CheckTest : public ::testing::Test {
 protected:
  vc::testing::TempDir dir_;
};

TEST_F(CheckTest, ValidJobIsPrintedWithDefaultsAndExitsZero) {
  const std::string file = dir_.write("job.yaml", kJob);
  auto r = run_check_main({"-f", file});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(lines_of(r.err),
              Contains(file + ":1: Job default/train: skipped: queue default was not checked: "
                              "no cluster connection for lookups"));
  EXPECT_THAT(lines_of(r.err), Contains(file + ":1: Job default/train: allowed"));
  EXPECT_THAT(lines_of(r.err), Contains("summary: 1 object: 1 allowed, 0 denied, 0 not admitted; "
                                        "0 unreadable; 1 cluster lookup skipped (no "
                                        "--kubeconfig)"));
  EXPECT_THAT(r.out, HasSubstr("  queue: default\n"));
  EXPECT_THAT(r.out, HasSubstr("  schedulerName: volcano\n"));
  EXPECT_THAT(r.out, HasSubstr("  minAvailable: 2\n"));
  EXPECT_THAT(r.out, HasSubstr("  namespace: default\n"));
  EXPECT_THAT(r.out, Not(HasSubstr("---")));
}

TEST_F(CheckTest, DuplicatedTaskNamesAreDeniedWithTheExactMessageAndExitOne) {
  const std::string file = dir_.write("dup.yaml", kDuplicateTasks);
  auto r = run_check_main({"-f", file, "-n", "team-a"});
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_THAT(lines_of(r.err),
              Contains(file + ":1: Job team-a/dup: denied: duplicated task name worker;"));
  EXPECT_EQ(r.out, "");
}

TEST_F(CheckTest, QueueWithWeightZeroIsDefaultedToWeightOne) {
  const std::string file = dir_.write("queue.yaml", kQueueWeightZero);
  auto r = run_check_main({"-f", file});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(lines_of(r.err), Contains(file + ":1: Queue research: allowed"));
  EXPECT_THAT(r.out, HasSubstr("  weight: 1\n"));
  EXPECT_THAT(r.out, HasSubstr("  reclaimable: true\n"));
}

TEST_F(CheckTest, ADeniedDocumentInTheMiddleStillPrintsTheOtherTwo) {
  const std::string file = dir_.write(
      "three.yaml", std::string(kJob) + "---\n" + kDuplicateTasks + "---\n" + kQueueWeightZero);
  auto r = run_check_main({"-f", file});
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_THAT(lines_of(r.err), Contains(file + ":1: Job default/train: allowed"));
  EXPECT_THAT(lines_of(r.err),
              Contains(file + ":2: Job default/dup: denied: duplicated task name worker;"));
  EXPECT_THAT(lines_of(r.err), Contains(file + ":3: Queue research: allowed"));
  auto printed = read_manifests(r.out);
  ASSERT_EQ(printed.size(), 2u) << r.out;
  EXPECT_EQ(printed[0].object["metadata"]["name"], "train");
  EXPECT_EQ(printed[1].object["metadata"]["name"], "research");
}

TEST_F(CheckTest, AParseErrorNamesFileDocumentAndLineAndExitsTwo) {
  const std::string file =
      dir_.write("bad.yaml", std::string(kQueueWeightZero) + "---\nkind: Job\n  oops: [\n");
  auto r = run_check_main({"-f", file});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_THAT(lines_of(r.err), Contains(file + ":1: Queue research: allowed"));
  EXPECT_THAT(r.err, HasSubstr(file + ":2: error: line 9, column "));
  EXPECT_THAT(r.err, HasSubstr("0 denied, 0 not admitted; 1 unreadable"));
}

TEST_F(CheckTest, AMissingFileIsAnErrorButTheOtherFilesAreChecked) {
  const std::string good = dir_.write("queue.yaml", kQueueWeightZero);
  const std::string missing = (dir_.path() / "nope.yaml").string();
  auto r = run_check_main({"-f", missing, "-f", good});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(lines_of(r.err),
              Contains(missing + ": error: cannot read: No such file or directory"));
  EXPECT_THAT(lines_of(r.err), Contains(good + ":1: Queue research: allowed"));
}

TEST_F(CheckTest, DirectoriesContributeTheirManifestFilesInNameOrder) {
  dir_.write("m/b.json", R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm"}})");
  dir_.write("m/a.yaml", kQueueWeightZero);
  dir_.write("m/notes.txt", "not yaml: [");
  const std::string m = (dir_.path() / "m").string();
  auto r = run_check_main({"-f", m, "-o", "none"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(lines_of(r.err),
            (std::vector<std::string>{
                m + "/a.yaml:1: Queue research: skipped: the hierarchical queue resource checks: "
                    "no cluster access",
                m + "/a.yaml:1: Queue research: allowed",
                m + "/b.json:1: ConfigMap cm: not admitted by the Volcano webhook, skipped",
                "summary: 2 objects: 1 allowed, 0 denied, 1 not admitted; 0 unreadable; 1 cluster "
                "lookup skipped (no --kubeconfig)"}));
  EXPECT_EQ(r.out, "");
}

TEST_F(CheckTest, StandardInputIsReadForDash) {
  auto r = run_check_main({"-f", "-", "-o", "json"}, kQueueWeightZero);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(lines_of(r.err), Contains("stdin:1: Queue research: allowed"));
  auto printed = nlohmann::json::parse(r.out);
  EXPECT_EQ(printed["spec"]["weight"], 1);
}

TEST_F(CheckTest, OtherKindsAreReportedAndPassedThrough) {
  const std::string file = dir_.write("deploy.yaml",
                                      "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n"
                                      "  name: web\n  namespace: prod\n");
  auto r = run_check_main({"-f", file});
  EXPECT_EQ(r.code, 0);
  EXPECT_THAT(lines_of(r.err), Contains(file + ":1: Deployment prod/web: not admitted by the "
                                               "Volcano webhook, skipped"));
  EXPECT_EQ(r.out,
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n"
            "  namespace: prod\n");
}

TEST_F(CheckTest, AdmissionConfEnablesPodMutation) {
  const std::string conf = dir_.write("admission.conf",
                                      "resourceGroups:\n- resourceGroup: gpu\n"
                                      "  object: {key: namespace, value: [ml]}\n"
                                      "  labels: {pool: gpu}\n");
  const std::string pod = dir_.write("pod.yaml",
                                     "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
                                     "spec: {containers: [{name: c, image: busybox}]}\n");
  auto with = run_check_main({"-f", pod, "-n", "ml", "--admission-conf", conf, "-o", "json"});
  EXPECT_EQ(with.code, 0) << with.err;
  EXPECT_EQ(nlohmann::json::parse(with.out)["spec"]["nodeSelector"]["pool"], "gpu");
  auto without = run_check_main({"-f", pod, "-n", "ml", "-o", "json"});
  EXPECT_FALSE(nlohmann::json::parse(without.out)["spec"].contains("nodeSelector"));
}

TEST_F(CheckTest, FeatureGatesTurnOnTheQueueAllocationGate) {
  const std::string conf = dir_.write("admission.conf", "resourceGroups: []\n");
  const std::string pod =
      dir_.write("pod.yaml",
                 "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  annotations:\n"
                 "    scheduling.volcano.sh/queue-allocation-gate: \"true\"\n"
                 "spec: {containers: [{name: c, image: busybox}]}\n");
  // The webhook's value as it is: its other gates (Volcano's, Kubernetes') are accepted, and
  // repeated flags merge.
  auto on = run_check_main({"-f", pod, "--admission-conf", conf, "-o", "json", "--feature-gates",
                            "SchedulingGatesQueueAdmission=true,CSIStorage=false",
                            "--feature-gates", "InPlacePodVerticalScaling=true"});
  EXPECT_EQ(on.code, 0) << on.err;
  EXPECT_EQ(nlohmann::json::parse(on.out)["spec"]["schedulingGates"][0]["name"],
            "scheduling.volcano.sh/queue-allocation-gate");
  auto off = run_check_main({"-f", pod, "--admission-conf", conf, "-o", "json"});
  EXPECT_FALSE(nlohmann::json::parse(off.out)["spec"].contains("schedulingGates"));
  auto alpha = run_check_main(
      {"-f", pod, "--admission-conf", conf, "-o", "json", "--feature-gates", "AllAlpha=true"});
  EXPECT_TRUE(nlohmann::json::parse(alpha.out)["spec"].contains("schedulingGates")) << alpha.err;
}

TEST_F(CheckTest, BadFeatureGatesAreUsageErrorsWithTheWebhooksMessages) {
  const std::string pod =
      dir_.write("pod.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n");
  auto bad = run_check_main({"-f", pod, "--feature-gates", "PodLevelResources=maybe"});
  EXPECT_EQ(bad.code, 2);
  EXPECT_THAT(bad.err, HasSubstr("error: --feature-gates: invalid value of "
                                 "PodLevelResources=maybe, err: strconv.ParseBool: parsing "
                                 "\"maybe\": invalid syntax\n"));
  auto unknown = run_check_main({"-f", pod, "--feature-gates", "Other=false"});
  EXPECT_EQ(unknown.code, 2);
  EXPECT_THAT(unknown.err, HasSubstr("error: --feature-gates: unrecognized feature gate: Other\n"));
  auto bare = run_check_main({"-f", pod, "--feature-gates", "PodLevelResources"});
  EXPECT_EQ(bare.code, 2);
  EXPECT_THAT(bare.err,
              HasSubstr("error: --feature-gates: missing bool value for PodLevelResources\n"));
}

TEST_F(CheckTest, UnreadableAdmissionConfIsAUsageError) {
  const std::string pod =
      dir_.write("pod.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n");
  auto r = run_check_main({"-f", pod, "--admission-conf", (dir_.path() / "none").string()});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("error: --admission-conf: cannot read "));
}

TEST_F(CheckTest, SchedulerNameFlagChangesTheJobDefault) {
  const std::string file = dir_.write("job.yaml", kJob);
  auto r = run_check_main({"-f", file, "--scheduler-name", "custom,volcano", "-o", "json"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["spec"]["schedulerName"], "custom");
}

TEST_F(CheckTest, UsageErrorsExitTwoAndHelpExitsZero) {
  EXPECT_EQ(run_check_main({}).code, 2);
  EXPECT_EQ(run_check_main({"-f", "x", "--bogus"}).code, 2);
  EXPECT_EQ(run_check_main({"-f", "x", "-o", "xml"}).code, 2);
  auto help = run_check_main({"--help"});
  EXPECT_EQ(help.code, 0);
  EXPECT_THAT(help.out, HasSubstr("--filename"));
  EXPECT_THAT(help.out, HasSubstr("--kubeconfig"));
}

TEST_F(CheckTest, DamagedManifestsNeverCrashTheRun) {
  const std::string base = std::string(kJob) + "---\n" + kDuplicateTasks + "---\n" +
                           kQueueWeightZero +
                           "---\napiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\n"
                           "metadata: {name: pg}\nspec: {queue: q, minMember: 2}\n";
  const std::string alphabet = "{}[]:,-&*!|>'\"#\n 0123456789xyz~";
  std::uint32_t seed = 7;
  auto next = [&seed] {
    seed = seed * 1664525u + 1013904223u;
    return seed >> 8;
  };
  for (int round = 0; round < 300; ++round) {
    std::string text = base;
    for (int e = 0; e < 3; ++e) {
      const std::size_t at = next() % text.size();
      if (next() % 2 == 0) {
        text[at] = alphabet[next() % alphabet.size()];
      } else {
        text.erase(at, 1 + next() % 4);
      }
    }
    auto r = run_check_main({"-f", "-"}, text);
    ASSERT_GE(r.code, 0) << text;
    ASSERT_LE(r.code, 2) << text;
    ASSERT_FALSE(lines_of(r.err).empty()) << text;
    EXPECT_TRUE(lines_of(r.err).back().starts_with("summary: ")) << r.err;
  }
}

TEST_F(CheckTest, EmptyInputChecksNothingAndSucceeds) {
  const std::string file = dir_.write("empty.yaml", "# nothing here\n---\n");
  auto r = run_check_main({"-f", file});
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(lines_of(r.err),
            (std::vector<std::string>{"summary: 0 objects: 0 allowed, 0 denied, 0 not admitted; "
                                      "0 unreadable"}));
}

}  // namespace
}  // namespace vc::webhook::check

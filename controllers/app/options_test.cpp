#include "controllers/app/options.h"

#include <gtest/gtest.h>

namespace vc::controllers::app {
namespace {

using namespace std::chrono_literals;

ParsedCommandLine parse(const std::vector<std::string>& args) {
  auto parsed = parse_command_line(args);
  EXPECT_TRUE(parsed) << (parsed ? "" : parsed.error());
  return parsed ? std::move(*parsed) : ParsedCommandLine{};
}

TEST(ControllerManagerOptions, DefaultsMatchVolcano) {
  const ControllerManagerOptions o = parse({}).options;
  EXPECT_EQ(o.master, "");
  EXPECT_EQ(o.kubeconfig, "");
  EXPECT_EQ(o.kube_api_qps, 50);
  EXPECT_EQ(o.kube_api_burst, 100);
  EXPECT_EQ(o.kube_api_content_type, "application/json");
  EXPECT_EQ(o.healthz_address, ":11251");
  EXPECT_FALSE(o.enable_healthz);
  EXPECT_FALSE(o.enable_metrics);
  EXPECT_EQ(o.listen_address, ":8081");
  EXPECT_EQ(o.controllers, (std::vector<std::string>{"*", "-sharding-controller"}));
  EXPECT_EQ(o.controller.scheduler_names, std::vector<std::string>{"volcano"});
  EXPECT_EQ(o.controller.worker_threads, 3u);
  EXPECT_EQ(o.controller.worker_threads_for_cronjob, 3u);
  EXPECT_EQ(o.controller.worker_threads_for_podgroup, 5u);
  EXPECT_EQ(o.controller.job_verdict_period, 30s);  // ours
  EXPECT_EQ(o.controller.job_verdicts_per_period, 20u);
  EXPECT_EQ(o.controller.transient_retry_max_delay, 30s);  // ours
  EXPECT_EQ(o.controller.worker_threads_for_queue, 5u);
  EXPECT_EQ(o.controller.worker_threads_for_gc, 1u);
  EXPECT_EQ(o.controller.max_requeue_num, 15);
  EXPECT_TRUE(o.controller.inherit_owner_annotations);
  EXPECT_TRUE(o.controller.workload_support);
  EXPECT_TRUE(o.controller.queue_command_sync);
  EXPECT_TRUE(o.controller.cron_volcano_job_support);
  EXPECT_TRUE(o.leader_election.leader_elect);
  EXPECT_EQ(o.leader_election.lease_duration, 15s);
  EXPECT_EQ(o.leader_election.renew_deadline, 10s);
  EXPECT_EQ(o.leader_election.retry_period, 2s);
  EXPECT_EQ(o.leader_election.resource_lock, "leases");
  EXPECT_EQ(o.leader_election.resource_name, "vc-controller-manager");
  EXPECT_EQ(o.lease_namespace(), "volcano-system");
  EXPECT_EQ(o.sharding.shard_sync_period, 1min);
  EXPECT_EQ(o.sharding.sharding_configmap, "volcano-sharding-configmap");
  EXPECT_EQ(o.klog.log_flush_frequency, 5s);
  EXPECT_TRUE(validate(o).empty());
}

TEST(ControllerManagerOptions, ParsesEveryVolcanoFlag) {
  const auto parsed = parse({
      "--master=https://m:6443",
      "--kubeconfig=/k",
      "--ca-cert-file=/ca",
      "--tls-cert-file=/c",
      "--tls-private-key-file=/key",
      "--kube-api-qps=7.5",
      "--kube-api-burst=9",
      "--worker-threads=4",
      "--worker-threads-for-cronjob=6",
      "--scheduler-name=a,b",
      "--scheduler-name=c",
      "--max-requeue-num=2",
      "--healthz-address=:1",
      "--enable-healthz",
      "--enable-metrics=true",
      "--listen-address=:2",
      "--inherit-owner-annotations=false",
      "--worker-threads-for-podgroup=8",
      "--worker-threads-for-gc=9",
      "--worker-threads-for-queue=10",
      "--controllers=-gc-controller",
      "--controllers=*",
      "--feature-gates=WorkLoadSupport=false,QueueCommandSync=false",
      "--log-flush-frequency=1s",
      "-v=4",
      "2>&1",
  });
  const ControllerManagerOptions& o = parsed.options;
  EXPECT_EQ(o.master, "https://m:6443");
  EXPECT_EQ(o.kubeconfig, "/k");
  EXPECT_EQ(o.ca_cert_file, "/ca");
  EXPECT_EQ(o.tls_cert_file, "/c");
  EXPECT_EQ(o.tls_private_key_file, "/key");
  EXPECT_EQ(o.kube_api_qps, 7.5);
  EXPECT_EQ(o.kube_api_burst, 9);
  EXPECT_EQ(o.controller.worker_threads, 4u);
  EXPECT_EQ(o.controller.worker_threads_for_cronjob, 6u);
  EXPECT_EQ(o.controller.scheduler_names, (std::vector<std::string>{"a,b", "c"}));
  EXPECT_EQ(o.controller.max_requeue_num, 2);
  EXPECT_EQ(o.healthz_address, ":1");
  EXPECT_TRUE(o.enable_healthz);
  EXPECT_TRUE(o.enable_metrics);
  EXPECT_EQ(o.listen_address, ":2");
  EXPECT_FALSE(o.controller.inherit_owner_annotations);
  EXPECT_EQ(o.controller.worker_threads_for_podgroup, 8u);
  EXPECT_EQ(o.controller.worker_threads_for_gc, 9u);
  EXPECT_EQ(o.controller.worker_threads_for_queue, 10u);
  EXPECT_EQ(o.controllers, (std::vector<std::string>{"-gc-controller", "*"}))
      << "the first --controllers replaces the default, later ones append";
  EXPECT_FALSE(o.controller.workload_support);
  EXPECT_FALSE(o.controller.queue_command_sync);
  EXPECT_TRUE(o.controller.priority_class);
  EXPECT_EQ(o.klog.log_flush_frequency, 1s);
  EXPECT_EQ(o.klog.v, 4);
  EXPECT_EQ(parsed.args, std::vector<std::string>{"2>&1"});
}

TEST(ControllerManagerOptions, ShardingAndLeaderElectionFlagsAreAccepted) {
  const auto parsed = parse({
      "--scheduler-configs=x:y:0:1:false:1:2",
      "--shard-sync-period=30s",
      "--enable-node-event-trigger=false",
      "--sharding-configmap=cm",
      "--sharding-configmap-namespace=ns",
      "--leader-elect=false",
      "--leader-elect-lease-duration=30s",
      "--leader-elect-renew-deadline=20s",
      "--leader-elect-retry-period=3s",
      "--leader-elect-resource-lock=leases",
      "--leader-elect-resource-name=other",
      "--leader-elect_resource_namespace=kube-system",
  });
  const ControllerManagerOptions& o = parsed.options;
  EXPECT_EQ(o.sharding.scheduler_configs, std::vector<std::string>{"x:y:0:1:false:1:2"});
  EXPECT_EQ(o.sharding.shard_sync_period, 30s);
  EXPECT_FALSE(o.sharding.enable_node_event_trigger);
  EXPECT_EQ(o.sharding.sharding_configmap, "cm");
  EXPECT_EQ(o.sharding.sharding_configmap_namespace, "ns");
  EXPECT_FALSE(o.leader_election.leader_elect);
  EXPECT_EQ(o.leader_election.lease_duration, 30s);
  EXPECT_EQ(o.leader_election.renew_deadline, 20s);
  EXPECT_EQ(o.leader_election.retry_period, 3s);
  EXPECT_EQ(o.leader_election.resource_name, "other");
  EXPECT_EQ(o.lease_namespace(), "kube-system");
}

TEST(ControllerManagerOptions, DeprecatedLockObjectNamespaceOverridesAndWarns) {
  const auto parsed = parse({"--leader-elect-resource-namespace=a", "--lock-object-namespace=b"});
  EXPECT_EQ(parsed.options.lease_namespace(), "b");
  ASSERT_EQ(parsed.warnings.size(), 1u);
  EXPECT_NE(parsed.warnings[0].find("Please use --leader-elect-resource-namespace instead."),
            std::string::npos)
      << parsed.warnings[0];
}

TEST(ControllerManagerOptions, NegativeMaxRequeueIsStoredAsUnlimited) {
  EXPECT_EQ(parse({"--max-requeue-num=-7"}).options.controller.max_requeue_num, -1);
  EXPECT_EQ(parse({"--max-requeue-num=0"}).options.controller.max_requeue_num, 0);
}

TEST(ControllerManagerOptions, EmptyControllersFlagIsAnEmptyList) {
  EXPECT_TRUE(parse({"--controllers="}).options.controllers.empty());
  EXPECT_EQ(parse({"--controllers=*, -job-controller"}).options.controllers,
            (std::vector<std::string>{"*", " -job-controller"}));
}

TEST(ControllerManagerOptions, FlagErrorsUsePflagText) {
  auto unknown = parse_command_line({"--nope"});
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error(), "unknown flag: --nope");
  auto bad = parse_command_line({"--worker-threads=-1"});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().find("invalid argument \"-1\" for \"--worker-threads\" flag"),
            std::string::npos)
      << bad.error();
  auto gate = parse_command_line({"--feature-gates=Nope=true"});
  ASSERT_FALSE(gate);
  EXPECT_NE(gate.error().find("unrecognized feature gate: Nope"), std::string::npos);
}

TEST(ControllerManagerOptions, HelpListsTheKnownControllers) {
  const auto parsed = parse({"--help"});
  EXPECT_TRUE(parsed.help);
  EXPECT_NE(parsed.usage.find("all knownController: [colocation-config-controller "
                              "cronjob-controller gc-controller hyperNode-controller "
                              "job-controller jobflow-controller jobtemplate-controller "
                              "pg-controller queue-controller sharding-controller] ,and we can "
                              "use '-' to disable controllers"),
            std::string::npos)
      << parsed.usage;
}

TEST(ControllerManagerOptions, ValidationMessagesAreExact) {
  struct Case {
    std::vector<std::string> args;
    std::vector<std::string> errors;
  };
  const std::vector<Case> cases = {
      {{"--controllers=+job-controller,job-controller"},
       {"controllers option job-controller cannot have both '-' and '+' prefixes"}},
      {{"--leader-elect-lease-duration=0s"},
       {"leaderElection.leaseDuration: Invalid value: \"0s\": must be greater than zero",
        "leaderElection.leaseDuration: Invalid value: \"10s\": LeaseDuration must be greater "
        "than RenewDeadline"}},
      {{"--leader-elect-renew-deadline=0s"},
       {"leaderElection.renewDeadline: Invalid value: \"0s\": must be greater than zero",
        "leaderElection.renewDeadline: Invalid value: \"0s\": renewDeadline must be greater than "
        "retryPeriod*JitterFactor"}},
      {{"--leader-elect-retry-period=0s"},
       {"leaderElection.retryPeriod: Invalid value: \"0s\": must be greater than zero"}},
      {{"--leader-elect-retry-period=9s"},
       {"leaderElection.renewDeadline: Invalid value: \"10s\": renewDeadline must be greater "
        "than retryPeriod*JitterFactor"}},
      {{"--leader-elect-resource-lock="},
       {"leaderElection.resourceLock: Invalid value: \"\": resourceLock is required"}},
      {{"--leader-elect-resource-lock=endpoints"}, {"Invalid lock-type endpoints"}},
      {{"--leader-elect-resource-name="},
       {"leaderElection.resourceName: Invalid value: \"\": resourceName is required"}},
      {{"--leader-elect-resource-namespace="},
       {"leaderElection.resourceNamespace: Invalid value: \"\": resourceNamespace is required"}},
      {{"--leader-elect=false", "--leader-elect-lease-duration=0s",
        "--leader-elect-resource-name="},
       {}},
      {{"--log-format=xml"}, {"invalid --log-format \"xml\": want \"text\" or \"json\""}},
      {{"--job-verdict-period=-1s"}, {"--job-verdict-period must be 0 (off) or positive, got -1s"}},
      {{"--job-verdict-period=0"}, {}},
      {{"--transient-retry-max-delay=0"}, {"--transient-retry-max-delay must be positive, got 0s"}},
      {{"--transient-retry-max-delay=2m"}, {}},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(validate(parse(c.args).options), c.errors) << ::testing::PrintToString(c.args);
  }
}

TEST(ControllerManagerOptions, AggregateFormatsLikeApimachinery) {
  EXPECT_EQ(aggregate({"a"}), "a");
  EXPECT_EQ(aggregate({"a", "b", "a"}), "[a, b]");
}

TEST(ControllerManagerOptions, FlagLinesAreQuoted) {
  const auto parsed = parse({"--controllers=*"});
  ASSERT_FALSE(parsed.flag_lines.empty());
  EXPECT_NE(std::find(parsed.flag_lines.begin(), parsed.flag_lines.end(),
                      "FLAG: --leader-elect-resource-name=\"vc-controller-manager\""),
            parsed.flag_lines.end());
}

TEST(ControllerManagerOptions, ProgressAndStepDownFlags) {
  const ControllerManagerOptions d = parse({}).options;
  EXPECT_EQ(d.worker_stuck_timeout, std::chrono::minutes(10));
  EXPECT_EQ(d.leader_election.step_down_timeout, std::chrono::seconds(30));
  ControllerManagerOptions o =
      parse({"--worker-stuck-timeout=0", "--leader-elect-step-down-timeout=1m"}).options;
  EXPECT_EQ(o.worker_stuck_timeout, std::chrono::nanoseconds::zero());
  EXPECT_EQ(o.leader_election.step_down_timeout, std::chrono::minutes(1));
  EXPECT_TRUE(validate(o).empty());
  o.worker_stuck_timeout = std::chrono::seconds(-1);
  o.leader_election.step_down_timeout = std::chrono::seconds(-1);
  EXPECT_EQ(validate(o), (std::vector<std::string>{
                             "--leader-elect-step-down-timeout must not be negative",
                             "--worker-stuck-timeout must not be negative"}));
}

}  // namespace
}  // namespace vc::controllers::app

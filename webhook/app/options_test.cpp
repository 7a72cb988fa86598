#include "webhook/app/options.h"

#include <algorithm>

#include <gtest/gtest.h>

namespace vc::webhook::app {
namespace {

using namespace std::chrono_literals;

WebhookOptions parse_ok(const std::vector<std::string>& args) {
  auto parsed = parse_command_line(args);
  EXPECT_TRUE(parsed.ok()) << parsed.error();
  return parsed ? parsed->options : WebhookOptions{};
}

TEST(Options, DefaultsMatchVolcano) {
  const WebhookOptions o = parse_ok({});
  EXPECT_EQ(o.master, "");
  EXPECT_EQ(o.kubeconfig, "");
  EXPECT_EQ(o.kube_api_qps, 50);
  EXPECT_EQ(o.kube_api_burst, 100);
  EXPECT_EQ(o.port, 8443);
  EXPECT_EQ(o.busy_poll, 100us);  // ours
  EXPECT_EQ(o.listen_address, "");
  EXPECT_EQ(o.enabled_admission,
            "/jobs/mutate,/jobs/validate,/podgroups/mutate,/pods/validate,/pods/mutate,"
            "/queues/mutate,/queues/validate");
  EXPECT_EQ(o.scheduler_names, std::vector<std::string>{"volcano"});
  EXPECT_FALSE(o.enable_healthz);
  EXPECT_EQ(o.healthz_address, ":11251");
  EXPECT_EQ(o.graceful_shutdown_time, 30s);
  EXPECT_FALSE(o.enable_queue_allocated_pods_check);
  EXPECT_EQ(o.max_queue_depth, 5);
  EXPECT_TRUE(o.enable_root_queue_protection);
  EXPECT_FALSE(o.feature_gates.enabled(kSchedulingGatesQueueAdmission));
  EXPECT_TRUE(o.feature_gates.enabled(kPodLevelResources));
  EXPECT_EQ(o.klog.v, 0);
  EXPECT_TRUE(o.klog.logtostderr);
  EXPECT_EQ(o.log_format, "text");
  EXPECT_EQ(o.webhook_threads, 0);
}

TEST(Options, AcceptsTheHelmDeploymentCommandLineVerbatim) {
  auto parsed = parse_command_line(
      {"--enabled-admission=/jobs/mutate,/jobs/validate,/podgroups/validate,/queues/mutate,"
       "/queues/validate,/hypernodes/validate,/cronjobs/validate",
       "--tls-cert-file=/admission.local.config/certificates/tls.crt",
       "--tls-private-key-file=/admission.local.config/certificates/tls.key",
       "--ca-cert-file=/admission.local.config/certificates/ca.crt",
       "--admission-conf=/admission.local.config/configmap/volcano-admission.conf",
       "--webhook-namespace=volcano-system", "--webhook-service-name=volcano-admission-service",
       "--scheduler-name=volcano", "--scheduler-name=kube-batch",
       "--feature-gates=SchedulingGatesQueueAdmission=true", "--enable-healthz=true",
       "--logtostderr", "--port=8443", "-v=4", "2>&1"});
  ASSERT_TRUE(parsed.ok()) << parsed.error();
  const WebhookOptions& o = parsed->options;
  EXPECT_EQ(parsed->args, std::vector<std::string>{"2>&1"});
  EXPECT_EQ(o.tls_cert_file, "/admission.local.config/certificates/tls.crt");
  EXPECT_EQ(o.webhook_namespace, "volcano-system");
  EXPECT_EQ(o.scheduler_names, (std::vector<std::string>{"volcano", "kube-batch"}));
  EXPECT_TRUE(o.feature_gates.enabled(kSchedulingGatesQueueAdmission));
  EXPECT_TRUE(o.enable_healthz);
  EXPECT_EQ(o.klog.v, 4);
  EXPECT_TRUE(validate(o).empty());
}

TEST(Options, KlogAndOurOwnFlagsParse) {
  const WebhookOptions o =
      parse_ok({"--v=2", "--vmodule=x=1", "--log_dir=/tmp", "--log-file=/tmp/f",
                "--stderrthreshold=ERROR", "--alsologtostderr", "--log-flush-frequency=10s",
                "--log-format=json", "--webhook-threads=4", "--graceful-shutdown-time=2s",
                "--kube-api-qps=12.5", "--kube-api-burst=7", "--busy-poll=120us"});
  EXPECT_EQ(o.klog.v, 2);
  EXPECT_EQ(o.klog.log_dir, "/tmp");
  EXPECT_EQ(o.klog.log_flush_frequency, 10s);
  EXPECT_EQ(o.log_format, "json");
  EXPECT_EQ(o.webhook_threads, 4);
  EXPECT_EQ(o.graceful_shutdown_time, 2s);
  EXPECT_EQ(o.kube_api_qps, 12.5);
  EXPECT_EQ(o.kube_api_burst, 7);
  EXPECT_EQ(o.busy_poll, 120us);
}

TEST(Options, FlagErrorsUsePflagTexts) {
  EXPECT_EQ(parse_command_line({"--nope"}).error(), "unknown flag: --nope");
  EXPECT_EQ(parse_command_line({"--port=abc"}).error(),
            "invalid argument \"abc\" for \"--port\" flag: strconv.ParseInt: parsing \"abc\": "
            "invalid syntax");
  EXPECT_EQ(parse_command_line({"--feature-gates=Bogus=true"}).error(),
            "invalid argument \"Bogus=true\" for \"--feature-gates\" flag: unrecognized feature "
            "gate: Bogus");
}

TEST(Options, KubernetesFeatureGatesAreAccepted) {
  const WebhookOptions o =
      parse_ok({"--feature-gates=PodLevelResources=false,WatchListClient=true"});
  EXPECT_FALSE(o.feature_gates.enabled(kPodLevelResources));
  EXPECT_TRUE(o.feature_gates.explicitly_set(kPodLevelResources));
}

TEST(Options, VersionAndHelpAreReported) {
  EXPECT_TRUE(parse_ok({"--version"}).version);
  auto help = parse_command_line({"--help"});
  ASSERT_TRUE(help.ok());
  EXPECT_TRUE(help->help);
  for (const char* flag : {"--master",
                           "--kubeconfig",
                           "--kube-api-qps",
                           "--kube-api-burst",
                           "--tls-cert-file",
                           "--tls-private-key-file",
                           "--ca-cert-file",
                           "--listen-address",
                           "--port",
                           "--version",
                           "--webhook-namespace",
                           "--webhook-service-name",
                           "--webhook-url",
                           "--enabled-admission",
                           "--scheduler-name",
                           "--admission-conf",
                           "--enable-healthz",
                           "--healthz-address",
                           "--graceful-shutdown-time",
                           "--enable-queue-allocated-pods-check",
                           "--max-queue-depth",
                           "--enable-root-queue-protection",
                           "--feature-gates",
                           "--log-flush-frequency",
                           "-v, --v",
                           "--vmodule",
                           "--logtostderr",
                           "--log-dir",
                           "--log-file",
                           "--stderrthreshold",
                           "--alsologtostderr",
                           "--log-format",
                           "--webhook-threads",
                           "--busy-poll",
                           "--live-lookup-timeout",
                           "--live-lookup-concurrency",
                           "--live-lookup-negative-ttl",
                           "--live-lookup-negative-cache-size"}) {
    EXPECT_NE(help->usage.find(std::string(flag) + " "), std::string::npos) << flag;
  }
  EXPECT_NE(help->usage.find("(default \":11251\")"), std::string::npos);
  EXPECT_NE(help->usage.find("(default 30s)"), std::string::npos);
}

TEST(Options, FlagLinesListEveryFlagAsVolcanoLogsThem) {
  auto parsed = parse_command_line({"--port=9443", "--scheduler-name=a"});
  ASSERT_TRUE(parsed.ok());
  const auto& lines = parsed->flag_lines;
  // Sorted by flag name, as pflag visits them.
  const auto pos = [&](const std::string& prefix) {
    return std::find_if(lines.begin(), lines.end(),
                        [&](const std::string& l) { return l.starts_with(prefix); }) -
           lines.begin();
  };
  EXPECT_LT(pos("FLAG: --admission-conf="), pos("FLAG: --ca-cert-file="));
  EXPECT_LT(pos("FLAG: --log-file="), pos("FLAG: --log-file-max-size="));
  auto has = [&](const std::string& l) {
    return std::find(lines.begin(), lines.end(), l) != lines.end();
  };
  EXPECT_TRUE(has("FLAG: --port=\"9443\""));
  EXPECT_TRUE(has("FLAG: --scheduler-name=\"[a]\""));
  EXPECT_TRUE(has("FLAG: --kube-api-qps=\"50\""));
  EXPECT_TRUE(has("FLAG: --graceful-shutdown-time=\"30s\""));
  EXPECT_TRUE(has("FLAG: --log-dir=\"\""));
  EXPECT_TRUE(has("FLAG: --v=\"0\""));
}

TEST(Options, PortOutsideTheRangeIsVolcanosFatalMessage) {
  WebhookOptions o;
  EXPECT_EQ(check_port(o).error(), "");
  for (int port : {0, -1, 65536}) {
    o.port = port;
    EXPECT_EQ(check_port(o).error(),
              "Configured port is invalid: the port should be in the range of 1 and 65535");
  }
  o.port = 65535;
  EXPECT_EQ(check_port(o).error(), "");
}

TEST(Options, AllThreeWebhookFlagsEmptyIsAnError) {
  WebhookOptions o;
  EXPECT_EQ(validate(o), std::vector<std::string>{
                             "failed to start webhooks as both 'url' and 'namespace/name' of "
                             "webhook are empty"});
  o.webhook_url = "https://x";
  EXPECT_TRUE(validate(o).empty());
  o.webhook_url.clear();
  o.webhook_service_name = "svc";  // any one of the three is enough, as in Volcano
  EXPECT_TRUE(validate(o).empty());
}

TEST(Options, UnknownEnabledAdmissionPathIsNamed) {
  WebhookOptions o;
  o.webhook_url = "https://x";
  o.enabled_admission = "/jobs/mutate, /jobs/explode ,/pods/validate";
  EXPECT_EQ(validate(o),
            std::vector<std::string>{"enabled admission /jobs/explode not found on the admission "
                                     "registered map"});
}

TEST(Options, OurFlagsAreValidated) {
  WebhookOptions o;
  o.webhook_url = "https://x";
  o.log_format = "xml";
  o.webhook_threads = -1;
  o.busy_poll = 11ms;
  auto errors = validate(o);
  ASSERT_EQ(errors.size(), 3u);
  EXPECT_EQ(errors[0], "invalid --log-format \"xml\": want \"text\" or \"json\"");
  EXPECT_NE(errors[1].find("--webhook-threads"), std::string::npos);
  EXPECT_EQ(errors[2], "invalid --busy-poll: must be between 0 and 10ms");
  o.busy_poll = -1us;
  errors = validate(o);
  ASSERT_EQ(errors.size(), 3u);
  EXPECT_EQ(errors[2], "invalid --busy-poll: must be between 0 and 10ms");
  o.busy_poll = 0s;  // disabled
  EXPECT_EQ(validate(o).size(), 2u);
}

TEST(Options, LiveLookupFlagsParseAndAreBounded) {
  WebhookOptions o = parse_ok({"--live-lookup-timeout=1500ms", "--live-lookup-concurrency=3",
                               "--live-lookup-negative-ttl=0", "--webhook-url=https://x",
                               "--live-lookup-negative-cache-size=5"});
  EXPECT_EQ(o.live_lookup_timeout, 1500ms);
  EXPECT_EQ(o.live_lookup_concurrency, 3);
  EXPECT_EQ(o.live_lookup_negative_ttl, 0s);
  EXPECT_EQ(o.live_lookup_negative_cache_size, 5);
  EXPECT_TRUE(validate(o).empty());
  EXPECT_EQ(WebhookOptions().live_lookup_timeout, 2s);
  EXPECT_EQ(WebhookOptions().live_lookup_concurrency, -1);
  o.live_lookup_timeout = 10s;  // the API server's default webhook timeout would have passed
  o.live_lookup_concurrency = -2;
  o.live_lookup_negative_ttl = -1s;
  o.live_lookup_negative_cache_size = -1;
  const auto errors = validate(o);
  ASSERT_EQ(errors.size(), 4u);
  EXPECT_EQ(errors[0], "invalid --live-lookup-timeout: must be more than 0 and less than 10s");
  EXPECT_NE(errors[1].find("--live-lookup-concurrency -2"), std::string::npos) << errors[1];
  EXPECT_NE(errors[2].find("--live-lookup-negative-ttl"), std::string::npos) << errors[2];
  EXPECT_NE(errors[3].find("--live-lookup-negative-cache-size"), std::string::npos) << errors[3];
  o.live_lookup_timeout = 0s;
  EXPECT_EQ(validate(o).front(),
            "invalid --live-lookup-timeout: must be more than 0 and less than 10s");
}

TEST(Options, ResourceBudgetFlagsParseAndAreChecked) {
  WebhookOptions o = parse_ok({"--webhook-url=https://x", "--max-inflight-bytes=134217728",
                               "--max-connections-per-peer=8", "--max-review-values=1000"});
  EXPECT_EQ(o.max_inflight_bytes, 134217728);
  EXPECT_EQ(o.max_connections_per_peer, 8);
  EXPECT_EQ(o.max_review_values, 1000);
  EXPECT_TRUE(validate(o).empty());
  EXPECT_EQ(WebhookOptions{}.max_inflight_bytes, 96 << 20);
  // Too small to serve one 3 MiB review with its decoded tree: named, with the least that works.
  o.max_inflight_bytes = 32 << 20;
  o.max_review_values = 250'000;
  auto errors = validate(o);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("invalid --max-inflight-bytes 33554432: one review of the largest "
                           "size"),
            std::string::npos)
      << errors[0];
  o.max_inflight_bytes = 0;  // no budget
  EXPECT_TRUE(validate(o).empty());
  o.max_connections_per_peer = -1;
  o.max_review_values = 0;
  errors = validate(o);
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_NE(errors[0].find("--max-connections-per-peer"), std::string::npos);
  EXPECT_NE(errors[1].find("--max-review-values"), std::string::npos);
}

TEST(EnabledPaths, TrimsSplitsAndSkipsEmptyEntries) {
  EXPECT_TRUE(enabled_paths("").empty());
  EXPECT_TRUE(enabled_paths("  ").empty());
  EXPECT_EQ(enabled_paths(" /a , ,/b,"), (std::vector<std::string>{"/a", "/b"}));
}

TEST(Options, RotationAndProbeFlagsParseAndAreChecked) {
  const WebhookOptions d = parse_ok({});
  EXPECT_EQ(d.ca_cert_poll_interval, std::chrono::seconds(1));
  EXPECT_EQ(d.ca_bundle_settle, std::chrono::seconds(2));
  EXPECT_EQ(d.ca_bundle_keep_previous, 1);
  EXPECT_EQ(d.self_probe_interval, std::chrono::seconds(1));
  EXPECT_EQ(d.self_probe_timeout, std::chrono::seconds(1));
  EXPECT_EQ(d.admission_stall_timeout, std::chrono::seconds(20));
  WebhookOptions o = parse_ok({"--webhook-url=https://x", "--ca-cert-poll-interval=5s",
                               "--ca-bundle-keep-previous=0", "--admission-stall-timeout=1m"});
  EXPECT_EQ(o.ca_cert_poll_interval, std::chrono::seconds(5));
  EXPECT_EQ(o.ca_bundle_keep_previous, 0);
  EXPECT_EQ(o.admission_stall_timeout, std::chrono::minutes(1));
  EXPECT_TRUE(validate(o).empty());
  o.ca_bundle_keep_previous = -1;
  o.self_probe_timeout = std::chrono::seconds(0);
  EXPECT_EQ(validate(o),
            (std::vector<std::string>{"invalid --self-probe-timeout: must be positive",
                                      "invalid --ca-bundle-keep-previous: must be 0 or more"}));
  o = parse_ok({"--webhook-url=https://x", "--admission-stall-timeout=2s"});
  EXPECT_EQ(validate(o),
            (std::vector<std::string>{"invalid --admission-stall-timeout: must be longer than "
                                      "--self-probe-interval plus --self-probe-timeout"}));
}

}  // namespace
}  // namespace vc::webhook::app

// The process after flag parsing, end to end against a fake API server: caBundle, cache sync,
// HTTPS reviews, health endpoints and shutdown.

#include "webhook/app/run.h"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <future>
#include <thread>

#include <gtest/gtest.h>

#include "common/flags/version.h"
#include "common/kube/transport.h"
#include "common/testing/pki.h"
#include "common/testing/temp_dir.h"
#include "webhook/app/app_test_util.h"
#include "webhook/server/review_codec.h"

namespace vc::webhook::app {
namespace {

using namespace std::chrono_literals;
using test::json;
using test::Request;
using test::Response;

// A port that was free a moment ago (--port must be 1-65535, so port 0 cannot be used).
int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  ::close(fd);
  return ntohs(addr.sin_port);
}

const json kJobReview = json::parse(R"({
  "apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
  "request": {
    "uid": "uid-1",
    "kind": {"group": "batch.volcano.sh", "version": "v1alpha1", "kind": "Job"},
    "resource": {"group": "batch.volcano.sh", "version": "v1alpha1", "resource": "jobs"},
    "namespace": "default", "operation": "CREATE",
    "object": {
      "apiVersion": "batch.volcano.sh/v1alpha1", "kind": "Job",
      "metadata": {"name": "j", "namespace": "default"},
      "spec": {"tasks": [{"name": "t", "replicas": 1,
               "template": {"spec": {"containers": [{"name": "c", "image": "busybox"}]}}}]}}}})");

class RunTest : public ::testing::Test {
 protected:
  RunTest() {
    const auto pki = vc::testing::make_pki();
    ca_pem = pki.ca.cert_pem;
    options.ca_cert_file = dir.write("ca.crt", pki.ca.cert_pem);
    options.tls_cert_file = dir.write("tls.crt", pki.server.cert_pem);
    options.tls_private_key_file = dir.write("tls.key", pki.server.key_pem);
    options.kubeconfig = dir.write("kubeconfig", R"(apiVersion: v1
kind: Config
clusters:
- name: c
  cluster: {server: ")" + api.url() + R"("}
users:
- name: u
  user: {}
contexts:
- name: x
  context: {cluster: c, user: u}
current-context: x
)");
    options.listen_address = "127.0.0.1";
    options.port = free_port();
    options.webhook_url = "https://127.0.0.1";
    options.enabled_admission = "/jobs/mutate,/queues/validate";
    options.enable_healthz = true;
    options.healthz_address = "127.0.0.1:0";
    options.graceful_shutdown_time = 5s;
    settings.ca_bundle = {.poll_interval = 10ms, .wait_timeout = 10s};
    settings.cache_sync_timeout = 10s;
    settings.version_timeout = 5s;
    settings.on_serving = [this](std::uint16_t port, std::uint16_t health_port) {
      serving.set_value({port, health_port});
    };
  }

  // A failed assertion must not leave run() waiting for a stop that never comes.
  ~RunTest() override { stop_source.request_stop(); }

  void serve_cluster() {
    test::serve_version(api);
    queues.add(test::queue("default"));
    api.handle("GET", std::string(test::kMutatingPath) + "volcano-admission-service-jobs-mutate",
               [](const Request&) {
                 return Response::json(
                     200, test::webhook_configuration("MutatingWebhookConfiguration",
                                                      "volcano-admission-service-jobs-mutate",
                                                      json::array({"c3RhbGU="})));
               });
    api.handle(
        "GET", std::string(test::kValidatingPath) + "volcano-admission-service-queues-validate",
        [this](const Request&) {
          return Response::json(
              200, test::webhook_configuration("ValidatingWebhookConfiguration",
                                               "volcano-admission-service-queues-validate",
                                               json::array({server::base64_encode(ca_pem)})));
        });
    api.handle_prefix("PUT", "/apis/admissionregistration.k8s.io/",
                      [](const Request& r) { return Response::json(200, r.json()); });
  }

  // Every other webhook configuration exists with the current bundle.
  void serve_current_configurations() {
    for (const auto& [prefix, kind] :
         {std::pair{std::string(test::kMutatingPath), "MutatingWebhookConfiguration"},
          std::pair{std::string(test::kValidatingPath), "ValidatingWebhookConfiguration"}}) {
      api.handle_prefix("GET", prefix, [this, prefix, kind](const Request& r) {
        return Response::json(
            200, test::webhook_configuration(kind, r.path.substr(prefix.size()),
                                             json::array({server::base64_encode(ca_pem)})));
      });
    }
  }

  // POSTs an AdmissionReview over TLS and returns the decoded response object.
  json review(std::uint16_t port, const std::string& path, const json& body) {
    kube::Config tls;
    tls.server = "https://127.0.0.1:" + std::to_string(port);
    tls.ca_pem = ca_pem;
    kube::Transport webhook(tls, {});
    kube::HttpRequest request;
    request.method = "POST";
    request.target = path + "?timeout=10s";
    request.body = body.dump();
    request.content_type = "application/json";
    request.deadline = std::chrono::steady_clock::now() + 10s;
    auto answer = webhook.send(request);
    EXPECT_TRUE(answer.ok()) << answer.error().describe();
    if (!answer.ok()) return json();
    EXPECT_EQ(answer->status, 200) << answer->body;
    return json::parse(answer->body, nullptr, false)["response"];
  }

  std::vector<std::string> puts() {
    std::vector<std::string> out;
    for (const auto& r : api.requests()) {
      if (r.method == "PUT") out.push_back(r.path);
    }
    return out;
  }

  // Runs run() on a thread; stop() ends it.
  void start() {
    thread = std::jthread(
        [this] { exit_code.set_value(run(options, stop_source.get_token(), settings)); });
  }
  int stop_and_wait() {
    stop_source.request_stop();
    auto code = exit_code.get_future();
    EXPECT_EQ(code.wait_for(20s), std::future_status::ready);
    return code.get();
  }

  vc::testing::TempDir dir;
  vc::testing::FakeApiServer api;
  test::FakeQueues queues{api};
  std::string ca_pem;
  WebhookOptions options;
  RunSettings settings;
  std::promise<std::pair<std::uint16_t, std::uint16_t>> serving;
  std::promise<int> exit_code;
  std::stop_source stop_source;
  std::jthread thread;
};

TEST_F(RunTest, ServesReviewsAfterPatchingCaBundleAndStopsCleanly) {
  serve_cluster();
  auto ports_future = serving.get_future();
  start();
  ASSERT_EQ(ports_future.wait_for(20s), std::future_status::ready) << api.describe_requests();
  const auto [port, health_port] = ports_future.get();
  EXPECT_EQ(port, options.port);

  // Only the configuration with a stale bundle was written.
  EXPECT_EQ(puts(), std::vector<std::string>{std::string(test::kMutatingPath) +
                                             "volcano-admission-service-jobs-mutate"});

  const json response = review(port, "/jobs/mutate", kJobReview);
  EXPECT_EQ(response["uid"], "uid-1");
  EXPECT_EQ(response["allowed"], true);
  EXPECT_EQ(response["patchType"], "JSONPatch");

  kube::Config plain;
  plain.server = "http://127.0.0.1:" + std::to_string(health_port);
  kube::Transport health(plain, {});
  for (const char* path : {"/healthz", "/readyz", "/healthz/ping"}) {
    kube::HttpRequest probe;
    probe.method = "GET";
    probe.target = path;
    probe.deadline = std::chrono::steady_clock::now() + 5s;
    auto r = health.send(probe);
    ASSERT_TRUE(r.ok()) << path << ": " << r.error().describe();
    EXPECT_EQ(r->status, 200) << path << ": " << r->body;
    EXPECT_EQ(r->body, "ok") << path;
  }
  kube::HttpRequest scrape;
  scrape.method = "GET";
  scrape.target = "/metrics";
  scrape.deadline = std::chrono::steady_clock::now() + 5s;
  auto metrics = health.send(scrape);
  ASSERT_TRUE(metrics.ok()) << metrics.error().describe();
  // The build-info gauge carries the commit --version prints; the process_* series are there.
  EXPECT_NE(metrics->body.find("component=\"vc-webhook-manager\",git_commit=\"" +
                               std::string(flags::build_info().git_commit) + "\""),
            std::string::npos)
      << metrics->body;
  EXPECT_NE(metrics->body.find("\nprocess_open_fds "), std::string::npos) << metrics->body;

  EXPECT_EQ(stop_and_wait(), 0);
}

json pod_review(const json& annotations) {
  return {{"apiVersion", "admission.k8s.io/v1"},
          {"kind", "AdmissionReview"},
          {"request",
           {{"uid", "uid-pod"},
            {"kind", {{"group", ""}, {"version", "v1"}, {"kind", "Pod"}}},
            {"resource", {{"group", ""}, {"version", "v1"}, {"resource", "pods"}}},
            {"namespace", "team-a"},
            {"operation", "CREATE"},
            {"object",
             {{"apiVersion", "v1"},
              {"kind", "Pod"},
              {"metadata", {{"name", "p"}, {"namespace", "team-a"}, {"annotations", annotations}}},
              {"spec", {{"containers", json::array({{{"name", "c"}, {"image", "busybox"}}})}}}}}}}};
}

json decoded_patch(const json& response) {
  if (!response.contains("patch")) return json::array();
  const std::string b64 = response["patch"];
  static constexpr std::string_view kAlphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string bytes;
  unsigned buffer = 0;
  int bits = 0;
  for (const char c : b64) {
    if (c == '=') break;
    buffer = (buffer << 6) | static_cast<unsigned>(kAlphabet.find(c));
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push_back(static_cast<char>((buffer >> bits) & 0xFF));
    }
  }
  return json::parse(bytes);
}

TEST_F(RunTest, FeatureGateAndReloadedAdmissionConfReachTheAdmitFunctions) {
  test::serve_version(api);
  serve_current_configurations();
  ASSERT_EQ(options.feature_gates.set("SchedulingGatesQueueAdmission=true").error(), "");
  options.enabled_admission = "/pods/mutate";
  options.admission_conf = dir.write("admission.conf", "# no resource groups yet\n");
  settings.admission_conf_poll = 10ms;
  auto ports_future = serving.get_future();
  start();
  ASSERT_EQ(ports_future.wait_for(20s), std::future_status::ready) << api.describe_requests();
  const std::uint16_t port = ports_future.get().first;

  const json gated = pod_review({{"scheduling.volcano.sh/queue-allocation-gate", "true"}});
  EXPECT_EQ(decoded_patch(review(port, "/pods/mutate", gated)),
            json::parse(R"([{"op":"add","path":"/spec/schedulingGates",
                             "value":[{"name":"scheduling.volcano.sh/queue-allocation-gate"}]}])"));

  dir.write("admission.conf", R"(resourceGroups:
- resourceGroup: a
  object: {key: namespace, value: [team-a]}
  schedulerName: group-scheduler
)");
  json patch;
  EXPECT_TRUE(test::wait_until([&] {
    patch = decoded_patch(review(port, "/pods/mutate", pod_review(json::object())));
    return !patch.empty();
  })) << patch;
  EXPECT_EQ(patch, json::parse(R"([{"op":"add","path":"/spec/schedulerName",
                                    "value":"group-scheduler"}])"));
  EXPECT_EQ(stop_and_wait(), 0);
}

TEST_F(RunTest, UnreadableCaFileIsFatalBeforeAnyApiCall) {
  options.ca_cert_file = (dir.path() / "missing.crt").string();
  start();
  EXPECT_EQ(exit_code.get_future().get(), 255);
  EXPECT_TRUE(api.requests().empty()) << api.describe_requests();
}

TEST_F(RunTest, PortOutOfRangeIsFatal) {
  options.port = 70000;
  start();
  EXPECT_EQ(exit_code.get_future().get(), 255);
}

TEST_F(RunTest, FailedVersionCheckExitsOne) {
  api.handle("GET", "/version",
             [](const Request&) { return Response::error(403, "Forbidden", "forbidden"); });
  start();
  EXPECT_EQ(exit_code.get_future().get(), 1);
}

TEST_F(RunTest, CaBundleFailureExitsOneBeforeListening) {
  test::serve_version(api);
  api.handle("GET", std::string(test::kMutatingPath) + "volcano-admission-service-jobs-mutate",
             [](const Request&) { return Response::error(403, "Forbidden", "denied"); });
  start();
  EXPECT_EQ(exit_code.get_future().get(), 1);
  EXPECT_EQ(serving.get_future().wait_for(0s), std::future_status::timeout);
}

TEST_F(RunTest, StopWhileWaitingForConfigurationsExitsZero) {
  test::serve_version(api);  // no webhook configurations: the caBundle step waits
  settings.ca_bundle.wait_timeout = 60s;
  start();
  const std::string path =
      std::string(test::kMutatingPath) + "volcano-admission-service-jobs-mutate";
  ASSERT_TRUE(test::wait_until([&] {
    for (const auto& r : api.requests()) {
      if (r.path == path) return true;
    }
    return false;
  }));
  const auto started = std::chrono::steady_clock::now();
  EXPECT_EQ(stop_and_wait(), 0);
  EXPECT_LT(std::chrono::steady_clock::now() - started, 5s);
}

TEST_F(RunTest, StopWhileTheApiServerDoesNotAnswerExitsZero) {
  api.handle("GET", "/version", [](const Request&) {
    Response r;
    r.stall = true;
    return r;
  });
  settings.version_timeout = 60s;
  start();
  ASSERT_TRUE(api.wait_for_requests(1, 10s));
  const auto started = std::chrono::steady_clock::now();
  EXPECT_EQ(stop_and_wait(), 0);
  EXPECT_LT(std::chrono::steady_clock::now() - started, 5s);
}

}  // namespace
}  // namespace vc::webhook::app

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <optional>

#include "common/kube/config.h"
#include "common/kube/token_source.h"
#include "common/testing/temp_dir.h"

namespace vc::kube {
namespace {

using vc::testing::TempDir;

// Sets (or unsets) an environment variable for one test and restores it afterwards.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, std::optional<std::string> value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) {
      ::setenv(name, value->c_str(), 1);
    } else {
      ::unsetenv(name);
    }
  }
  ~ScopedEnv() {
    if (old_) {
      ::setenv(name_, old_->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

// "hello" in base64.
constexpr const char* kHelloB64 = "aGVsbG8=";

const char* kTwoContexts = R"(apiVersion: v1
kind: Config
current-context: dev
clusters:
- name: dev-cluster
  cluster:
    server: https://10.0.0.1:6443
    certificate-authority-data: aGVsbG8=
    tls-server-name: kubernetes.default
- name: prod-cluster
  cluster:
    server: https://prod.example:443
    insecure-skip-tls-verify: true
users:
- name: dev-user
  user:
    token: abc123
- name: prod-user
  user:
    client-certificate-data: Y2VydA==
    client-key-data: a2V5
contexts:
- name: dev
  context:
    cluster: dev-cluster
    user: dev-user
    namespace: team-a
- name: prod
  context:
    cluster: prod-cluster
    user: prod-user
)";

TEST(Config, CurrentContextWithEmbeddedData) {
  auto c = Config::from_kubeconfig_yaml(kTwoContexts, "");
  EXPECT_EQ(c.server, "https://10.0.0.1:6443");
  EXPECT_EQ(c.ca_pem, "hello");
  EXPECT_EQ(c.tls_server_name, "kubernetes.default");
  EXPECT_FALSE(c.insecure_skip_tls_verify);
  ASSERT_TRUE(c.token);
  EXPECT_EQ(c.token->token(), "abc123");
  EXPECT_EQ(c.namespace_, "team-a");
}

TEST(Config, ExplicitContextWinsAndNamespaceDefaults) {
  auto c = Config::from_kubeconfig_yaml(kTwoContexts, "", "prod");
  EXPECT_EQ(c.server, "https://prod.example:443");
  EXPECT_TRUE(c.insecure_skip_tls_verify);
  EXPECT_EQ(c.client_cert_pem, "cert");
  EXPECT_EQ(c.client_key_pem, "key");
  EXPECT_FALSE(c.token);
  EXPECT_EQ(c.namespace_, "default");
}

TEST(Config, RelativeFilePathsResolveAgainstTheKubeconfigDirectory) {
  TempDir dir;
  dir.write("certs/ca.crt", "CA-PEM");
  dir.write("certs/client.crt", "CLIENT-PEM");
  dir.write("certs/client.key", "KEY-PEM");
  dir.write("token", "file-token\n");
  const std::string path = dir.write("sub/../config", R"(
current-context: c
clusters:
- name: k
  cluster:
    server: https://127.0.0.1:6443
    certificate-authority: certs/ca.crt
users:
- name: u
  user:
    client-certificate: certs/client.crt
    client-key: )" + (dir.path() / "certs/client.key").string() +
                                                          R"(
    tokenFile: token
contexts:
- name: c
  context: {cluster: k, user: u}
)");
  auto c = Config::from_kubeconfig_file(path);
  EXPECT_EQ(c.ca_pem, "CA-PEM");
  EXPECT_EQ(c.client_cert_pem, "CLIENT-PEM");
  EXPECT_EQ(c.client_key_pem, "KEY-PEM");
  ASSERT_TRUE(c.token);
  EXPECT_EQ(c.token->token(), "file-token");
}

void expect_config_error(const std::string& yaml, const std::string& needle) {
  try {
    Config::from_kubeconfig_yaml(yaml, "");
    ADD_FAILURE() << "no ConfigError; wanted one containing: " << needle;
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos)
        << "message: " << e.what() << "\nwanted: " << needle;
  }
}

TEST(Config, ExecAndAuthProviderUsersAreRejectedClearly) {
  const std::string base = R"(
current-context: c
clusters: [{name: k, cluster: {server: "https://h:1"}}]
contexts: [{name: c, context: {cluster: k, user: eks}}]
)";
  expect_config_error(base + "users: [{name: eks, user: {exec: {command: aws}}}]",
                      "kubeconfig (inline): user eks: exec credential plugins are not supported; "
                      "use a token, tokenFile or client certificate");
  expect_config_error(base + "users: [{name: eks, user: {auth-provider: {name: gcp}}}]",
                      "user eks: auth-provider plugins are not supported");
}

TEST(Config, ErrorsNameTheFileAndField) {
  TempDir dir;
  const std::string path = dir.write("config", R"(
current-context: c
clusters: [{name: k, cluster: {server: "https://h:1", certificate-authority: missing.crt}}]
contexts: [{name: c, context: {cluster: k}}]
)");
  try {
    Config::from_kubeconfig_file(path);
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("kubeconfig " + path), std::string::npos) << msg;
    EXPECT_NE(msg.find("cluster \"k\": certificate-authority: cannot read"), std::string::npos)
        << msg;
  }
  expect_config_error("current-context: nope\ncontexts: []\n", "context \"nope\" not found");
  expect_config_error(R"(
current-context: c
clusters: [{name: k, cluster: {}}]
contexts: [{name: c, context: {cluster: k}}]
)",
                      "cluster \"k\": server: missing");
  expect_config_error(R"(
current-context: c
clusters: [{name: k, cluster: {server: "https://h", certificate-authority-data: "!!!"}}]
contexts: [{name: c, context: {cluster: k}}]
)",
                      "certificate-authority-data: not valid base64");
  expect_config_error("{{{", "invalid YAML");
}

TEST(Config, KubeconfigEnvUsesTheFirstExistingFile) {
  TempDir dir;
  const std::string second = dir.write("second", R"(
current-context: c
clusters: [{name: k, cluster: {server: "https://second:6443"}}]
contexts: [{name: c, context: {cluster: k}}]
)");
  ScopedEnv env("KUBECONFIG", (dir.path() / "missing").string() + ":" + second);
  auto c = Config::load("", "");
  EXPECT_EQ(c.server, "https://second:6443");
  auto overridden = Config::load("", "http://127.0.0.1:8080");
  EXPECT_EQ(overridden.server, "http://127.0.0.1:8080");
}

TEST(Config, LoadWithAContextPicksItInTheResolvedFile) {
  TempDir dir;
  const std::string file = dir.write("config", kTwoContexts);
  ScopedEnv env("KUBECONFIG", (dir.path() / "missing").string() + ":" + file);
  EXPECT_EQ(Config::load("", "").server, "https://10.0.0.1:6443");
  EXPECT_EQ(Config::load("", "", "prod").server, "https://prod.example:443");
  EXPECT_EQ(Config::load(file, "", "prod").server, "https://prod.example:443");
  EXPECT_THROW(Config::load(file, "", "nosuch"), ConfigError);
}

TEST(Config, KubeconfigEnvWithNoExistingFileIsAnError) {
  TempDir dir;
  ScopedEnv env("KUBECONFIG", (dir.path() / "a").string() + ":" + (dir.path() / "b").string());
  EXPECT_THROW(Config::load("", ""), ConfigError);
}

TEST(Config, MasterAloneIsEnough) {
  TempDir home;
  ScopedEnv kubeconfig("KUBECONFIG", std::nullopt);
  ScopedEnv host("KUBERNETES_SERVICE_HOST", std::nullopt);
  ScopedEnv home_env("HOME", home.path().string());
  auto c = Config::load("", "http://127.0.0.1:1");
  EXPECT_EQ(c.server, "http://127.0.0.1:1");
  EXPECT_THROW(Config::load("", ""), ConfigError);
}

TEST(Config, InClusterReadsServiceAccountFiles) {
  TempDir sa;
  sa.write("token", "sa-token\n");
  sa.write("ca.crt", "CLUSTER-CA");
  sa.write("namespace", "volcano-system\n");
  ScopedEnv host("KUBERNETES_SERVICE_HOST", "10.96.0.1");
  ScopedEnv port("KUBERNETES_SERVICE_PORT", "443");
  auto c = Config::in_cluster(sa.path().string());
  EXPECT_EQ(c.server, "https://10.96.0.1:443");
  EXPECT_EQ(c.ca_pem, "CLUSTER-CA");
  EXPECT_EQ(c.namespace_, "volcano-system");
  ASSERT_TRUE(c.token);
  EXPECT_EQ(c.token->token(), "sa-token");
}

TEST(Config, InClusterIpv6HostIsBracketed) {
  TempDir sa;
  sa.write("token", "t");
  sa.write("ca.crt", "CA");
  ScopedEnv host("KUBERNETES_SERVICE_HOST", "fd00::1");
  ScopedEnv port("KUBERNETES_SERVICE_PORT", "443");
  auto c = Config::in_cluster(sa.path().string());
  EXPECT_EQ(c.server, "https://[fd00::1]:443");
  EXPECT_EQ(c.namespace_, "default");
}

TEST(Config, InClusterWithoutEnvironmentIsAnError) {
  TempDir sa;
  ScopedEnv host("KUBERNETES_SERVICE_HOST", std::nullopt);
  EXPECT_THROW(Config::in_cluster(sa.path().string()), ConfigError);
}

TEST(TokenSource, FileTokenIsReReadWhenTheFileChanges) {
  TempDir dir;
  const std::string path = dir.write("token", "first");
  auto source = token_from_file(path, std::chrono::milliseconds(0));
  EXPECT_EQ(source->token(), "first");
  dir.write("token", "second\n");
  // Filesystem timestamps can be coarse: make the change visible regardless.
  std::filesystem::last_write_time(
      path, std::filesystem::last_write_time(path) + std::chrono::seconds(5));
  EXPECT_EQ(source->token(), "second");
}

TEST(TokenSource, FileTokenIsNotReReadWithinTheRecheckInterval) {
  TempDir dir;
  const std::string path = dir.write("token", "first");
  auto source = token_from_file(path, std::chrono::hours(1));
  dir.write("token", "second");
  std::filesystem::last_write_time(
      path, std::filesystem::last_write_time(path) + std::chrono::seconds(5));
  EXPECT_EQ(source->token(), "first");
}

TEST(TokenSource, EmptyRotatedFileKeepsThePreviousToken) {
  TempDir dir;
  const std::string path = dir.write("token", "first");
  auto source = token_from_file(path, std::chrono::milliseconds(0));
  dir.write("token", "");
  std::filesystem::last_write_time(
      path, std::filesystem::last_write_time(path) + std::chrono::seconds(5));
  EXPECT_EQ(source->token(), "first");
}

TEST(TokenSource, MissingFileIsAConfigError) {
  TempDir dir;
  EXPECT_THROW(TokenSource::from_file((dir.path() / "nope").string()), ConfigError);
}

}  // namespace
}  // namespace vc::kube

#include "controllers/job/plugins/ssh_plugin.h"

#include <memory>

#include <gtest/gtest.h>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include "controllers/job/plugins/plugin_test_util.h"
#include "controllers/job/plugins/ssh_keys.h"

namespace vc::controllers::job::plugins {
namespace {

using nlohmann::json;
using testing::make_job;
using testing::make_pod;
using testing::make_task;

constexpr const char* kSecretPath = "/api/v1/namespaces/ns1/secrets/job1-ssh";

std::string base64_decode(const std::string& text) {
  std::string out((text.size() / 4) * 3, '\0');
  const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(text.data()),
                                static_cast<int>(text.size()));
  if (n < 0) return "<invalid base64>";
  std::size_t len = static_cast<std::size_t>(n);
  if (!text.empty() && text.back() == '=') --len;
  if (text.size() > 1 && text[text.size() - 2] == '=') --len;
  out.resize(len);
  return out;
}

// Reads one RFC 4251 string (or mpint) from blob at pos.
std::string read_string(const std::string& blob, std::size_t& pos) {
  if (pos + 4 > blob.size()) return "<truncated>";
  std::uint32_t len = 0;
  for (int i = 0; i < 4; ++i) len = (len << 8) | static_cast<unsigned char>(blob[pos + i]);
  pos += 4;
  if (pos + len > blob.size()) return "<truncated>";
  std::string s = blob.substr(pos, len);
  pos += len;
  return s;
}

std::string bn_bytes(const EVP_PKEY* key, const char* param) {
  BIGNUM* bn = nullptr;
  if (EVP_PKEY_get_bn_param(key, param, &bn) <= 0) return "<no param>";
  std::string bytes(static_cast<std::size_t>(BN_num_bytes(bn)), '\0');
  BN_bn2bin(bn, reinterpret_cast<unsigned char*>(bytes.data()));
  BN_free(bn);
  return bytes;
}

std::string strip_leading_zero(std::string s) {
  if (!s.empty() && s[0] == '\0') s.erase(0, 1);
  return s;
}

TEST(SshKeys, GeneratedKeyIsPkcs1Rsa2048AndThePublicLineMatchesIt) {
  auto pair = generate_ssh_key_pair(2048);
  ASSERT_TRUE(pair.ok()) << pair.error();
  EXPECT_EQ(pair->private_pem.rfind("-----BEGIN RSA PRIVATE KEY-----\n", 0), 0u);
  EXPECT_NE(pair->private_pem.find("-----END RSA PRIVATE KEY-----\n"), std::string::npos);

  std::unique_ptr<BIO, decltype(&BIO_free)> bio(
      BIO_new_mem_buf(pair->private_pem.data(), static_cast<int>(pair->private_pem.size())),
      &BIO_free);
  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(
      PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr), &EVP_PKEY_free);
  ASSERT_TRUE(key) << "OpenSSL could not parse:\n" << pair->private_pem;
  EXPECT_EQ(EVP_PKEY_get_base_id(key.get()), EVP_PKEY_RSA);
  EXPECT_EQ(EVP_PKEY_get_bits(key.get()), 2048);

  const std::string& line = pair->authorized_key;
  ASSERT_EQ(line.rfind("ssh-rsa ", 0), 0u) << line;
  ASSERT_EQ(line.back(), '\n');
  EXPECT_EQ(line.find(' ', 8), std::string::npos) << "no comment expected: " << line;
  const std::string blob = base64_decode(line.substr(8, line.size() - 9));
  std::size_t pos = 0;
  EXPECT_EQ(read_string(blob, pos), "ssh-rsa");
  const std::string e = read_string(blob, pos);
  const std::string n = read_string(blob, pos);
  EXPECT_EQ(pos, blob.size());
  EXPECT_EQ(strip_leading_zero(e), bn_bytes(key.get(), OSSL_PKEY_PARAM_RSA_E));
  EXPECT_EQ(strip_leading_zero(n), bn_bytes(key.get(), OSSL_PKEY_PARAM_RSA_N));
  ASSERT_FALSE(n.empty());
  // A 2048-bit modulus has its top bit set, so the mpint carries a leading zero byte.
  EXPECT_EQ(n.size(), 257u);
  EXPECT_EQ(n[0], '\0');
}

TEST(SshPlugin, ParsesArgumentsWithDefaults) {
  SshPlugin defaults({});
  EXPECT_EQ(defaults.key_file_path(), SshPlugin::kDefaultKeyPath);
  EXPECT_EQ(defaults.port(), 22);
  EXPECT_EQ(defaults.private_key(), "");
  SshPlugin custom({"--ssh-key-file-path=/home/u/.ssh", "--ssh-port", "2026",
                    "--ssh-private-key=PRIV", "--ssh-public-key=PUB"});
  EXPECT_EQ(custom.key_file_path(), "/home/u/.ssh");
  EXPECT_EQ(custom.port(), 2026);
  EXPECT_EQ(custom.private_key(), "PRIV");
  EXPECT_EQ(custom.public_key(), "PUB");
}

TEST(SshPlugin, ConfigListsEveryReplicaAndTemplateHostnamesOnce) {
  const Job job = make_job("job1", {make_task("master", 1), make_task("worker", 2),
                                    make_task("ps", 3, "pshost", "sub")});
  EXPECT_EQ(ssh_config(job, 2026),
            "StrictHostKeyChecking no\nUserKnownHostsFile /dev/null\n"
            "Host job1-master-0\n  HostName job1-master-0.job1\n  Port 2026\n"
            "Host job1-worker-0\n  HostName job1-worker-0.job1\n  Port 2026\n"
            "Host job1-worker-1\n  HostName job1-worker-1.job1\n  Port 2026\n"
            "Host pshost\n  HostName pshost.sub\n  Port 2026\n");
}

json expected_volume(int mode) {
  json items = json::array();
  for (const char* key : {"id_rsa", "id_rsa.pub", "authorized_keys", "config"}) {
    items.push_back({{"key", key}, {"path", std::string(".ssh/") + key}});
  }
  return {{"name", "job1-ssh"},
          {"secret", {{"secretName", "job1-ssh"}, {"items", items}, {"defaultMode", mode}}}};
}

TEST(SshPlugin, PodMountsTheSecretAtTheKeyPathWithRootMode) {
  const Job job = make_job("job1", {make_task("worker", 2)});
  json pod = make_pod(job, "worker", 0, /*with_init=*/true);
  SshPlugin plugin({});
  ASSERT_EQ(plugin.on_pod_create(pod, job).error(), "");
  EXPECT_EQ(pod["spec"]["volumes"], json::array({expected_volume(0600)}));
  const json mounts = json::array(
      {{{"name", "job1-ssh"}, {"mountPath", SshPlugin::kDefaultKeyPath}, {"subPath", ".ssh"}}});
  EXPECT_EQ(pod["spec"]["containers"][0]["volumeMounts"], mounts);
  EXPECT_EQ(pod["spec"]["initContainers"][0]["volumeMounts"], mounts);
}

TEST(SshPlugin, NonRootKeyPathUses0644) {
  const Job job = make_job("job1", {make_task("worker", 2)});
  json pod = make_pod(job, "worker", 0);
  SshPlugin plugin({"--ssh-key-file-path=/home/user/.ssh"});
  ASSERT_EQ(plugin.on_pod_create(pod, job).error(), "");
  EXPECT_EQ(pod["spec"]["volumes"][0], expected_volume(0644));
  EXPECT_EQ(pod["spec"]["containers"][0]["volumeMounts"][0]["mountPath"], "/home/user/.ssh");
}

TEST(SshPlugin, JobAddCreatesSecretWithGeneratedKeysAndMarks) {
  testing::ObjectStore store;
  const Job job = make_job("job1", {make_task("worker", 2)});
  std::map<std::string, std::string> controlled;
  PluginEnv env{store.api(), job, controlled};
  SshPlugin plugin({"--ssh-port=70000"});  // invalid: falls back to 22
  ASSERT_EQ(plugin.on_job_add(env).error(), "");
  EXPECT_EQ(controlled, (std::map<std::string, std::string>{{"plugin-ssh", "ssh"}}));

  const json secret = store.get(kSecretPath);
  EXPECT_EQ(secret["type"], "Opaque");
  EXPECT_EQ(secret["metadata"]["ownerReferences"], json::array({testing::controller_ref(job)}));
  const json& data = secret["data"];
  EXPECT_EQ(base64_decode(data["config"]), ssh_config(job, 22));
  const std::string pub = base64_decode(data["id_rsa.pub"]);
  EXPECT_EQ(pub.rfind("ssh-rsa ", 0), 0u);
  EXPECT_EQ(base64_decode(data["authorized_keys"]), pub);
  EXPECT_EQ(base64_decode(data["id_rsa"]).rfind("-----BEGIN RSA PRIVATE KEY-----", 0), 0u);
}

TEST(SshPlugin, JobAddUsesUserKeys) {
  testing::ObjectStore store;
  const Job job = make_job("job1", {make_task("worker", 1)});
  std::map<std::string, std::string> controlled;
  PluginEnv env{store.api(), job, controlled};
  SshPlugin plugin({"--ssh-private-key=PRIVATE", "--ssh-public-key=ssh-rsa AAAA user@host"});
  ASSERT_EQ(plugin.on_job_add(env).error(), "");
  const json data = store.get(kSecretPath)["data"];
  EXPECT_EQ(base64_decode(data["id_rsa"]), "PRIVATE");
  EXPECT_EQ(base64_decode(data["id_rsa.pub"]), "ssh-rsa AAAA user@host");
  EXPECT_EQ(base64_decode(data["authorized_keys"]), "ssh-rsa AAAA user@host");
}

TEST(SshPlugin, ExistingSecretWithSameConfigKeepsItsKeys) {
  testing::ObjectStore store;
  const Job job = make_job("job1", {make_task("worker", 2)});
  store.put(kSecretPath,
            {{"metadata", {{"name", "job1-ssh"}, {"namespace", "ns1"}}},
             {"data",
              {{"id_rsa", base64_encode("OLD")}, {"config", base64_encode(ssh_config(job, 22))}}}});
  std::map<std::string, std::string> controlled;
  PluginEnv env{store.api(), job, controlled};
  SshPlugin plugin({});
  ASSERT_EQ(plugin.on_job_add(env).error(), "");
  EXPECT_EQ(store.calls(), (std::vector<std::string>{"GET " + std::string(kSecretPath)}));
  EXPECT_EQ(store.get(kSecretPath)["data"]["id_rsa"], base64_encode("OLD"));
  EXPECT_EQ(controlled.at("plugin-ssh"), "ssh");
}

TEST(SshPlugin, ExistingSecretWithOtherConfigIsRewritten) {
  testing::ObjectStore store;
  const Job job = make_job("job1", {make_task("worker", 3)});
  store.put(kSecretPath, {{"metadata", {{"name", "job1-ssh"}, {"namespace", "ns1"}}},
                          {"type", "Opaque"},
                          {"data", {{"id_rsa", base64_encode("OLD")}, {"config", "b2xk"}}}});
  std::map<std::string, std::string> controlled;
  PluginEnv env{store.api(), job, controlled};
  SshPlugin plugin({"--ssh-private-key=NEW", "--ssh-public-key=PUB"});
  ASSERT_EQ(plugin.on_job_add(env).error(), "");
  const json data = store.get(kSecretPath)["data"];
  EXPECT_EQ(base64_decode(data["config"]), ssh_config(job, 22));
  EXPECT_EQ(base64_decode(data["id_rsa"]), "NEW");
}

TEST(SshPlugin, SecretErrorsAreWrappedAndLeaveTheJobUnmarked) {
  testing::ObjectStore store;
  const Job job = make_job("job1", {make_task("worker", 1)});
  store.fail("POST", "/api/v1/namespaces/ns1/secrets", 403, "Forbidden");
  std::map<std::string, std::string> controlled;
  PluginEnv env{store.api(), job, controlled};
  SshPlugin plugin({"--ssh-private-key=K"});
  const std::string error = plugin.on_job_add(env).error();
  EXPECT_EQ(error.rfind("create secret for job <ns1/job1> with ssh plugin failed for ", 0), 0u)
      << error;
  EXPECT_TRUE(controlled.empty());
}

TEST(SshPlugin, JobDeleteRemovesSecretAndMarkAndToleratesNotFound) {
  testing::ObjectStore store;
  const Job job = make_job("job1", {make_task("worker", 1)});
  store.put(kSecretPath, {{"metadata", {{"name", "job1-ssh"}}}});
  std::map<std::string, std::string> controlled{{"plugin-ssh", "ssh"}};
  PluginEnv env{store.api(), job, controlled};
  SshPlugin plugin({});
  ASSERT_EQ(plugin.on_job_delete(env).error(), "");
  EXPECT_FALSE(store.has(kSecretPath));
  EXPECT_TRUE(controlled.empty());
  controlled["plugin-ssh"] = "ssh";
  ASSERT_EQ(plugin.on_job_delete(env).error(), "");
  EXPECT_TRUE(controlled.empty());
  store.clear_calls();
  ASSERT_EQ(plugin.on_job_delete(env).error(), "");  // unmarked: no call
  EXPECT_TRUE(store.calls().empty());
}

}  // namespace
}  // namespace vc::controllers::job::plugins

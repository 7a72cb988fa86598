// The UFM source's I/O: credentials from a Secret, the basic-auth header, and the ports GET
// against an in-process HTTPS server (status, auth, TLS verification, body, stop).
#include "controllers/hypernode/ufm_client.h"

#include <gtest/gtest.h>

#include "common/go/base64.h"
#include "common/testing/fake_apiserver.h"

namespace vc::controllers::hypernode {
namespace {

using nlohmann::json;
using testing::FakeApiServer;
using testing::Request;
using testing::Response;

const SecretRef kRef{.name = "ufm", .namespace_ = "volcano-system"};

json secret(json data) {
  return {{"metadata", {{"name", "ufm"}}}, {"data", std::move(data)}};
}

TEST(CredentialsFromSecret, DecodesUsernameAndPassword) {
  const auto c = credentials_from_secret(
      secret({{"username", go::base64_encode("admin")}, {"password", go::base64_encode("p:w")}}),
      kRef);
  ASSERT_TRUE(c) << c.error();
  EXPECT_EQ(*c, (UfmCredentials{.username = "admin", .password = "p:w"}));
}

TEST(CredentialsFromSecret, MissingKeysAreNamedAsVolcanoNamesThem) {
  EXPECT_EQ(credentials_from_secret(secret({{"password", "eA=="}}), kRef).error(),
            "username not found in secret volcano-system/ufm");
  EXPECT_EQ(credentials_from_secret(secret({{"username", "eA=="}}), kRef).error(),
            "password not found in secret volcano-system/ufm");
  EXPECT_EQ(credentials_from_secret({{"metadata", {{"name", "ufm"}}}}, kRef).error(),
            "username not found in secret volcano-system/ufm");
}

TEST(CredentialsFromSecret, BadValuesNameTheField) {
  EXPECT_EQ(
      credentials_from_secret(secret({{"username", "!!"}, {"password", "eA=="}}), kRef).error(),
      "secret volcano-system/ufm: data.username: not base64 text");
  EXPECT_EQ(credentials_from_secret(secret({{"username", "eA=="}, {"password", 3}}), kRef).error(),
            "secret volcano-system/ufm: data.password: not a string");
  // An empty value is present: start then fails on the empty credential, as in Volcano.
  const auto empty =
      credentials_from_secret(secret({{"username", ""}, {"password", nullptr}}), kRef);
  ASSERT_TRUE(empty) << empty.error();
  EXPECT_EQ(*empty, UfmCredentials{});
}

TEST(BasicAuthorization, IsRfc7617) {
  EXPECT_EQ(basic_authorization({.username = "Aladdin", .password = "open sesame"}),
            "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==");
}

const UfmCredentials kCredentials{.username = "admin", .password = "secret"};

struct UfmServer {
  FakeApiServer server{{.tls = true, .require_client_cert = false, .client_cn = "test-client"}};
  explicit UfmServer(Response response) {
    server.handle("GET", "/ufmRest/resources/ports", [response](const Request& r) {
      if (r.header("authorization") != basic_authorization(kCredentials)) {
        return Response::text(401, "no");
      }
      return response;
    });
  }
  UfmSettings settings(bool insecure = true, std::string suffix = "/") const {
    return {.endpoint = server.url() + suffix, .insecure_skip_verify = insecure, .error = ""};
  }
};

TEST(FetchUfmPorts, GetsAndDecodesThePortsWithBasicAuth) {
  UfmServer ufm(Response::json(200, json::array({{{"description", "Computer IB Port"},
                                                  {"system_name", "n1"},
                                                  {"peer_node_name", "leaf-a"},
                                                  {"tier", 1}}})));
  const auto ports = fetch_ufm_ports(ufm.settings(), kCredentials, {});
  ASSERT_TRUE(ports) << ports.error();
  ASSERT_EQ(ports->size(), 1u);
  EXPECT_EQ((*ports)[0].system_name, "n1");
  EXPECT_EQ((*ports)[0].peer_node_name, "leaf-a");
  const auto requests = ufm.server.requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].target, "/ufmRest/resources/ports");
}

TEST(FetchUfmPorts, WrongCredentialsAreAnUnexpectedStatus) {
  UfmServer ufm(Response::json(200, json::array()));
  const auto ports =
      fetch_ufm_ports(ufm.settings(), {.username = "admin", .password = "guess"}, {});
  ASSERT_FALSE(ports);
  EXPECT_TRUE(ports.error().starts_with("unexpected status code: 401")) << ports.error();
}

TEST(FetchUfmPorts, AnUntrustedCertificateFailsUnlessVerificationIsSkipped) {
  UfmServer ufm(Response::json(200, nullptr));
  const auto verified = fetch_ufm_ports(ufm.settings(false), kCredentials, {});
  ASSERT_FALSE(verified);
  EXPECT_TRUE(verified.error().starts_with("failed to send request: ")) << verified.error();
  const auto skipped = fetch_ufm_ports(ufm.settings(true), kCredentials, {});
  ASSERT_TRUE(skipped) << skipped.error();
  EXPECT_TRUE(skipped->empty());
}

TEST(FetchUfmPorts, ABodyOfTheWrongShapeFailsTheRound) {
  UfmServer ufm(Response::json(200, json::array({{{"tier", "1"}}})));
  const auto ports = fetch_ufm_ports(ufm.settings(), kCredentials, {});
  ASSERT_FALSE(ports);
  EXPECT_TRUE(ports.error().starts_with("failed to decode response: ")) << ports.error();
}

TEST(FetchUfmPorts, AnUnusableEndpointIsAnError) {
  const auto ports = fetch_ufm_ports(
      {.endpoint = "https://[::1", .insecure_skip_verify = false, .error = ""}, kCredentials, {});
  ASSERT_FALSE(ports);
  EXPECT_TRUE(ports.error().starts_with("failed to create request: ")) << ports.error();
}

TEST(FetchUfmPorts, AStopRequestEndsAStalledExchange) {
  Response stalled;
  stalled.stall = true;
  UfmServer ufm(stalled);
  std::stop_source stop;
  std::thread stopper([&] {
    ufm.server.wait_for_requests(1, std::chrono::seconds(5));
    stop.request_stop();
  });
  const auto started = std::chrono::steady_clock::now();
  const auto ports = fetch_ufm_ports(ufm.settings(), kCredentials, stop.get_token());
  stopper.join();
  EXPECT_FALSE(ports);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(10));
}

}  // namespace
}  // namespace vc::controllers::hypernode

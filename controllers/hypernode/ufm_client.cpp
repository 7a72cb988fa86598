#include "controllers/hypernode/ufm_client.h"

#include <optional>

#include "common/go/base64.h"
#include "common/kube/config.h"
#include "common/kube/transport.h"

namespace vc::controllers::hypernode {
namespace {

// data.<key> decoded; nullopt when absent; an error when it is not base64 text.
api::Expected<std::optional<std::string>> secret_value(const nlohmann::json& secret,
                                                       const char* key) {
  const auto data = secret.find("data");
  if (data == secret.end() || !data->is_object()) return std::optional<std::string>{};
  const auto value = data->find(key);
  if (value == data->end()) return std::optional<std::string>{};
  if (value->is_null()) return std::optional<std::string>{std::string()};
  if (!value->is_string()) return api::Unexpected{std::string("data.") + key + ": not a string"};
  auto decoded = go::base64_decode(value->get<std::string>());
  if (!decoded) return api::Unexpected{std::string("data.") + key + ": not base64 text"};
  return std::optional<std::string>{std::move(*decoded)};
}

// The endpoint as the transport's server URL: what ufm_ports_url puts before the path.
std::string server_of(std::string_view endpoint) {
  std::string url = ufm_ports_url(endpoint);
  url.resize(url.size() - kUfmPortsPath.size());
  return url;
}

}  // namespace

api::Expected<UfmCredentials> credentials_from_secret(const nlohmann::json& secret,
                                                      const SecretRef& ref) {
  const std::string where = ref.namespace_ + "/" + ref.name;
  UfmCredentials out;
  for (auto [key, field] : {std::pair{"username", &out.username}, {"password", &out.password}}) {
    auto value = secret_value(secret, key);
    if (!value) return api::Unexpected{"secret " + where + ": " + value.error()};
    if (!*value) return api::Unexpected{std::string(key) + " not found in secret " + where};
    *field = std::move(**value);
  }
  return out;
}

std::string basic_authorization(const UfmCredentials& credentials) {
  return "Basic " + go::base64_encode(credentials.username + ":" + credentials.password);
}

api::Expected<std::vector<UfmPort>> fetch_ufm_ports(const UfmSettings& settings,
                                                    const UfmCredentials& credentials,
                                                    std::stop_token stop) {
  kube::Config config;
  config.server = server_of(settings.endpoint);
  config.insecure_skip_tls_verify = settings.insecure_skip_verify;
  std::optional<kube::Transport> transport;
  try {
    transport.emplace(config, kube::TransportOptions{.user_agent = "vc-controller-manager",
                                                     .max_idle_connections = 0,
                                                     .idle_timeout = std::chrono::seconds(0)});
  } catch (const kube::ConfigError& e) {
    return api::Unexpected{std::string("failed to create request: ") + e.what()};
  }
  kube::HttpRequest request;
  request.method = "GET";
  request.target = std::string(kUfmPortsPath);
  request.deadline = std::chrono::steady_clock::now() + kUfmTimeout;
  request.authorization = basic_authorization(credentials);
  request.body_limit = kUfmMaxBody;
  auto response = transport->send(request, stop);
  if (!response) return api::Unexpected{"failed to send request: " + response.error().message};
  if (response->status != 200) {
    return api::Unexpected{"unexpected status code: " + std::to_string(response->status) + " " +
                           response->reason};
  }
  return parse_ufm_ports(response->body);
}

}  // namespace vc::controllers::hypernode

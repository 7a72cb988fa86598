#include "webhook/app/server_version.h"

#include "common/kube/transport.h"

namespace vc::webhook::app {
namespace {

// The leading decimal number of a version field ("35+" -> 35); -1 when there is none.
int leading_number(const std::string& text) {
  int n = -1;
  for (const char c : text) {
    if (c < '0' || c > '9') break;
    n = (n < 0 ? 0 : n * 10) + (c - '0');
    if (n > 100000) return -1;
  }
  return n;
}

}  // namespace

api::Expected<ServerVersion> parse_server_version(const nlohmann::json& body) {
  if (!body.is_object()) return api::Unexpected{"the /version response is not a JSON object"};
  ServerVersion v;
  const auto field = [&](const char* name) -> std::string {
    const auto it = body.find(name);
    return it != body.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  v.major = leading_number(field("major"));
  v.minor = leading_number(field("minor"));
  v.git_version = field("gitVersion");
  if (v.major < 0 || v.minor < 0) {
    return api::Unexpected{"the /version response has no numeric major/minor: " + body.dump()};
  }
  return v;
}

api::Expected<ServerVersion> get_server_version(const kube::Config& config,
                                                const std::string& user_agent,
                                                std::chrono::milliseconds timeout,
                                                std::stop_token stop) {
  kube::Transport transport(config, kube::TransportOptions{user_agent, 1});
  kube::HttpRequest request;
  request.method = "GET";
  request.target = "/version";
  request.deadline = std::chrono::steady_clock::now() + timeout;
  auto response = transport.send(request, stop);
  if (!response.ok()) return api::Unexpected{"GET /version: " + response.error().describe()};
  if (response->status < 200 || response->status >= 300) {
    const auto error = kube::error_from_response(response->status, response->body, "");
    return api::Unexpected{"GET /version: " + error.describe()};
  }
  const auto body = nlohmann::json::parse(response->body, nullptr, false);
  if (body.is_discarded()) return api::Unexpected{"GET /version: the response is not JSON"};
  return parse_server_version(body);
}

bool pod_level_resources_default(const ServerVersion& version) {
  return version.major > 1 || (version.major == 1 && version.minor >= 34);
}

}  // namespace vc::webhook::app

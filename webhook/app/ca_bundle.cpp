#include "webhook/app/ca_bundle.h"

#include <algorithm>

#include "common/go/base64.h"

namespace vc::webhook::app {
namespace {

constexpr std::string_view kBegin = "-----BEGIN CERTIFICATE-----";
constexpr std::string_view kEnd = "-----END CERTIFICATE-----";

// A PEM block as openssl writes it: the body in lines of 64 characters.
std::string pem_block(std::string_view body) {
  std::string out(kBegin);
  out += '\n';
  for (size_t i = 0; i < body.size(); i += 64) {
    out += body.substr(i, 64);
    out += '\n';
  }
  out += kEnd;
  out += '\n';
  return out;
}

const std::string* current_bundle(const nlohmann::json& hook) {
  if (!hook.is_object()) return nullptr;
  const auto config = hook.find("clientConfig");
  if (config == hook.end() || !config->is_object()) return nullptr;
  const auto bundle = config->find("caBundle");
  if (bundle == config->end() || !bundle->is_string()) return nullptr;
  return &bundle->get_ref<const std::string&>();
}

}  // namespace

std::vector<std::string> pem_certificate_bodies(std::string_view pem) {
  std::vector<std::string> out;
  size_t at = 0;
  while (true) {
    const size_t begin = pem.find(kBegin, at);
    if (begin == std::string_view::npos) break;
    const size_t body = begin + kBegin.size();
    const size_t end = pem.find(kEnd, body);
    if (end == std::string_view::npos) break;
    std::string text;
    for (char c : pem.substr(body, end - body)) {
      if (c != ' ' && c != '\t' && c != '\r' && c != '\n') text += c;
    }
    if (!text.empty()) out.push_back(std::move(text));
    at = end + kEnd.size();
  }
  return out;
}

std::string merge_ca_bundle(std::string_view registered, std::string_view ca, int keep_previous) {
  std::string out(ca);
  if (keep_previous <= 0) return out;
  std::vector<std::string> seen = pem_certificate_bodies(ca);
  int kept = 0;
  for (auto& body : pem_certificate_bodies(registered)) {
    if (kept == keep_previous) break;
    if (std::find(seen.begin(), seen.end(), body) != seen.end()) continue;
    if (!out.empty() && out.back() != '\n') out += '\n';
    out += pem_block(body);
    seen.push_back(std::move(body));
    ++kept;
  }
  return out;
}

std::optional<nlohmann::json> plan_ca_bundle(const nlohmann::json& configuration,
                                             std::string_view ca, int keep_previous) {
  const auto hooks = configuration.find("webhooks");
  if (hooks == configuration.end() || !hooks->is_array()) return std::nullopt;
  std::optional<nlohmann::json> out;
  for (size_t i = 0; i < hooks->size(); ++i) {
    const std::string* current = current_bundle((*hooks)[i]);
    std::string registered;
    if (current) {
      if (auto decoded = go::base64_decode(*current)) registered = std::move(*decoded);
    }
    const std::string bundle = go::base64_encode(merge_ca_bundle(registered, ca, keep_previous));
    if (current && *current == bundle) continue;
    if (!out) out = configuration;
    nlohmann::json& target = (*out)["webhooks"][i];
    if (!target.is_object()) target = nlohmann::json::object();
    if (!target["clientConfig"].is_object()) target["clientConfig"] = nlohmann::json::object();
    target["clientConfig"]["caBundle"] = bundle;
  }
  return out;
}

}  // namespace vc::webhook::app

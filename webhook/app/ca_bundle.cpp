#include "webhook/app/ca_bundle.h"

#include "webhook/server/review_codec.h"

namespace vc::webhook::app {

std::optional<nlohmann::json> plan_ca_bundle(const nlohmann::json& configuration,
                                             std::string_view ca) {
  const auto hooks = configuration.find("webhooks");
  if (hooks == configuration.end() || !hooks->is_array()) return std::nullopt;
  const std::string bundle = server::base64_encode(ca);
  std::optional<nlohmann::json> out;
  for (size_t i = 0; i < hooks->size(); ++i) {
    const nlohmann::json& hook = (*hooks)[i];
    const auto* current = hook.is_object() && hook.contains("clientConfig") &&
                                  hook["clientConfig"].is_object() &&
                                  hook["clientConfig"].contains("caBundle")
                              ? &hook["clientConfig"]["caBundle"]
                              : nullptr;
    if (current && current->is_string() && current->get_ref<const std::string&>() == bundle) {
      continue;
    }
    if (!out) out = configuration;
    nlohmann::json& target = (*out)["webhooks"][i];
    if (!target.is_object()) target = nlohmann::json::object();
    if (!target["clientConfig"].is_object()) target["clientConfig"] = nlohmann::json::object();
    target["clientConfig"]["caBundle"] = bundle;
  }
  return out;
}

}  // namespace vc::webhook::app

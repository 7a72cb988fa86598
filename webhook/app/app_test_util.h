#pragma once
// Test-only helpers for the webhook/app tests (header-only so that no test code lands in the
// library): a fake API server with the objects the process reads - /version, webhook
// configurations, the Queue collection (list plus an open watch) and namespaces.
//
// Thread-safety: handlers run on the fake server's threads; every method is thread-safe.

#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/testing/eventually.h"
#include "common/testing/fake_apiserver.h"

namespace vc::webhook::app::test {

using nlohmann::json;
using vc::testing::FakeApiServer;
using vc::testing::Reply;
using vc::testing::Request;
using vc::testing::Response;

inline constexpr const char* kQueuesPath = "/apis/scheduling.volcano.sh/v1beta1/queues";
inline constexpr const char* kMutatingPath =
    "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/";
inline constexpr const char* kValidatingPath =
    "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/";

inline json queue(const std::string& name, const std::string& parent = "",
                  const std::string& rv = "1") {
  json q = {{"apiVersion", "scheduling.volcano.sh/v1beta1"},
            {"kind", "Queue"},
            {"metadata",
             {{"name", name},
              {"resourceVersion", rv},
              {"uid", "uid-" + name},
              {"managedFields", json::array({{{"manager", "kubectl"}}})}}},
            {"spec", {{"weight", 1}}},
            {"status", {{"state", "Open"}}}};
  if (!parent.empty()) q["spec"]["parent"] = parent;
  return q;
}

inline json webhook_configuration(const std::string& kind, const std::string& name,
                                  const json& ca_bundles, const std::string& rv = "7") {
  json c = {{"apiVersion", "admissionregistration.k8s.io/v1"},
            {"kind", kind},
            {"metadata", {{"name", name}, {"resourceVersion", rv}}},
            {"webhooks", json::array()}};
  for (const auto& bundle : ca_bundles) {
    json hook = {{"name", "hook.volcano.sh"}, {"clientConfig", {{"url", "https://x/p"}}}};
    if (!bundle.is_null()) hook["clientConfig"]["caBundle"] = bundle;
    c["webhooks"].push_back(hook);
  }
  return c;
}

// Serves a cluster-scoped collection (the Queues by default): a list of the objects added so far
// and watches that stay open.
class FakeCollection {
 public:
  explicit FakeCollection(FakeApiServer& server, std::string path = kQueuesPath,
                          std::string list_kind = "QueueList",
                          std::string api_version = "scheduling.volcano.sh/v1beta1")
      : state_(std::make_shared<State>()) {
    server.handle("GET", path, [state = state_, list_kind, api_version](const Request& r) -> Reply {
      if (r.param("watch") == "1") return state->watches.open();
      std::lock_guard lock(state->mu);
      json list = {{"kind", list_kind},
                   {"apiVersion", api_version},
                   {"metadata", {{"resourceVersion", "10"}}},
                   {"items", state->items}};
      return Response::json(200, list);
    });
  }
  void add(json object) {
    std::lock_guard lock(state_->mu);
    state_->items.push_back(std::move(object));
  }
  std::shared_ptr<vc::testing::ResponseStream> next_watch(
      std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    return state_->watches.next(timeout);
  }

 private:
  struct State {
    std::mutex mu;
    json items = json::array();
    vc::testing::StreamQueue watches;
  };
  std::shared_ptr<State> state_;
};
using FakeQueues = FakeCollection;

inline void serve_version(FakeApiServer& server, const std::string& minor = "35") {
  server.handle("GET", "/version", [minor](const Request&) {
    return Response::json(200,
                          {{"major", "1"}, {"minor", minor}, {"gitVersion", "v1." + minor + ".3"}});
  });
}

// Polls pred until it holds or the timeout passes; true when it held.
inline bool wait_until(const std::function<bool()>& pred,
                       std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
  return vc::testing::eventually(pred, timeout);
}

}  // namespace vc::webhook::app::test

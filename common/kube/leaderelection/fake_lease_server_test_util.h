#pragma once
// Test helper: one Lease stored behind a FakeApiServer with the API server's optimistic
// concurrency (create fails if it exists, update fails unless resourceVersion matches), plus
// fault injection. Header-only and used only by this directory's tests.

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/kube/client.h"
#include "common/kube/leaderelection/leader_elector.h"
#include "common/testing/fake_apiserver.h"

namespace vc::kube::leaderelection::testutil {

using nlohmann::json;

class FakeLeaseServer {
 public:
  static constexpr const char* kNamespace = "vc-system";
  static constexpr const char* kName = "vc-controller-manager";

  FakeLeaseServer() {
    const std::string collection = "/apis/coordination.k8s.io/v1/namespaces/vc-system/leases";
    const std::string item = collection + "/" + kName;
    server_.handle("GET", item, [this](const vc::testing::Request& r) -> vc::testing::Reply {
      std::lock_guard lock(mu_);
      if (fail_status_ || stalled_) return injected(r);
      if (!lease_ || hide_next_get_) {
        hide_next_get_ = false;
        return not_found();
      }
      return vc::testing::Response::json(200, *lease_);
    });
    server_.handle("POST", collection, [this](const vc::testing::Request& r) -> vc::testing::Reply {
      std::lock_guard lock(mu_);
      if (fail_status_ || stalled_) return injected(r);
      if (lease_) {
        return vc::testing::Response::error(
            409, "AlreadyExists",
            "leases.coordination.k8s.io \"" + std::string(kName) + "\" already exists");
      }
      json body = r.json();
      body["metadata"]["uid"] = "uid-1";
      store(std::move(body));
      return vc::testing::Response::json(201, *lease_);
    });
    server_.handle("PUT", item, [this](const vc::testing::Request& r) -> vc::testing::Reply {
      std::lock_guard lock(mu_);
      if (fail_status_ || stalled_) return injected(r);
      if (!lease_) return not_found();
      json body = r.json();
      if (body["metadata"].value("resourceVersion", "") !=
          (*lease_)["metadata"]["resourceVersion"].get<std::string>()) {
        return vc::testing::Response::error(
            409, "Conflict",
            "Operation cannot be fulfilled on leases.coordination.k8s.io \"" + std::string(kName) +
                "\": the object has been modified; please apply your changes to the latest "
                "version and try again");
      }
      store(std::move(body));
      return vc::testing::Response::json(200, *lease_);
    });
  }

  // A client with a short per-request deadline, as a leader elector should have.
  std::unique_ptr<Client> client(
      std::chrono::milliseconds request_timeout = std::chrono::milliseconds(300)) const {
    ClientOptions o;
    o.request_timeout = request_timeout;
    o.max_retries = 0;
    return std::make_unique<Client>(server_.config(), o);
  }

  std::optional<json> lease() const {
    std::lock_guard lock(mu_);
    return lease_;
  }

  // Another writer replaces the spec (bumping resourceVersion), as a rival candidate would.
  void overwrite_spec(const json& spec) {
    std::lock_guard lock(mu_);
    json l = lease_.value_or(json{{"metadata", {{"name", kName}, {"namespace", kNamespace}}}});
    l["spec"] = spec;
    store(std::move(l));
  }

  // Every request fails with this status from now on; 0 heals the server.
  void fail_with(int status) {
    std::lock_guard lock(mu_);
    fail_status_ = status;
  }

  // Every request goes unanswered from now on (a partition); false heals the server.
  void stall(bool on) {
    std::lock_guard lock(mu_);
    stalled_ = on;
  }

  // The methods of the requests left unanswered, in arrival order.
  std::vector<std::string> stalled_methods() const {
    std::lock_guard lock(mu_);
    return stalled_methods_;
  }

  // Waits until at least n requests have been left unanswered.
  bool wait_for_stalled(std::size_t n, std::chrono::milliseconds timeout) const {
    std::unique_lock lock(mu_);
    return stalled_cv_.wait_for(lock, timeout, [&] { return stalled_methods_.size() >= n; });
  }

  // The next GET answers 404 even if the Lease exists: a rival created it after our read.
  void hide_next_get() {
    std::lock_guard lock(mu_);
    hide_next_get_ = true;
  }

  int writes() const {
    std::lock_guard lock(mu_);
    return writes_;
  }

  vc::testing::FakeApiServer& server() { return server_; }

 private:
  // Caller holds mu_.
  void store(json l) {
    l["metadata"]["resourceVersion"] = std::to_string(++rv_);
    lease_ = std::move(l);
    ++writes_;
  }

  // Caller holds mu_.
  vc::testing::Response injected(const vc::testing::Request& r) {
    if (stalled_) {
      stalled_methods_.push_back(r.method);
      stalled_cv_.notify_all();
      vc::testing::Response r;
      r.stall = true;
      return r;
    }
    return vc::testing::Response::error(fail_status_, "InternalError", "injected failure");
  }

  static vc::testing::Response not_found() {
    return vc::testing::Response::error(
        404, "NotFound", "leases.coordination.k8s.io \"" + std::string(kName) + "\" not found");
  }

  mutable std::mutex mu_;
  std::optional<json> lease_;
  int rv_ = 100;
  int writes_ = 0;
  int fail_status_ = 0;
  bool hide_next_get_ = false;
  bool stalled_ = false;
  std::vector<std::string> stalled_methods_;
  mutable std::condition_variable stalled_cv_;
  vc::testing::FakeApiServer server_;  // last: stopped first, before the state its handlers use
};

// Both clocks of a Clock, moved by hand.
class FakeClock {
 public:
  Clock clock() {
    return Clock{[this] {
                   std::lock_guard lock(mu_);
                   return wall_;
                 },
                 [this] {
                   std::lock_guard lock(mu_);
                   return mono_;
                 }};
  }
  void step(std::chrono::nanoseconds d) {
    std::lock_guard lock(mu_);
    wall_ += std::chrono::duration_cast<WallTime::duration>(d);
    mono_ += d;
  }
  WallTime wall() const {
    std::lock_guard lock(mu_);
    return wall_;
  }

 private:
  mutable std::mutex mu_;
  WallTime wall_{std::chrono::seconds(1700000000)};
  MonoTime mono_{std::chrono::hours(1)};
};

}  // namespace vc::kube::leaderelection::testutil

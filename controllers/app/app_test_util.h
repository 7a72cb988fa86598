#pragma once
// Test helpers for controllers/app: a controller that records its lifecycle, and one Lease behind
// a FakeApiServer with the API server's optimistic concurrency plus a rival candidate's moves.
// Header-only; used by this directory's tests.

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/kube/cache/factory.h"
#include "common/kube/resource.h"
#include "common/testing/eventually.h"
#include "common/testing/fake_apiserver.h"
#include "controllers/framework/controller.h"

namespace vc::controllers::app::testutil {

using nlohmann::json;

// Lines such as "initialize 1", "run 1", "stop 1" (the number is the instance), in call order.
class Journal {
 public:
  void add(std::string line) {
    std::lock_guard lock(mu_);
    lines_.push_back(std::move(line));
    cv_.notify_all();
  }
  std::vector<std::string> lines() const {
    std::lock_guard lock(mu_);
    return lines_;
  }
  bool contains(const std::string& line) const {
    std::lock_guard lock(mu_);
    return std::find(lines_.begin(), lines_.end(), line) != lines_.end();
  }
  // Waits up to timeout for line to appear.
  bool wait_for(const std::string& line, std::chrono::milliseconds timeout) const {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, timeout, [&] {
      return std::find(lines_.begin(), lines_.end(), line) != lines_.end();
    });
  }
  std::string dump() const {
    std::string out;
    for (const auto& l : lines()) out += l + "; ";
    return out;
  }
  int next_instance() {
    std::lock_guard lock(mu_);
    return ++instances_;
  }

 private:
  mutable std::mutex mu_;
  mutable std::condition_variable cv_;
  std::vector<std::string> lines_;
  int instances_ = 0;
};

// Records initialize/run/stop. With watch_queues it asks for a Queue informer, so the term waits
// for that cache to sync.
class JournalController : public Controller {
 public:
  JournalController(std::string name, Journal& journal, bool watch_queues)
      : name_(std::move(name)),
        journal_(journal),
        watch_queues_(watch_queues),
        instance_(journal.next_instance()) {}
  std::string name() const override { return name_; }
  api::Status initialize(ControllerContext& ctx) override {
    if (watch_queues_) ctx.informers.informer(kube::resources::queues);
    journal_.add("initialize " + std::to_string(instance_));
    return api::ok_status();
  }
  void run() override { journal_.add("run " + std::to_string(instance_)); }
  void stop() override { journal_.add("stop " + std::to_string(instance_)); }

 private:
  std::string name_;
  Journal& journal_;
  bool watch_queues_;
  int instance_;
};

inline ControllerFactory journal_factory(std::string name, Journal& journal,
                                         bool watch_queues = false) {
  return [name, &journal, watch_queues] {
    return std::make_unique<JournalController>(name, journal, watch_queues);
  };
}

// Lease <ns>/<name> stored behind server: GET, POST (AlreadyExists if present) and PUT (Conflict
// unless resourceVersion matches).
class FakeLease {
 public:
  FakeLease(vc::testing::FakeApiServer& server, std::string ns, std::string name)
      : ns_(std::move(ns)), name_(std::move(name)) {
    const std::string collection = "/apis/coordination.k8s.io/v1/namespaces/" + ns_ + "/leases";
    const std::string item = collection + "/" + name_;
    server.handle("GET", item, [this](const vc::testing::Request&) -> vc::testing::Reply {
      std::lock_guard lock(mu_);
      if (!lease_) return not_found();
      return vc::testing::Response::json(200, *lease_);
    });
    server.handle("POST", collection, [this](const vc::testing::Request& r) -> vc::testing::Reply {
      std::lock_guard lock(mu_);
      if (lease_) return vc::testing::Response::error(409, "AlreadyExists", "already exists");
      store(r.json());
      return vc::testing::Response::json(201, *lease_);
    });
    server.handle("PUT", item, [this](const vc::testing::Request& r) -> vc::testing::Reply {
      std::lock_guard lock(mu_);
      if (!lease_) return not_found();
      json body = r.json();
      if (body["metadata"].value("resourceVersion", "") !=
          (*lease_)["metadata"]["resourceVersion"].get<std::string>()) {
        return vc::testing::Response::error(409, "Conflict", "the object has been modified");
      }
      store(std::move(body));
      return vc::testing::Response::json(200, *lease_);
    });
  }

  // "" when there is no Lease or nobody holds it.
  std::string holder() const {
    std::lock_guard lock(mu_);
    if (!lease_) return {};
    return (*lease_)["spec"].value("holderIdentity", "");
  }

  // A rival writes itself in as the holder (as after our lease expired in its eyes).
  void rival_takes(const std::string& rival) { set_holder(rival, 15); }
  // The rival steps down: empty holder, so anyone may take over at once.
  void rival_releases() { set_holder("", 1); }

  // Waits until pred(holder) holds; false after timeout.
  bool wait_holder(const std::function<bool(const std::string&)>& pred,
                   std::chrono::milliseconds timeout) const {
    return vc::testing::eventually([&] { return pred(holder()); }, timeout);
  }

 private:
  void set_holder(const std::string& who, int seconds) {
    std::lock_guard lock(mu_);
    json l = lease_.value_or(json{{"metadata", {{"name", name_}, {"namespace", ns_}}}});
    l["spec"]["holderIdentity"] = who;
    l["spec"]["leaseDurationSeconds"] = seconds;
    l["spec"]["renewTime"] = "2030-01-01T00:00:00.000000Z";
    store(std::move(l));
  }
  // Caller holds mu_.
  void store(json l) {
    l["metadata"]["resourceVersion"] = std::to_string(++rv_);
    lease_ = std::move(l);
  }
  static vc::testing::Response not_found() {
    return vc::testing::Response::error(404, "NotFound", "lease not found");
  }

  const std::string ns_;
  const std::string name_;
  mutable std::mutex mu_;
  std::optional<json> lease_;
  int rv_ = 100;
};

}  // namespace vc::controllers::app::testutil

#pragma once
// Test helpers for the cache tests: a scripted pod collection served by the FakeApiServer (pages,
// list versions, watch streams, faults) and a recorder of handler calls.
//
// Threads: the collection's handler runs on server threads; every method is thread-safe.

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/kube/cache/informer.h"
#include "common/testing/eventually.h"
#include "common/testing/fake_apiserver.h"

namespace vc::kube::cache::testing_util {

using nlohmann::json;
using namespace std::chrono_literals;
using vc::testing::FakeApiServer;
using vc::testing::Reply;
using vc::testing::Request;
using vc::testing::Response;
using vc::testing::ResponseStream;
using Events = std::vector<std::string>;

inline json pod(const std::string& ns, const std::string& name, int rv,
                const json& labels = json::object()) {
  return {{"apiVersion", "v1"},
          {"kind", "Pod"},
          {"metadata",
           {{"namespace", ns},
            {"name", name},
            {"uid", "uid-" + name},
            {"resourceVersion", std::to_string(rv)},
            {"labels", labels}}},
          {"spec", {{"nodeName", "node-1"}}},
          {"status", {{"phase", "Running"}}}};
}

inline json gone_status() {
  return {{"kind", "Status"},
          {"apiVersion", "v1"},
          {"status", "Failure"},
          {"reason", "Expired"},
          {"message", "too old resource version"},
          {"code", 410}};
}

// Serves GET <path> as a paged list (limit/continue) and GET <path>?watch=1 as watch streams.
// Each full list (one without a continue token) serves the next queued list version; the last
// version repeats. The state is shared with the server's handler, so it lives as long as either.
class FakeCollection {
 public:
  FakeCollection(FakeApiServer& server, const std::string& path)
      : state_(std::make_shared<State>()) {
    server.handle("GET", path, [state = state_](const Request& r) { return state->serve(r); });
  }

  void add_list_version(std::vector<json> items, int rv) {
    std::lock_guard lock(state_->mu);
    state_->versions.push_back({std::move(items), std::to_string(rv)});
  }
  // The next list page requested at this offset (0 = the first page) gets this response.
  void fail_list_page_once(size_t offset, Response r) {
    std::lock_guard lock(state_->mu);
    state_->page_faults.emplace_back(offset, std::move(r));
  }
  void fail_next_watch(Response r) {
    std::lock_guard lock(state_->mu);
    state_->watch_faults.push_back(std::move(r));
  }
  void fail_every_list(Response r) {
    std::lock_guard lock(state_->mu);
    state_->list_failure = std::move(r);
  }

  std::shared_ptr<ResponseStream> next_watch(std::chrono::milliseconds timeout = 10s) {
    return state_->watches.next(timeout);
  }
  // The resourceVersion parameter of every watch request, in order.
  std::vector<std::string> watch_versions() const {
    std::lock_guard lock(state_->mu);
    return state_->watch_versions;
  }
  // The continue parameter of every list request ("" for a first page), in order.
  std::vector<std::string> list_continues() const {
    std::lock_guard lock(state_->mu);
    return state_->list_continues;
  }
  std::vector<std::string> list_limits() const {
    std::lock_guard lock(state_->mu);
    return state_->list_limits;
  }

 private:
  struct Version {
    std::vector<json> items;
    std::string rv;
  };

  struct State {
    Reply serve(const Request& r) {
      std::lock_guard lock(mu);
      if (r.param("watch") == "1") {
        watch_versions.push_back(r.param("resourceVersion"));
        if (r.param("allowWatchBookmarks") != "true") {
          return Response::error(400, "BadRequest", "test expects allowWatchBookmarks=true");
        }
        if (!watch_faults.empty()) {
          Response fault = std::move(watch_faults.front());
          watch_faults.pop_front();
          return fault;
        }
        return watches.open();
      }
      list_continues.push_back(r.param("continue"));
      list_limits.push_back(r.param("limit"));
      if (list_failure) return *list_failure;
      const size_t offset = r.has_param("continue") ? std::stoul(r.param("continue")) : 0;
      for (auto it = page_faults.begin(); it != page_faults.end(); ++it) {
        if (it->first != offset) continue;
        Response fault = std::move(it->second);
        page_faults.erase(it);
        return fault;
      }
      if (offset == 0 && lists_started && served + 1 < versions.size()) ++served;
      lists_started = true;
      const Version& v = versions.at(served);
      const size_t limit = r.has_param("limit") ? std::stoul(r.param("limit")) : v.items.size();
      const size_t end = std::min(v.items.size(), offset + limit);
      json list = {{"kind", "PodList"},
                   {"apiVersion", "v1"},
                   {"metadata", {{"resourceVersion", v.rv}}},
                   {"items", json::array()}};
      for (size_t i = offset; i < end; ++i) {
        json item = v.items[i];
        item.erase("kind");  // real lists omit the items' kind and apiVersion
        item.erase("apiVersion");
        list["items"].push_back(std::move(item));
      }
      if (end < v.items.size()) list["metadata"]["continue"] = std::to_string(end);
      return Response::json(200, list);
    }

    vc::testing::StreamQueue watches;
    std::mutex mu;
    std::vector<Version> versions;
    size_t served = 0;
    bool lists_started = false;
    std::vector<std::pair<size_t, Response>> page_faults;
    std::deque<Response> watch_faults;
    std::optional<Response> list_failure;
    std::vector<std::string> watch_versions;
    std::vector<std::string> list_continues;
    std::vector<std::string> list_limits;
  };

  std::shared_ptr<State> state_;
};

// Records handler calls as "add ns/a@1", "update ns/a@1->2", "delete ns/a@2".
class Recorder {
 public:
  EventHandler handler() {
    EventHandler h;
    h.on_add = [this](const ObjectPtr& o) {
      record("add " + o->key() + "@" + o->resource_version);
    };
    h.on_update = [this](const ObjectPtr& old_obj, const ObjectPtr& new_obj) {
      record("update " + new_obj->key() + "@" + old_obj->resource_version + "->" +
             new_obj->resource_version + (old_obj == new_obj ? " (same)" : ""));
    };
    h.on_delete = [this](const ObjectPtr& o) {
      record("delete " + o->key() + "@" + o->resource_version);
    };
    return h;
  }

  // Waits until at least n calls were recorded (or 10 s passed) and returns all calls so far.
  Events wait_for(size_t n, std::chrono::milliseconds timeout = 10s) {
    std::unique_lock lock(mu_);
    cv_.wait_for(lock, timeout, [&] { return events_.size() >= n; });
    return events_;
  }
  // Waits until a call equal to e was recorded; returns all calls so far.
  Events wait_for_event(const std::string& e, std::chrono::milliseconds timeout = 10s) {
    std::unique_lock lock(mu_);
    cv_.wait_for(lock, timeout,
                 [&] { return std::find(events_.begin(), events_.end(), e) != events_.end(); });
    return events_;
  }
  Events events() const {
    std::lock_guard lock(mu_);
    return events_;
  }
  size_t size() const {
    std::lock_guard lock(mu_);
    return events_.size();
  }

 private:
  void record(std::string e) {
    {
      std::lock_guard lock(mu_);
      events_.push_back(std::move(e));
    }
    cv_.notify_all();
  }

  mutable std::mutex mu_;
  std::condition_variable cv_;
  Events events_;
};

using vc::testing::eventually;

inline std::chrono::steady_clock::time_point in(std::chrono::milliseconds d) {
  return std::chrono::steady_clock::now() + d;
}

// Client options for tests: no client-side rate limit and no retries, so faults reach the
// reflector unchanged.
inline ClientOptions test_client_options() {
  ClientOptions o;
  o.qps = 0;
  o.max_retries = 0;
  return o;
}

// Informer options with a fast backoff so fault tests do not wait 800 ms.
inline InformerOptions fast_options() {
  InformerOptions o;
  o.backoff.initial = 5ms;
  o.backoff.max = 50ms;
  return o;
}

}  // namespace vc::kube::cache::testing_util

#pragma once
// Test helpers for the gc-controller tests: Volcano Job JSON and a FakeApiServer that serves the
// Job collection (list + watch) and scripted GET/DELETE answers per job.
//
// Threads: handlers run on server threads; every method is thread-safe.

#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/api/time.h"
#include "common/kube/client.h"
#include "common/testing/fake_apiserver.h"

namespace vc::controllers::gc::testing_util {

using nlohmann::json;
using vc::testing::FakeApiServer;
using vc::testing::Reply;
using vc::testing::Request;
using vc::testing::Response;

// A client that reports the first failure instead of retrying it.
inline kube::ClientOptions no_retries() {
  kube::ClientOptions o;
  o.max_retries = 0;
  return o;
}

inline const char* kJobsPath = "/apis/batch.volcano.sh/v1alpha1/jobs";

inline std::string job_path(const std::string& ns, const std::string& name) {
  return "/apis/batch.volcano.sh/v1alpha1/namespaces/" + ns + "/jobs/" + name;
}

// A Job in phase `phase` whose state changed at `finished` (whole seconds, as the API keeps it).
inline json job(const std::string& ns, const std::string& name, const std::string& phase,
                std::optional<int64_t> ttl, api::TimePoint finished,
                const std::string& uid = "uid-1") {
  json j = {
      {"apiVersion", "batch.volcano.sh/v1alpha1"},
      {"kind", "Job"},
      {"metadata", {{"namespace", ns}, {"name", name}, {"uid", uid}, {"resourceVersion", "10"}}},
      {"spec", {{"tasks", json::array()}}},
      {"status",
       {{"state", {{"phase", phase}, {"lastTransitionTime", api::format_rfc3339(finished)}}}}}};
  if (ttl) j["spec"]["ttlSecondsAfterFinished"] = *ttl;
  return j;
}

// Serves the job list (and an idle watch), GET of single jobs from the same set unless a fresh
// copy is set, and DELETE answers (200 by default) scripted per job. The state is shared with
// the server's handlers, so it lives as long as either.
class FakeJobs {
 public:
  FakeJobs(FakeApiServer& server, std::vector<json> jobs) : state_(std::make_shared<State>()) {
    state_->jobs = std::move(jobs);
    server.handle("GET", kJobsPath, [s = state_](const Request& r) { return s->list(r); });
    server.handle_prefix("*", "/apis/batch.volcano.sh/v1alpha1/namespaces/",
                         [s = state_](const Request& r) { return s->answer(r); });
  }

  // The next DELETE of this job gets r instead of 200.
  void script_delete(const std::string& name, Response r) {
    std::lock_guard lock(state_->mu);
    state_->delete_answers[name].push_back(std::move(r));
  }
  // When each DELETE of this job reached the server (wall clock).
  std::vector<api::TimePoint> delete_times(const std::string& name) const {
    std::lock_guard lock(state_->mu);
    auto it = state_->delete_times.find(name);
    return it == state_->delete_times.end() ? std::vector<api::TimePoint>{} : it->second;
  }
  // GET of this job answers with `fresh` from now on.
  void set_fresh(const std::string& name, json fresh) {
    std::lock_guard lock(state_->mu);
    state_->fresh[name] = std::move(fresh);
  }

 private:
  struct State {
    Reply list(const Request& r) {
      if (r.param("watch") == "1") return watches.open();
      json out = {{"kind", "JobList"},
                  {"apiVersion", "batch.volcano.sh/v1alpha1"},
                  {"metadata", {{"resourceVersion", "10"}}},
                  {"items", json::array()}};
      std::lock_guard lock(mu);
      for (const json& j : jobs) out["items"].push_back(j);
      return Response::json(200, out);
    }

    Reply answer(const Request& r) {
      const std::string name = r.path.substr(r.path.rfind('/') + 1);
      std::lock_guard lock(mu);
      if (r.method == "DELETE") {
        delete_times[name].push_back(std::chrono::system_clock::now());
        auto& q = delete_answers[name];
        if (!q.empty()) {
          Response resp = std::move(q.front());
          q.pop_front();
          return resp;
        }
        return Response::json(200, {{"kind", "Status"}, {"status", "Success"}});
      }
      if (r.method != "GET") return Response::error(405, "MethodNotAllowed", r.method);
      if (auto it = fresh.find(name); it != fresh.end()) return Response::json(200, it->second);
      for (const json& j : jobs) {
        if (j["metadata"]["name"] == name) return Response::json(200, j);
      }
      return Response::error(404, "NotFound", "jobs.batch.volcano.sh \"" + name + "\" not found");
    }

    mutable std::mutex mu;
    std::vector<json> jobs;
    std::map<std::string, json> fresh;
    std::map<std::string, std::deque<Response>> delete_answers;
    std::map<std::string, std::vector<api::TimePoint>> delete_times;
    vc::testing::StreamQueue watches;
  };

  std::shared_ptr<State> state_;
};

// The requests with this method and path, in order.
inline std::vector<Request> requests_to(const FakeApiServer& server, const std::string& method,
                                        const std::string& path) {
  std::vector<Request> out;
  for (const Request& r : server.requests()) {
    if (r.method == method && r.path == path) out.push_back(r);
  }
  return out;
}

}  // namespace vc::controllers::gc::testing_util

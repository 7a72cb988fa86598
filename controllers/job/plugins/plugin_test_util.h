#pragma once
// Test helpers for the plugin tests (header-only, included by *_test.cpp only): jobs and the pods
// the controller would hand to on_pod_create, and ObjectStore, a FakeApiServer that keeps the
// objects the plugins create so tests can assert on what was created, updated and deleted.
//
// Threads: ObjectStore's handlers run on the server's connection threads; the store is guarded
// by a mutex and every public method may be called from the test thread.

#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/testing/fake_apiserver.h"
#include "controllers/job/model/job.h"

namespace vc::controllers::job::plugins::testing {

using nlohmann::json;

inline TaskSpec make_task(std::string name, std::int32_t replicas, std::string hostname = "",
                          std::string subdomain = "") {
  TaskSpec task;
  task.name = std::move(name);
  task.replicas = replicas;
  task.template_hostname = std::move(hostname);
  task.template_subdomain = std::move(subdomain);
  return task;
}

inline Job make_job(std::string name, std::vector<TaskSpec> tasks) {
  Job job;
  job.namespace_ = "ns1";
  job.name = std::move(name);
  job.uid = "0a1b2c3d-uid";
  job.resource_version = "100";
  job.spec.queue = "default";
  job.spec.tasks = std::move(tasks);
  return job;
}

// A pod as derive/pod.h builds it before plugins run: the labels and annotations of
// spec job-controller.md §0.4, the owner reference, one container "main" (plus an init container
// "setup" when asked).
inline json make_pod(const Job& job, const std::string& task, int index, bool with_init = false) {
  const std::string name = job.name + "-" + task + "-" + std::to_string(index);
  json pod = {{"apiVersion", "v1"},
              {"kind", "Pod"},
              {"metadata",
               {{"name", name},
                {"namespace", job.namespace_},
                {"labels",
                 {{keys::kJobName, job.name},
                  {keys::kJobNamespace, job.namespace_},
                  {keys::kQueueName, "default"},
                  {keys::kTaskSpec, task},
                  {keys::kTaskIndex, std::to_string(index)}}},
                {"annotations",
                 {{keys::kJobName, job.name},
                  {keys::kTaskSpec, task},
                  {keys::kTaskIndex, std::to_string(index)},
                  {keys::kGroupName, job.name + "-" + job.uid},
                  {keys::kQueueName, "default"},
                  {keys::kJobVersion, "0"},
                  {keys::kJobRetryCount, "0"},
                  {keys::kTemplateUid, job.name + "-" + task}}},
                {"ownerReferences", json::array({{{"apiVersion", kJobApiVersion},
                                                  {"kind", kJobKind},
                                                  {"name", job.name},
                                                  {"uid", job.uid},
                                                  {"controller", true},
                                                  {"blockOwnerDeletion", true}}})}}},
              {"spec",
               {{"schedulerName", "volcano"},
                {"restartPolicy", "Never"},
                {"containers", json::array({{{"name", "main"},
                                             {"image", "busybox:1.36"},
                                             {"command", json::array({"sleep", "10"})}}})}}}};
  if (with_init) {
    pod["spec"]["initContainers"] = json::array({{{"name", "setup"}, {"image", "busybox:1.36"}}});
  }
  return pod;
}

inline json controller_ref(const Job& job) {
  return {{"apiVersion", kJobApiVersion},
          {"kind", kJobKind},
          {"name", job.name},
          {"uid", job.uid},
          {"controller", true},
          {"blockOwnerDeletion", true}};
}

// An in-memory API server for namespaced core/v1 and networking.k8s.io/v1 objects: GET, POST
// (AlreadyExists on a duplicate), PUT (Conflict on a stale resourceVersion) and DELETE (NotFound
// when absent). fail(method, path, status, reason) scripts an error for one path.
class ObjectStore {
 public:
  ObjectStore() {
    for (const char* prefix : {"/api/v1/namespaces/", "/apis/networking.k8s.io/v1/namespaces/"}) {
      server_.handle_prefix("*", prefix,
                            [this](const vc::testing::Request& r) { return serve(r); });
    }
  }

  vc::kube::Config config() const { return server_.config(); }
  vc::testing::FakeApiServer& server() { return server_; }

  // path: "/api/v1/namespaces/ns1/configmaps/job-svc".
  bool has(const std::string& path) const {
    std::lock_guard lock(mu_);
    return objects_.count(path) > 0;
  }
  json get(const std::string& path) const {
    std::lock_guard lock(mu_);
    auto it = objects_.find(path);
    return it == objects_.end() ? json() : it->second;
  }
  void put(const std::string& path, json object) {
    std::lock_guard lock(mu_);
    object["metadata"]["resourceVersion"] = std::to_string(++version_);
    objects_[path] = std::move(object);
  }
  void fail(const std::string& method, const std::string& path, int status, std::string reason) {
    std::lock_guard lock(mu_);
    failures_[method + " " + path] = {status, std::move(reason)};
  }
  // "POST /api/v1/namespaces/ns1/services" etc., in order, without the query string.
  std::vector<std::string> calls() const {
    std::vector<std::string> out;
    for (const auto& r : server_.requests()) out.push_back(r.method + " " + r.path);
    return out;
  }
  void clear_calls() { server_.clear_requests(); }

 private:
  vc::testing::Reply serve(const vc::testing::Request& r) {
    using vc::testing::Response;
    std::lock_guard lock(mu_);
    if (auto f = failures_.find(r.method + " " + r.path); f != failures_.end()) {
      return Response::error(f->second.first, f->second.second, "scripted failure");
    }
    if (r.method == "POST") {
      json body = r.json();
      const std::string path = r.path + "/" + body["metadata"]["name"].get<std::string>();
      if (objects_.count(path) > 0) return Response::error(409, "AlreadyExists", "exists");
      body["metadata"]["resourceVersion"] = std::to_string(++version_);
      objects_[path] = body;
      return Response::json(201, body);
    }
    auto it = objects_.find(r.path);
    if (it == objects_.end()) return Response::error(404, "NotFound", r.path + " not found");
    if (r.method == "GET") return Response::json(200, it->second);
    if (r.method == "DELETE") {
      objects_.erase(it);
      return Response::json(200, {{"kind", "Status"}, {"status", "Success"}});
    }
    if (r.method == "PUT") {
      json body = r.json();
      if (body["metadata"].value("resourceVersion", "") !=
          it->second["metadata"].value("resourceVersion", "")) {
        return Response::error(409, "Conflict", "the object has been modified");
      }
      body["metadata"]["resourceVersion"] = std::to_string(++version_);
      it->second = body;
      return Response::json(200, body);
    }
    return Response::error(405, "MethodNotAllowed", r.method);
  }

  mutable std::mutex mu_;
  std::map<std::string, json> objects_;
  std::map<std::string, std::pair<int, std::string>> failures_;
  int version_ = 0;
  // Last: destroyed first, so no handler runs once the maps are gone.
  vc::testing::FakeApiServer server_;
};

}  // namespace vc::controllers::job::plugins::testing

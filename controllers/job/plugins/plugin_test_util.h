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

#include "common/testing/memory_api.h"
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

// The objects the plugins create, addressed by API path ("/api/v1/namespaces/ns1/services/job1")
// as the plugin tests assert them: a view over testing::MemoryApi (GET, POST with AlreadyExists,
// PUT with Conflict on a stale resourceVersion, DELETE with NotFound), which the plugins write
// through as their ObjectWriter (api()). fail(method, path, status, reason) scripts an error for
// one call; calls() lists the calls as "METHOD path".
class ObjectStore {
 public:
  vc::kube::ObjectWriter& api() { return memory_; }

  bool has(const std::string& path) const { return get(path) != json(); }
  json get(const std::string& path) const {
    const Address a = address(path);
    return memory_.find(*a.resource, a.key).value_or(json());
  }
  void put(const std::string& path, json object) {
    const Address a = address(path);
    object["metadata"]["namespace"] = a.ns;
    memory_.put(*a.resource, std::move(object));
  }
  void fail(const std::string& method, const std::string& path, int status, std::string reason) {
    const bool collection = method == "POST";
    const Address a = collection ? address(path + "/*") : address(path);
    vc::kube::ApiError e;
    e.kind = vc::kube::ErrorKind::Other;
    if (status == 403) e.kind = vc::kube::ErrorKind::Forbidden;
    if (status == 404) e.kind = vc::kube::ErrorKind::NotFound;
    if (status == 409) e.kind = vc::kube::ErrorKind::Conflict;
    e.http_status = status;
    e.reason = reason;
    e.message = "scripted failure";
    // A POST names no object: the failure applies to whatever is created in the collection.
    memory_.fail_next(verb_of(method), *a.resource, collection ? a.ns + "/*" : a.key, std::move(e));
  }
  // "POST /api/v1/namespaces/ns1/services", "GET <object path>", ... in order.
  std::vector<std::string> calls() const {
    std::vector<std::string> out;
    for (const auto& c : memory_.calls()) {
      const vc::kube::Resource& r = resource(c.resource);
      const auto slash = c.key.find('/');
      const std::string ns = c.key.substr(0, slash);
      const std::string name = c.key.substr(slash + 1);
      if (c.verb == "create") {
        out.push_back("POST " + r.path(ns));
      } else {
        out.push_back(method_of(c.verb) + " " + r.path(ns, name));
      }
    }
    return out;
  }
  std::string describe_calls() const {
    std::string out;
    for (const auto& c : calls()) out += c + "\n";
    return out;
  }
  void clear_calls() { memory_.clear_calls(); }

 private:
  struct Address {
    const vc::kube::Resource* resource;
    std::string ns;
    std::string key;  // "ns/name"
  };
  static const vc::kube::Resource& resource(const std::string& plural) {
    for (const vc::kube::Resource* r :
         {&vc::kube::resources::services, &vc::kube::resources::configmaps,
          &vc::kube::resources::secrets, &vc::kube::resources::networkpolicies}) {
      if (r->plural == plural) return *r;
    }
    throw std::invalid_argument("ObjectStore: no resource " + plural);
  }
  // ".../namespaces/<ns>/<plural>/<name>"
  static Address address(const std::string& path) {
    const auto at = path.find("/namespaces/");
    if (at == std::string::npos) throw std::invalid_argument("ObjectStore: bad path " + path);
    std::string rest = path.substr(at + 12);
    const std::string ns = rest.substr(0, rest.find('/'));
    rest = rest.substr(ns.size() + 1);
    const std::string plural = rest.substr(0, rest.find('/'));
    const std::string name = rest.substr(plural.size() + 1);
    const vc::kube::Resource& r = resource(plural);
    return {&r, ns, ns + "/" + name};
  }
  static std::string verb_of(const std::string& method) {
    if (method == "GET") return "get";
    if (method == "PUT") return "update";
    if (method == "DELETE") return "delete";
    return "create";
  }
  static std::string method_of(const std::string& verb) {
    if (verb == "get") return "GET";
    if (verb == "update") return "PUT";
    if (verb == "delete") return "DELETE";
    if (verb == "patch") return "PATCH";
    return "POST";
  }

  vc::testing::MemoryApi memory_;
};

}  // namespace vc::controllers::job::plugins::testing

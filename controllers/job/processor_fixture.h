#pragma once
// JobFixture: the job controller's processing on in-memory parts, for tests in the style of
// Kubernetes' sample-controller: seed the API (testing::MemoryApi) with a Queue and a Job, let
// the "informers" catch up (the stores are refilled from the API's objects through the same view
// transforms the controller installs), call process(request) synchronously and assert the exact
// ordered list of API writes and events. Every pod call runs in order on the test's thread
// (max_parallel_pod_calls = 1), status times come from a fixed clock and generated names from a
// counter, so a test's expectations are exact. A cache that lags the controller's own writes is
// simulated by processing again without catch_up(), or with catch_up_lacking(). Test-only header.
//
// Threads: single-threaded, like the test that owns it.

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/kube/cache/store.h"
#include "common/kube/events/recorder.h"
#include "common/kube/resource.h"
#include "common/testing/memory_api.h"
#include "controllers/job/job_processor.h"
#include "controllers/job/job_store.h"
#include "controllers/job/job_syncer.h"
#include "controllers/job/model/job_json.h"
#include "controllers/job/state/delayed_actions.h"
#include "controllers/views/command_view.h"
#include "controllers/views/pod_view.h"
#include "controllers/views/podgroup_view.h"
#include "controllers/views/queue_view.h"

namespace vc::controllers::job::testing {

using nlohmann::json;

// Records events as "<Normal|Warning> <reason>: <message>".
class EventLog final : public kube::events::EventRecorder {
 public:
  void event(const kube::events::ObjectReference&, kube::events::EventType type, std::string reason,
             std::string message) override {
    lines.push_back(std::string(type == kube::events::EventType::Warning ? "Warning " : "Normal ") +
                    reason + ": " + message);
  }
  std::vector<std::string> lines;
};

// A Job of one or more tasks, each of `replicas` busybox pods; minAvailable = total replicas.
inline json job_json(const std::string& name, std::vector<std::pair<std::string, int>> tasks,
                     const std::string& ns = "ns1") {
  json task_list = json::array();
  int total = 0;
  for (const auto& [task, replicas] : tasks) {
    total += replicas;
    task_list.push_back(
        {{"name", task},
         {"replicas", replicas},
         {"template",
          {{"spec",
            {{"restartPolicy", "Never"},
             {"containers",
              json::array({{{"name", "main"},
                            {"image", "busybox"},
                            {"resources", {{"requests", {{"cpu", "100m"}}}}}}})}}}}}});
  }
  return {{"apiVersion", "batch.volcano.sh/v1alpha1"},
          {"kind", "Job"},
          {"metadata", {{"name", name}, {"namespace", ns}}},
          {"spec",
           {{"schedulerName", "volcano"},
            {"queue", "default"},
            {"minAvailable", total},
            {"maxRetry", 3},
            {"tasks", task_list}}}};
}

class JobFixture {
 public:
  JobFixture()
      : jobs_(std::make_unique<kube::cache::Store>()),
        pods_(std::make_unique<kube::cache::Store>()),
        podgroups_(std::make_unique<kube::cache::Store>()),
        queues_(std::make_unique<kube::cache::Store>()),
        pvcs_(std::make_unique<kube::cache::Store>()),
        commands_(std::make_unique<kube::cache::Store>()) {
    pods_->add_indexer(kJobPodsIndex, job_pods_index);
    job_store_ = std::make_unique<JobStore>(*jobs_);
    SyncerOptions options;
    options.max_parallel_pod_calls = 1;
    options.now = [this] { return wall_now; };
    options.random_name = [this] { return "r" + std::to_string(++names_); };
    syncer_ = std::make_unique<JobSyncer>(
        api, events, SyncerCaches{*pods_, *podgroups_, *queues_, *pvcs_, nullptr}, *job_store_,
        pending, options);
    ProcessorHooks hooks;
    hooks.enqueue = [this](const Request& r) { enqueued.push_back(r); };
    hooks.wake_timer = [this] { ++timer_wakes; };
    hooks.now = [this] { return steady_now; };
    processor_ = std::make_unique<JobProcessor>(*job_store_, *syncer_, delayed, events, api,
                                                commands_.get(), std::move(hooks));
    api.put(kube::resources::queues, {{"apiVersion", "scheduling.volcano.sh/v1beta1"},
                                      {"kind", "Queue"},
                                      {"metadata", {{"name", "default"}}},
                                      {"spec", {{"weight", 1}}},
                                      {"status", {{"state", "Open"}}}});
  }

  // Stores the job in the API and lets the informers catch up; returns its stored form.
  json add_job(json job) {
    json stored = api.put(kube::resources::jobs, std::move(job));
    catch_up();
    return stored;
  }

  // The informers deliver the API's current objects (every store is replaced).
  void catch_up() { catch_up_lacking(kube::resources::jobs, {}); }

  // The informers deliver the API's current objects, except the objects of resource r with these
  // keys ("<namespace>/<name>"), whose events are still on their way: a store lacks such an
  // object or keeps the version it had.
  void catch_up_lacking(const kube::Resource& r, const std::vector<std::string>& keys) {
    refill(*jobs_, kube::resources::jobs, job_view_transform(), r, keys);
    refill(*pods_, kube::resources::pods, views::pod_view_transform(), r, keys);
    refill(*podgroups_, kube::resources::podgroups, views::podgroup_view_transform(), r, keys);
    refill(*queues_, kube::resources::queues, views::queue_view_transform(), r, keys);
    refill(*pvcs_, kube::resources::persistentvolumeclaims, kube::cache::Transform(), r, keys);
    refill(*commands_, kube::resources::commands, views::command_view_transform(), r, keys);
    // The pod handler forgets each created pod the informer shows (even one deleted since, whose
    // add and delete events both came); the lagging ones stay recorded.
    for (const json& job : api.objects(kube::resources::jobs)) {
      const std::string job_key =
          job["metadata"].value("namespace", "") + "/" + job["metadata"].value("name", "");
      for (const auto& pod : pending.pods_created.of(job_key)) {
        const bool lagging = r.plural == kube::resources::pods.plural &&
                             std::find(keys.begin(), keys.end(), pod->key()) != keys.end();
        if (!lagging) pending.pods_created.forget(job_key, pod->uid);
      }
    }
  }

  // Processes one request on the current stores and clears nothing.
  ReconcileResult process(const Request& r) { return processor_->process(r); }
  ReconcileResult process_command(const std::string& key) {
    return processor_->process_command(key);
  }
  void give_up(const Request& r, const std::string& error) { processor_->give_up(r, error); }

  // The plain sync an informer event of the job becomes.
  static Request sync(const std::string& job = "job1", const std::string& ns = "ns1") {
    return job_request(ns, job, event::kOutOfSync);
  }

  // Moves the job's PodGroup to phase (the scheduler's write) and catches up.
  void set_podgroup_phase(const std::string& job, const std::string& phase,
                          const std::string& ns = "ns1") {
    for (json pg : api.objects(kube::resources::podgroups)) {
      if (pg["metadata"].value("namespace", "") != ns) continue;
      // A job's PodGroup is named "<job>-<job uid>".
      if (pg["metadata"]["name"].get<std::string>().rfind(job + "-", 0) != 0) continue;
      pg["status"]["phase"] = phase;
      api.put(kube::resources::podgroups, std::move(pg));
    }
    catch_up();
  }

  // Sets status.phase of the named pods (the kubelet's write); exit_code for a terminated
  // container when not null.
  void set_pod_phase(const std::vector<std::string>& names, const std::string& phase,
                     std::optional<int> exit_code = std::nullopt, const std::string& ns = "ns1") {
    for (const std::string& name : names) {
      auto pod = api.find(kube::resources::pods, ns + "/" + name);
      if (!pod) continue;
      (*pod)["status"]["phase"] = phase;
      if (exit_code) {
        (*pod)["status"]["containerStatuses"] = json::array(
            {{{"name", "main"}, {"state", {{"terminated", {{"exitCode", *exit_code}}}}}}});
      }
      api.put(kube::resources::pods, std::move(*pod));
    }
    catch_up();
  }

  // Names of the pods in the API, sorted.
  std::vector<std::string> pod_names() const {
    std::vector<std::string> out;
    for (const json& p : api.objects(kube::resources::pods)) {
      out.push_back(p["metadata"]["name"].get<std::string>());
    }
    return out;
  }

  // The job's status in the API.
  json job_status(const std::string& job = "job1", const std::string& ns = "ns1") const {
    auto j = api.find(kube::resources::jobs, ns + "/" + job);
    return j && j->contains("status") ? (*j)["status"] : json();
  }
  std::string job_phase(const std::string& job = "job1") const {
    const json st = job_status(job);
    return st.is_object() && st.contains("state") ? st["state"].value("phase", "") : "";
  }

  // The API writes since the last call, and forgets them: "<verb> <resource> <key>", and for a
  // Job status write the phase it writes.
  std::vector<std::string> take_writes() {
    std::vector<std::string> out;
    for (const auto& c : api.calls()) {
      if (c.verb == "get") continue;
      std::string line = c.verb + " " + c.resource + " " + c.key;
      if (c.verb == "update-status" && c.resource == "jobs") {
        line += " " + c.body["status"]["state"].value("phase", "");
      }
      out.push_back(std::move(line));
    }
    api.clear_calls();
    return out;
  }
  std::vector<std::string> take_events() {
    auto e = std::move(events.lines);
    events.lines.clear();
    return e;
  }

  vc::testing::MemoryApi api;
  EventLog events;
  PendingWrites pending;
  DelayedActions delayed;
  std::vector<Request> enqueued;
  int timer_wakes = 0;
  std::chrono::system_clock::time_point wall_now =
      std::chrono::sys_days{std::chrono::year{2026} / 1 / 1} + std::chrono::hours(1);
  std::chrono::steady_clock::time_point steady_now{std::chrono::hours(1)};

 private:
  void refill(kube::cache::Store& store, const kube::Resource& r,
              const kube::cache::Transform& transform, const kube::Resource& lagging,
              const std::vector<std::string>& lagging_keys) {
    const bool lags = r.plural == lagging.plural && !lagging_keys.empty();
    std::vector<kube::cache::ObjectPtr> objects;
    for (json o : api.objects(r)) {
      const std::string key = kube::cache::object_key(o["metadata"].value("namespace", ""),
                                                      o["metadata"].value("name", ""));
      if (lags && std::find(lagging_keys.begin(), lagging_keys.end(), key) != lagging_keys.end()) {
        continue;
      }
      objects.push_back(transform.fn ? transform.fn(std::move(o))
                                     : kube::cache::json_transform(std::move(o)));
    }
    if (lags) {
      // A lagging object keeps its cached version, if it had one.
      for (const std::string& key : lagging_keys) {
        if (auto cached = store.get(key)) objects.push_back(std::move(cached));
      }
    }
    store.replace(std::move(objects));
  }

  std::unique_ptr<kube::cache::Store> jobs_, pods_, podgroups_, queues_, pvcs_, commands_;
  std::unique_ptr<JobStore> job_store_;
  std::unique_ptr<JobSyncer> syncer_;
  std::unique_ptr<JobProcessor> processor_;
  int names_ = 0;
};

}  // namespace vc::controllers::job::testing

#pragma once
// Test-only builders for the sync module's tests: a Job with tasks and cached PodViews shaped as
// the job controller creates them. Header-only so that it stays out of the vc_job_sync library.
//
// Threads: plain functions; use from the test thread.

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "controllers/job/model/job.h"
#include "controllers/views/pod_view.h"

namespace vc::controllers::job::sync_test {

inline Job make_job(std::string name = "job1", std::string ns = "ns1") {
  Job job;
  job.namespace_ = std::move(ns);
  job.name = std::move(name);
  job.uid = "uid-1";
  job.resource_version = "7";
  return job;
}

inline TaskSpec make_task(std::string name, std::int32_t replicas,
                          std::optional<std::int32_t> min_available = std::nullopt) {
  TaskSpec task;
  task.name = std::move(name);
  task.replicas = replicas;
  task.min_available = min_available;
  return task;
}

// A pod of job/task at index with its controller's labels, annotations and owner reference.
// phase must outlive the view (PodView holds it as a string_view): pass a literal.
struct PodBuilder {
  std::shared_ptr<views::PodView> pod = std::make_shared<views::PodView>();

  PodBuilder(const Job& job, const std::string& task, std::int32_t index,
             std::string_view phase = "Pending") {
    pod->namespace_ = job.namespace_;
    pod->name = job.name + "-" + task + "-" + std::to_string(index);
    pod->uid = pod->name + "-uid";
    pod->phase = phase;
    annotate(keys::kJobName, job.name);
    annotate(keys::kTaskSpec, task);
    annotate(keys::kJobVersion, "0");
    pod->owner_references.push_back({kJobApiVersion, kJobKind, job.name, job.uid, true, true});
  }
  PodBuilder& name(std::string n) {
    pod->name = std::move(n);
    return *this;
  }
  // key must outlive the view (it is interned in real views): pass a constant.
  PodBuilder& annotate(std::string_view key, std::string value) {
    auto& list = pod->annotations;
    auto it = std::find_if(list.begin(), list.end(), [&](const auto& a) { return a.key == key; });
    if (it != list.end()) {
      it->value = std::move(value);
    } else {
      list.push_back({key, std::move(value)});
    }
    std::sort(list.begin(), list.end(), [](const auto& a, const auto& b) { return a.key < b.key; });
    return *this;
  }
  PodBuilder& drop_annotation(std::string_view key) {
    std::erase_if(pod->annotations, [&](const auto& a) { return a.key == key; });
    return *this;
  }
  PodBuilder& label(std::string key, std::string value) {
    pod->labels.emplace_back(std::move(key), std::move(value));
    std::sort(pod->labels.begin(), pod->labels.end());
    return *this;
  }
  PodBuilder& deleting() {
    pod->deletion_timestamp = api::TimePoint{} + std::chrono::hours(24 * 365 * 50);
    return *this;
  }
  PodBuilder& container(bool ready, bool init = false) {
    views::ContainerStatusView cs;
    cs.ready = ready;
    cs.init = init;
    pod->container_statuses.push_back(cs);
    return *this;
  }
  views::PodViewPtr build() const { return pod; }
  operator views::PodViewPtr() const { return pod; }  // NOLINT: terse test tables
};

// The pods' names, in order.
inline std::vector<std::string> names(const std::vector<views::PodViewPtr>& pods) {
  std::vector<std::string> out;
  for (const auto& p : pods) out.push_back(p->name);
  return out;
}

}  // namespace vc::controllers::job::sync_test

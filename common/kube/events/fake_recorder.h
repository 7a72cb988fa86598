#pragma once
// FakeRecorder: an EventRecorder that keeps events in memory, for unit tests of code that
// records events (controllers). Thread-safe.

#include <mutex>
#include <string>
#include <vector>

#include "common/kube/events/recorder.h"

namespace vc::kube::events {

class FakeRecorder final : public EventRecorder {
 public:
  void event(const ObjectReference& object, EventType type, std::string reason,
             std::string message) override {
    std::lock_guard lock(mu_);
    events_.push_back(Event{object, type, std::move(reason), std::move(message), {}});
  }

  std::vector<Event> events() const {
    std::lock_guard lock(mu_);
    return events_;
  }

  // "Warning PodGroupPending 3/4 tasks in gang unschedulable", one per event, in order.
  std::vector<std::string> lines() const {
    std::lock_guard lock(mu_);
    std::vector<std::string> out;
    for (const Event& e : events_)
      out.push_back(std::string(to_string(e.type)) + " " + e.reason + " " + e.message);
    return out;
  }

 private:
  mutable std::mutex mu_;
  std::vector<Event> events_;
};

}  // namespace vc::kube::events

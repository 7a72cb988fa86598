#include "controllers/job/state/delayed_actions.h"

#include "controllers/job/state/policy.h"

namespace vc::controllers::job {
namespace {

// Whether an armed entry is in the scope of an executed action of type `type`
// (spec job-controller.md §3.4).
bool same_scope(ActionType type, const Request& armed, const Request& executed) {
  switch (type) {
    case ActionType::Job:
      return true;
    case ActionType::Task:
      return armed.task_name == executed.task_name;
    case ActionType::Pod:
      return armed.pod_name == executed.pod_name;
    case ActionType::Partition:
      return armed.partition_id == executed.partition_id;
  }
  return false;
}

}  // namespace

void DelayedActions::erase_locked(std::map<Slot, DelayedAction>::iterator it) {
  by_due_.erase(DueKey{it->second.due, it->second.id});
  slots_.erase(it);
}

bool DelayedActions::add(const Request& req, std::string action, TimePoint due) {
  std::lock_guard lock(mu_);
  Slot slot{req.job_key(), req.pod_name};
  auto it = slots_.find(slot);
  if (it != slots_.end()) {
    if (it->second.action == action) return false;
    // A different action replaces the armed one, which must then never fire (a fix of
    // spec job-controller.md §8.6).
    erase_locked(it);
  }
  DelayedAction entry{next_id_++, req, std::move(action), due};
  by_due_.emplace(DueKey{entry.due, entry.id}, slot);
  slots_.emplace(std::move(slot), std::move(entry));
  return true;
}

std::vector<DelayedAction> DelayedActions::cancel_for_pod_event(const Request& req) {
  std::vector<DelayedAction> removed;
  if (!is_pod_event(req.event) || req.event == event::kPodPending) return removed;
  std::lock_guard lock(mu_);
  auto it = slots_.find(Slot{req.job_key(), req.pod_name});
  if (it == slots_.end()) return removed;
  const Request& armed = it->second.request;
  // A pod deleted and re-created under the same name may have its new PodPending queued before
  // the old pod's delete: only the same pod (UID) leaving Pending cancels a PodPending timer.
  const bool left_pending = armed.event == event::kPodPending && armed.pod_uid == req.pod_uid;
  const bool recovered = (armed.event == event::kPodFailed || armed.event == event::kPodEvicted) &&
                         req.event == event::kPodRunning;
  if (left_pending || recovered) {
    removed.push_back(it->second);
    erase_locked(it);
  }
  return removed;
}

std::vector<DelayedAction> DelayedActions::cancel_same_type(const Request& req,
                                                            std::string_view action) {
  std::vector<DelayedAction> removed;
  const ActionType type = action_type(action);
  const std::string key = req.job_key();
  std::lock_guard lock(mu_);
  for (auto it = slots_.lower_bound(Slot{key, ""}); it != slots_.end() && it->first.first == key;) {
    const DelayedAction& armed = it->second;
    if (action_type(armed.action) == type && same_scope(type, armed.request, req)) {
      removed.push_back(armed);
      auto next = std::next(it);
      erase_locked(it);
      it = next;
    } else {
      ++it;
    }
  }
  return removed;
}

std::vector<DelayedAction> DelayedActions::pop_due(TimePoint now) {
  std::vector<DelayedAction> due;
  std::lock_guard lock(mu_);
  while (!by_due_.empty() && by_due_.begin()->first.first <= now) {
    auto slot_it = slots_.find(by_due_.begin()->second);
    due.push_back(std::move(slot_it->second));
    by_due_.erase(by_due_.begin());
    slots_.erase(slot_it);
  }
  return due;
}

std::optional<DelayedActions::TimePoint> DelayedActions::next_due() const {
  std::lock_guard lock(mu_);
  if (by_due_.empty()) return std::nullopt;
  return by_due_.begin()->first.first;
}

void DelayedActions::forget_job(std::string_view job_key) {
  const std::string key(job_key);
  std::lock_guard lock(mu_);
  auto it = slots_.lower_bound(Slot{key, ""});
  while (it != slots_.end() && it->first.first == key) {
    auto next = std::next(it);
    erase_locked(it);
    it = next;
  }
}

std::size_t DelayedActions::size() const {
  std::lock_guard lock(mu_);
  return slots_.size();
}

}  // namespace vc::controllers::job

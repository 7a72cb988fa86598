#include "webhook/admission/jobs/policies.h"

#include <algorithm>
#include <set>

#include "webhook/admission/field_error.h"

namespace vc::webhook::jobs {

const std::vector<std::string>& allowed_policy_events() {
  static const std::vector<std::string> kEvents{"*",          "JobUpdated", "PodEvicted",
                                                "PodFailed",  "PodPending", "TaskCompleted",
                                                "TaskFailed", "Unknown"};
  return kEvents;
}

const std::vector<std::string>& allowed_policy_actions() {
  static const std::vector<std::string> kActions{"AbortJob",         "CompleteJob", "RestartJob",
                                                 "RestartPartition", "RestartPod",  "RestartTask",
                                                 "ResumeJob",        "TerminateJob"};
  return kActions;
}

namespace {

bool contains(const std::vector<std::string>& list, std::string_view v) {
  return std::find(list.begin(), list.end(), v) != list.end();
}

// Go's %v of a []string: "[a b c]".
std::string go_list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += ' ';
    out += items[i];
  }
  return out + "]";
}

}  // namespace

std::string multierror_text(const std::vector<std::string>& errors) {
  if (errors.empty()) return {};
  std::string out = errors.size() == 1 ? std::string("1 error occurred:\n")
                                       : std::to_string(errors.size()) + " errors occurred:\n";
  for (const auto& e : errors) out += "\t* " + e + "\n";
  return out + "\n";
}

std::string valid_events_and_actions_suffix() {
  return " valid events are " + go_list(allowed_policy_events()) + ", valid actions are " +
         go_list(allowed_policy_actions()) + ";";
}

std::string validate_policies(const std::vector<LifecyclePolicy>& policies, std::string_view path) {
  std::vector<std::string> errors;
  std::set<std::string> seen_events;
  std::set<std::int32_t> seen_exit_codes;
  const FieldPath field(std::string{path});
  for (const auto& policy : policies) {
    const bool has_event = !policy.event.empty() || !policy.events.empty();
    if (has_event && policy.exit_code) {
      errors.push_back("must not specify event and exitCode simultaneously");
      break;
    }
    if (!has_event && !policy.exit_code) {
      errors.push_back("either event and exitCode should be specified");
      break;
    }
    if (has_event) {
      std::vector<std::string> events;
      for (const auto& e : policy.events) {
        if (!contains(events, e)) events.push_back(e);
      }
      if (!policy.event.empty() && !contains(events, policy.event)) events.push_back(policy.event);
      bool stop = false;
      for (const auto& e : events) {
        if (!contains(allowed_policy_events(), e)) {
          errors.push_back(
              invalid(field, BadValue::json_value(e), "invalid policy event").message());
          stop = true;
        } else if (!contains(allowed_policy_actions(), policy.action)) {
          errors.push_back(
              invalid(field, BadValue::json_value(policy.action), "invalid policy action")
                  .message());
          stop = true;
        } else if (seen_events.count(e)) {
          errors.push_back("duplicate event " + e + "  across different policy");
          stop = true;
        }
        if (stop) break;
        seen_events.insert(e);
      }
      if (stop) break;
    } else {
      if (*policy.exit_code == 0) {
        errors.push_back("0 is not a valid error code");
        break;
      }
      if (seen_exit_codes.count(*policy.exit_code)) {
        errors.push_back("duplicate exitCode " + std::to_string(*policy.exit_code));
        break;
      }
      seen_exit_codes.insert(*policy.exit_code);
    }
  }
  if (seen_events.count("*") && seen_events.size() > 1) {
    errors.push_back("if there's * here, no other policy should be here");
  }
  return multierror_text(errors);
}

}  // namespace vc::webhook::jobs

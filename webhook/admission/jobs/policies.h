#pragma once
// Lifecycle-policy validation of Job CREATE (spec webhook.md §2.2.1) and the allow-lists of
// spec webhook.md §5.4.
//
// Threads: pure functions.

#include <string>
#include <string_view>
#include <vector>

#include "webhook/admission/jobs/job_view.h"

namespace vc::webhook::jobs {

// Events and actions a user policy may name, sorted (Volcano prints them in Go map order; we
// print a stable order).
const std::vector<std::string>& allowed_policy_events();
const std::vector<std::string>& allowed_policy_actions();

// hashicorp/go-multierror's text: "1 error occurred:\n\t* m\n\n", "2 errors occurred:...".
std::string multierror_text(const std::vector<std::string>& errors);

// validatePolicies: the multierror text, or "" when the policies are valid. `path` is the field
// path printed in invalid-event/action errors ("spec.policies", "spec.tasks.policies").
std::string validate_policies(const std::vector<LifecyclePolicy>& policies, std::string_view path);

// The fragment Job CREATE appends after a policy error:
// " valid events are [..], valid actions are [..];".
std::string valid_events_and_actions_suffix();

}  // namespace vc::webhook::jobs

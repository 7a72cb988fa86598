#pragma once
// Pod-template validation of Job tasks (spec webhook.md §2.2.2): the ported subset of
// ValidatePodTemplate on the template as Kubernetes' v1 defaulting would leave it (the rules not
// ported are listed in UNPORTED.md next to this file), then Volcano's NUMA topology-policy cpu
// check.
//
// Threads: pure functions.

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "webhook/admission/field_error.h"
#include "webhook/admission/jobs/job_view.h"
#include "webhook/admission/options.h"

namespace vc::webhook::jobs {

// The v1 defaults that decide validation results (restartPolicy, dnsPolicy,
// terminationGracePeriodSeconds, terminationMessagePolicy, imagePullPolicy, port protocol, host
// ports under hostNetwork), applied to a copy of a v1.PodTemplateSpec. Validation does not call
// it: it reads those fields through the same defaults in place (the copy per task and its
// release were 15 % of a job validate review's instructions). Tests hold the two to agreement.
nlohmann::json default_pod_template(const nlohmann::json& template_);

// ValidatePodTemplate on a PodTemplate named `name` in namespace `ns` whose template is
// `template_` with the defaults above (validate_pod_template(t) ==
// validate_pod_template(default_pod_template(t))). Field paths start with "metadata." and
// "template.".
FieldErrorList validate_pod_template(const nlohmann::json& template_, const std::string& name,
                                     const std::string& ns, bool pod_level_resources);

// validateTaskTemplate: "" or Volcano's message, "spec.task[i]." followed by every error and
// ". ", or the topology-policy cpu message.
std::string validate_task_template(const TaskSpec& task, std::size_t index, const std::string& ns,
                                   const AdmissionOptions& options);

}  // namespace vc::webhook::jobs

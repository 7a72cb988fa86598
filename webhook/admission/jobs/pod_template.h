#pragma once
// Pod-template validation of Job tasks (webhook.md §2.2.2): Kubernetes' v1 defaulting of the
// fields that validation looks at, then the ported subset of ValidatePodTemplate (the rules not
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
// ports under hostNetwork), applied to a copy of a v1.PodTemplateSpec.
nlohmann::json default_pod_template(const nlohmann::json& template_);

// ValidatePodTemplate on a PodTemplate named `name` in namespace `ns` whose template is the
// (defaulted) `template_`. Field paths start with "metadata." and "template.".
FieldErrorList validate_pod_template(const nlohmann::json& template_, const std::string& name,
                                     const std::string& ns, bool pod_level_resources);

// validateTaskTemplate: "" or Volcano's message, "spec.task[i]." followed by every error and
// ". ", or the topology-policy cpu message.
std::string validate_task_template(const TaskSpec& task, std::size_t index, const std::string& ns,
                                   const AdmissionOptions& options);

}  // namespace vc::webhook::jobs

#pragma once
// Pieces of the pod-template validation shared between pod_template.cpp, pod_containers.cpp
// and pod_resources.cpp. Not part of the folder's public API.
//
// Threads: pure functions.

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "webhook/admission/field_error.h"

namespace vc::webhook::jobs::detail {

using nlohmann::json;

// Names of the volumes that validated cleanly (mount names must refer to one of them).
using VolumeNames = std::set<std::string>;

// The value a field has once Kubernetes' v1 defaulting has run, read without applying it: the
// pod-template validation runs on a defaulted pod, and reading through these spares a copy of
// the template per task. default_pod_template applies the same defaults to a copy, written out
// on their own so that a test can hold the two against each other.
std::string termination_message_policy(const json& container);  // "File" when unset
std::string image_pull_policy(const json& container);           // default_pull_policy when unset
// imagePullPolicy's default: Always for ":latest" or an untagged image, else IfNotPresent.
std::string default_pull_policy(const std::string& image);
std::string port_protocol(const json& port);  // "TCP" when unset
// containerPort when unset (0) under hostNetwork.
std::int64_t host_port(const json& port, bool host_network);

// validateContainers / validateInitContainers, reading defaulted fields through the above.
void validate_containers(const json& spec, const VolumeNames& volumes, const FieldPath& path,
                         FieldErrorList& errs);
void validate_init_containers(const json& spec, const VolumeNames& volumes, const FieldPath& path,
                              FieldErrorList& errs);

// validateResourceRequirements for a container (pod_level=false) or for spec.resources.
void validate_resource_requirements(const json& requirements, bool pod_level, const FieldPath& path,
                                    FieldErrorList& errs);
// validatePodResourceConsistency: pod-level requests against the containers' aggregate.
void validate_pod_resource_consistency(const json& spec, const FieldPath& path,
                                       FieldErrorList& errs);

// ValidateLabels (unversioned): every key as a qualified name, every value as a label value.
void validate_labels(const json& labels, const FieldPath& path, FieldErrorList& errs);

}  // namespace vc::webhook::jobs::detail

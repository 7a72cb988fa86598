#pragma once
// Pieces of the pod-template validation shared between pod_template.cpp, pod_containers.cpp
// and pod_resources.cpp. Not part of the folder's public API.
//
// Threads: pure functions.

#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "webhook/admission/field_error.h"

namespace vc::webhook::jobs::detail {

using nlohmann::json;

// Names of the volumes that validated cleanly (mount names must refer to one of them).
using VolumeNames = std::set<std::string>;

// validateContainers / validateInitContainers over the defaulted spec.
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

#pragma once
// Which resource group of the pod admission configuration a pod belongs to
// (spec webhook.md §2.7, Volcano's namespace and annotation matchers).
//
// Threads: pure functions.

#include <map>
#include <string>

#include "webhook/admission/pod_admission_config.h"

namespace vc::webhook::pods {

inline constexpr const char* kResourceGroupAnnotation = "volcano.sh/resource-group";

// The annotations an annotation group selects on: every object.value entry parsed as a YAML
// map of strings (entries that do not parse are skipped), merged the way Volcano's mergo call
// merges them: a key takes the first non-empty value given for it.
std::map<std::string, std::string> group_annotations(const ResourceGroup& group);

// object.key "namespace": the pod's namespace is listed. "annotation" or "": some selected
// annotation has the given value on the pod (a missing annotation reads as ""), or, for "",
// the pod's volcano.sh/resource-group annotation names the group. Any other key never matches.
bool pod_in_group(const ResourceGroup& group, const std::string& pod_namespace,
                  const std::map<std::string, std::string>& pod_annotations);

}  // namespace vc::webhook::pods

#pragma once
// A JobFlow step's `patch.jobSpec` merged into its JobTemplate's spec (ours, behind
// --jobflow-patches; docs/jobflow-patches.md). Volcano v1.15.1 decodes the patch and ignores it
// (spec controller-manager.md §5.2); with the flag off so do we.
//
// The merge follows Volcano's design for template parameter overriding: lists of named things
// merge entry by entry on their key, maps merge key by key, everything else is replaced.
//   - Job: `tasks` by name (a patch task without a name patches every task), `volumes` by
//     mountPath, `plugins` by plugin name; any other field replaces the template's.
//   - Task: `template` merges as a pod template; any other field replaces.
//   - Pod template: `metadata.labels` and `metadata.annotations` by key; `spec.containers` and
//     `spec.initContainers` by name, `spec.volumes` by name, `spec.tolerations` by key,
//     `spec.hostAliases` by ip, `spec.nodeSelector` by key; any other field replaces.
//   - Container: `env` by name, `volumeMounts` by mountPath, `ports` by containerPort,
//     `resources.requests` and `resources.limits` by resource name; any other field replaces.
// A matched list entry of a replaced kind (a volume, a toleration, ...) is replaced whole; a
// patch entry without its key, or with no match, is appended. A null in the patch changes
// nothing. The result is what the flow's Job is created with: the API server and the webhook
// judge it as they judge any Job.
//
// Threads: a pure function.

#include <nlohmann/json.hpp>

namespace vc::controllers::jobflow {

nlohmann::json apply_flow_patch(const nlohmann::json& template_spec,
                                const nlohmann::json& patch_spec);

}  // namespace vc::controllers::jobflow

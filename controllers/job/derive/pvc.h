#pragma once
// PersistentVolumeClaims the job controller creates for spec.volumes entries that have no
// claim name but a volumeClaim (spec job-controller.md §4.5).
//
// Threads: pure functions; callable from any thread.

#include <string>

#include <nlohmann/json.hpp>

#include "controllers/job/derive/pod.h"  // RandomName
#include "controllers/job/model/job.h"

namespace vc::controllers::job {

// "<job>-pvc-<rand12>". The caller retries with a new name while the PVC lister has it.
std::string generated_pvc_name(const Job& job, const RandomName& rand12);

// The PVC {name, namespace, controller ownerReference, spec = the volume's claim spec}.
// claim_spec_text is VolumeSpec::volume_claim_text. Throws std::invalid_argument if it is not a
// JSON object (the model stores what the API server sent, so this is a programmer error).
nlohmann::json build_pvc(const Job& job, const std::string& name,
                         const std::string& claim_spec_text);

}  // namespace vc::controllers::job

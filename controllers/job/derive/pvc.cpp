#include "controllers/job/derive/pvc.h"

#include <stdexcept>

#include "common/api/owner_ref.h"

namespace vc::controllers::job {

std::string generated_pvc_name(const Job& job, const RandomName& rand12) {
  return job.name + "-pvc-" + rand12();
}

nlohmann::json build_pvc(const Job& job, const std::string& name,
                         const std::string& claim_spec_text) {
  nlohmann::json spec = nlohmann::json::parse(claim_spec_text, nullptr, /*allow_exceptions=*/false);
  if (spec.is_discarded() || !spec.is_object()) {
    throw std::invalid_argument("spec.volumes[" + name + "].volumeClaim: not a JSON object");
  }
  return {{"apiVersion", "v1"},
          {"kind", "PersistentVolumeClaim"},
          {"metadata",
           {{"name", name},
            {"namespace", job.namespace_},
            {"ownerReferences", nlohmann::json::array({api::make_controller_ref(
                                    kJobApiVersion, kJobKind, job.name, job.uid)})}}},
          {"spec", std::move(spec)}};
}

}  // namespace vc::controllers::job

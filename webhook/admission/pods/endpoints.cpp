#include "webhook/admission/pods/endpoints.h"

#include "webhook/admission/pods/admit.h"

namespace vc::webhook::pods {

std::vector<Endpoint> endpoints() {
  return {
      {"/pods/mutate", true, admit_pods_mutate},
      {"/pods/validate", false, admit_pods_validate},
  };
}

}  // namespace vc::webhook::pods

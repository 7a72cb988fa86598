#include "webhook/admission/scheduling/endpoints.h"

#include "webhook/admission/scheduling/admit.h"

namespace vc::webhook::scheduling {

std::vector<Endpoint> endpoints() {
  return {
      {"/podgroups/mutate", true, admit_podgroups_mutate},
      {"/podgroups/validate", false, admit_podgroups_validate},
      {"/queues/mutate", true, admit_queues_mutate},
      {"/queues/validate", false, admit_queues_validate},
      {"/hypernodes/validate", false, admit_hypernodes_validate},
  };
}

}  // namespace vc::webhook::scheduling

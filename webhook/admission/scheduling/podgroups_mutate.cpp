// /podgroups/mutate (spec webhook.md §2.3).

#include "common/go/strconv.h"
#include "common/volcano/go_types.h"
#include "webhook/admission/field_error.h"
#include "webhook/admission/go_readers.h"
#include "webhook/admission/request_checks.h"
#include "webhook/admission/scheduling/admit.h"
#include "webhook/admission/scheduling/offline.h"
#include "webhook/admission/scheduling/podgroup_request.h"

namespace vc::webhook::scheduling {

namespace {
constexpr const char* kQueueNameAnnotation = "scheduling.volcano.sh/queue-name";
}  // namespace

AdmissionResponse admit_podgroups_mutate(const AdmissionRequest& request, const ClusterView& view,
                                         const AdmissionOptions& /*options*/) {
  if (auto e = check_and_decode(request, kPodGroupsResource, volcano::go_types::podgroup())) {
    return AdmissionResponse::deny(*e);
  }
  if (request.operation != "CREATE") {
    return AdmissionResponse::deny("invalid operation `" + request.operation +
                                   "`, expect operation to be `CREATE`");
  }
  auto podgroup = decode_podgroup_request(request);
  if (!podgroup) return AdmissionResponse::deny(podgroup.error());
  // The CRD defaults spec.queue to "default"; only those PodGroups follow their namespace.
  if (podgroup->spec.queue != "default") return {};

  const std::string& ns = podgroup->namespace_;
  AdmissionResponse response;
  if (!view.online()) {
    response.warnings.push_back(
        skipped_offline("the queue annotation of namespace " + go::quote(ns)));
    return response;
  }
  auto namespace_object = view.get_namespace(ns);
  if (!namespace_object.ok()) {
    // Fail open as Volcano does, but say why the queue stayed "default".
    response.warnings.push_back(
        "could not read namespace " + go::quote(ns) +
        " for its queue annotation, spec.queue stays \"default\": " + namespace_object.error());
    return response;
  }
  // An empty annotation value counts too: Volcano then sets spec.queue to "".
  const auto* value = go_find(*namespace_object, {"metadata", "annotations", kQueueNameAnnotation});
  if (!value || !value->is_string()) return response;
  response.patch = json::array({{{"op", "add"}, {"path", "/spec/queue"}, {"value", *value}}});
  return response;
}

}  // namespace vc::webhook::scheduling

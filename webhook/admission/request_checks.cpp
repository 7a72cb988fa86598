#include "webhook/admission/request_checks.h"

namespace vc::webhook {

std::optional<std::string> expect_resource(const AdmissionRequest& request,
                                           const GroupVersionResource& want) {
  if (request.resource == want) return std::nullopt;
  return "expect resource to be {" + want.group + " " + want.version + " " + want.resource + "}";
}

std::optional<std::string> check_and_decode(const AdmissionRequest& request,
                                            const GroupVersionResource& want,
                                            const go::GoType& type) {
  if (auto e = expect_resource(request, want)) return e;
  return go::check_go_types(request.object, type, kNameQuantityField);
}

}  // namespace vc::webhook

// /queues/validate (spec webhook.md §2.6 and §3.2): the order of Volcano's steps. The rules
// themselves are in queue_fields.cpp, queue_parent.cpp and queue_hierarchy.cpp.

#include <optional>

#include "common/volcano/go_types.h"
#include "webhook/admission/request_checks.h"
#include "webhook/admission/scheduling/admit.h"
#include "webhook/admission/scheduling/queue_rules.h"

namespace vc::webhook::scheduling {
namespace {

// Semantic equality (quantities by value, absent equal to empty) of the three resource lists.
bool same_resources(const QueueModel& a, const QueueModel& b) {
  return a.capability == b.capability && a.deserved == b.deserved && a.guarantee == b.guarantee;
}

AdmissionResponse deny(std::string message, std::vector<std::string> warnings) {
  AdmissionResponse response = AdmissionResponse::deny(std::move(message));
  response.warnings = std::move(warnings);
  return response;
}

AdmissionResponse create_or_update(const AdmissionRequest& request, const ClusterView& view,
                                   const AdmissionOptions& options) {
  const bool create = request.operation == "CREATE";
  const QueueModel queue = read_queue(request.object);
  std::vector<std::string> warnings;
  if (auto e = validate_queue_fields(queue, view, warnings); !e.empty()) {
    return deny(std::move(e), std::move(warnings));
  }
  std::optional<QueueModel> old;
  if (!create) {
    if (auto e = go::check_go_types(request.old_object, volcano::go_types::queue(),
                                    kNameQuantityField)) {
      return deny(std::move(*e), std::move(warnings));
    }
    old = read_queue(request.old_object);
  }
  if (create || old->parent != queue.parent) {
    if (auto e = validate_queue_parent(queue, view, options, warnings); !e.empty()) {
      return deny(std::move(e), std::move(warnings));
    }
  }
  if (options.enable_root_queue_protection && !create && queue.name == "root" &&
      !same_resources(queue, *old)) {
    return deny(
        "root queue's resource attributes (capability, deserved, guarantee) cannot be "
        "modified",
        std::move(warnings));
  }
  // The root is never checked; an update is checked only when its place or resources changed.
  const bool check_hierarchy = queue.name != "root" && (create || old->parent != queue.parent ||
                                                        !same_resources(queue, *old));
  if (check_hierarchy) {
    if (auto e = validate_queue_hierarchy(queue, view, warnings); !e.empty()) {
      return deny(std::move(e), std::move(warnings));
    }
  }
  AdmissionResponse response;
  response.warnings = std::move(warnings);
  return response;
}

}  // namespace

AdmissionResponse admit_queues_validate(const AdmissionRequest& request, const ClusterView& view,
                                        const AdmissionOptions& options) {
  // DELETE carries no object, which decodes as an empty Queue.
  if (auto e = check_and_decode(request, kQueuesResource, volcano::go_types::queue())) {
    return AdmissionResponse::deny(*e);
  }
  if (request.operation == "CREATE" || request.operation == "UPDATE") {
    return create_or_update(request, view, options);
  }
  if (request.operation == "DELETE") {
    std::vector<std::string> warnings;
    auto e = validate_queue_delete(request.name, view, options, warnings);
    AdmissionResponse response = e.empty() ? AdmissionResponse() : AdmissionResponse::deny(e);
    response.warnings = std::move(warnings);
    return response;
  }
  return AdmissionResponse::deny("invalid operation `" + request.operation +
                                 "`, expect operation to be `CREATE`, `UPDATE` or `DELETE`");
}

}  // namespace vc::webhook::scheduling

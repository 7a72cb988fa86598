// validateQueue of /queues/validate (spec webhook.md §2.6 step 1): field errors under
// "requestBody", aggregated. Resource names are visited in sorted order, where Volcano's order
// is random.

#include "common/go/strconv.h"
#include "webhook/admission/field_error.h"
#include "webhook/admission/scheduling/offline.h"
#include "webhook/admission/scheduling/queue_rules.h"
#include "webhook/admission/scheduling/resource.h"

namespace vc::webhook::scheduling {
namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t pos; (pos = s.find(sep, start)) != std::string::npos; start = pos + 1) {
    parts.push_back(s.substr(start, pos - start));
  }
  parts.push_back(s.substr(start));
  return parts;
}

// Kubernetes' ValidateResourceQuantityValue.
void validate_quantity(const std::string& name, const api::Quantity& q, const FieldPath& path,
                       FieldErrorList& errors) {
  if (q.sign() < 0) {
    errors.add(invalid(path, BadValue::str(q.to_string()), "must be greater than or equal to 0"));
  }
  if (is_integer_resource_name(name) && q.milli_value() % 1000 != 0) {
    errors.add(invalid(path, BadValue::json_value(q.to_string()), "must be an integer"));
  }
}

// guarantee <= deserved <= capability, per resource.
void validate_resources(const QueueModel& queue, const FieldPath& spec, FieldErrorList& errors) {
  for (const auto& [name, q] : queue.capability) {
    validate_quantity(name, q, spec.child("capability").child(name), errors);
  }
  for (const auto& [name, q] : queue.deserved) {
    validate_quantity(name, q, spec.child("deserved").child(name), errors);
  }
  for (const auto& [name, g] : queue.guarantee) {
    validate_quantity(name, g, spec.child("guarantee").child("resource").child(name), errors);
    const FieldPath deserved_path = spec.child("deserved").child(name);
    auto d = queue.deserved.find(name);
    if (d == queue.deserved.end()) {
      errors.add(
          invalid(deserved_path, BadValue::str("<nil>"),
                  "deserved[" + name + "] must be >= guarantee[" + name + "]=" + g.to_string()));
    } else if (d->second < g) {
      errors.add(invalid(deserved_path, BadValue::str(d->second.to_string()),
                         "deserved[" + name + "]=" + d->second.to_string() +
                             " must be >= guarantee[" + name + "]=" + g.to_string()));
    }
  }
  if (queue.deserved.empty() || queue.capability.empty()) return;
  for (const auto& [name, d] : queue.deserved) {
    auto c = queue.capability.find(name);
    if (c == queue.capability.end() || !(d > c->second)) continue;  // no capability: no limit
    errors.add(invalid(spec.child("deserved").child(name), BadValue::str(d.to_string()),
                       "deserved[" + name + "]=" + d.to_string() + " must be <= capability[" +
                           name + "]=" + c->second.to_string()));
  }
}

// The state lives in status, but Volcano's path says spec.
void validate_state(const QueueModel& queue, const FieldPath& root, FieldErrorList& errors) {
  if (queue.state.empty() || queue.state == "Open" || queue.state == "Closed") return;
  errors.add(invalid(root.child("spec").child("state"), BadValue::json_value(queue.state),
                     "queue state must be in [Open Closed]"));
}

// The hierarchy annotations: as many weights as path parts, each a positive number, and no other
// queue below this one's path. Only the first problem is reported.
void validate_hierarchy_annotations(const QueueModel& queue, const FieldPath& root,
                                    const ClusterView& view, FieldErrorList& errors,
                                    std::vector<std::string>& warnings) {
  const std::string hierarchy = queue.annotation(kHierarchyAnnotation);
  const std::string weights = queue.annotation(kHierarchyWeightsAnnotation);
  if (hierarchy.empty() && weights.empty()) return;
  const FieldPath path = root.child("metadata").child("annotations");
  const auto weight_parts = split(weights, '/');
  if (split(hierarchy, '/').size() != weight_parts.size()) {
    errors.add(invalid(path, BadValue::str(hierarchy),
                       std::string(kHierarchyAnnotation) + " must have the same length with " +
                           kHierarchyWeightsAnnotation));
    return;
  }
  for (const auto& weight : weight_parts) {
    auto value = go::parse_float(weight, 64);
    if (!value.ok()) {
      errors.add(invalid(path, BadValue::str(weights),
                         weight + " in the " + weights + " is invalid number: " + value.error()));
      return;
    }
    if (*value <= 0) {  // NaN passes, as in Go
      errors.add(invalid(path, BadValue::str(weights),
                         weight + " in the " + weights + " must be larger than 0"));
      return;
    }
  }
  if (!view.online()) {
    warnings.push_back(skipped_offline("the volcano.sh/hierarchy sub-path check"));
    return;
  }
  for (const auto& other : read_all_queues(view)) {
    const std::string other_hierarchy = other.annotation(kHierarchyAnnotation);
    if (other_hierarchy.empty() || other.name == queue.name ||
        other_hierarchy.rfind(hierarchy + "/", 0) != 0) {
      continue;
    }
    errors.add(invalid(path, BadValue::str(hierarchy),
                       hierarchy + " is not allowed to be in the sub path of " + other_hierarchy +
                           " of queue " + other.name));
    return;
  }
}

}  // namespace

std::string validate_queue_fields(const QueueModel& queue, const ClusterView& view,
                                  std::vector<std::string>& warnings) {
  const FieldPath root("requestBody");
  FieldErrorList errors;
  validate_resources(queue, root.child("spec"), errors);
  validate_state(queue, root, errors);
  validate_hierarchy_annotations(queue, root, view, errors, warnings);
  return errors.aggregate();
}

}  // namespace vc::webhook::scheduling

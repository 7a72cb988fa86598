#pragma once
// Which admission endpoints the API server would call for an object, by apiVersion and kind, in
// the order it calls them: the mutating endpoint first, then the validating one on the mutated
// object (spec webhook.md §1). Only CREATE is modelled: `check` asks "would this manifest be
// admitted if it were created now".
//
// Threads: pure functions; find_endpoint's table is built once, thread-safely.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/kube/resource.h"
#include "webhook/admission/endpoint.h"

namespace vc::webhook::check {

struct Route {
  kube::Resource resource;         // group, version, plural and scope
  std::vector<std::string> paths;  // endpoint paths in call order
  // The API server resets status on CREATE before the validating webhooks run (custom resources
  // with a status subresource, and pods); PodGroups have no status subresource.
  bool drops_status = true;
};

// nullopt: no Volcano webhook admits this kind. /pods/mutate is routed only when
// with_pods_mutate (an --admission-conf was given; without one it never patches).
std::optional<Route> route_for(std::string_view api_version, std::string_view kind,
                               bool with_pods_mutate);

// An endpoint of jobs::endpoints(), scheduling::endpoints() or pods::endpoints() by path; null
// when no such endpoint exists.
const Endpoint* find_endpoint(std::string_view path);

}  // namespace vc::webhook::check

#include "webhook/check/routing.h"

#include <map>

#include "webhook/admission/jobs/endpoints.h"
#include "webhook/admission/pods/endpoints.h"
#include "webhook/admission/scheduling/endpoints.h"

namespace vc::webhook::check {

std::optional<Route> route_for(std::string_view api_version, std::string_view kind,
                               bool with_pods_mutate) {
  namespace r = kube::resources;
  struct Entry {
    const kube::Resource& resource;
    std::vector<std::string> paths;
    bool drops_status;
  };
  static const Entry kTable[] = {
      {r::jobs, {"/jobs/mutate", "/jobs/validate"}, true},
      {r::cronjobs, {"/cronjobs/validate"}, true},
      {r::queues, {"/queues/mutate", "/queues/validate"}, true},
      {r::podgroups, {"/podgroups/mutate", "/podgroups/validate"}, false},
      {r::hypernodes, {"/hypernodes/validate"}, true},
      {r::jobflows, {"/jobflows/validate"}, true},
      {r::pods, {"/pods/mutate", "/pods/validate"}, true},
  };
  for (const Entry& e : kTable) {
    if (e.resource.kind != kind || e.resource.api_version() != api_version) continue;
    Route route{e.resource, e.paths, e.drops_status};
    if (!with_pods_mutate) std::erase(route.paths, std::string("/pods/mutate"));
    return route;
  }
  return std::nullopt;
}

const Endpoint* find_endpoint(std::string_view path) {
  static const std::map<std::string, Endpoint, std::less<>> kEndpoints = [] {
    std::map<std::string, Endpoint, std::less<>> all;
    for (auto list : {jobs::endpoints(), scheduling::endpoints(), pods::endpoints()}) {
      for (Endpoint& e : list) all.emplace(e.path, std::move(e));
    }
    return all;
  }();
  auto it = kEndpoints.find(path);
  return it == kEndpoints.end() ? nullptr : &it->second;
}

}  // namespace vc::webhook::check

#include "webhook/app/endpoints.h"

#include <algorithm>
#include <set>

#include "webhook/admission/jobs/endpoints.h"
#include "webhook/admission/pods/endpoints.h"
#include "webhook/admission/scheduling/endpoints.h"

namespace vc::webhook::app {

std::vector<Endpoint> all_endpoints() {
  std::vector<Endpoint> out = jobs::endpoints();
  for (auto& e : scheduling::endpoints()) out.push_back(std::move(e));
  for (auto& e : pods::endpoints()) out.push_back(std::move(e));
  return out;
}

api::Expected<std::vector<Endpoint>> select_endpoints(const std::vector<std::string>& paths) {
  const std::vector<Endpoint> all = all_endpoints();
  std::vector<Endpoint> out;
  std::set<std::string> seen;
  for (const auto& path : paths) {
    if (!seen.insert(path).second) continue;
    const auto it =
        std::find_if(all.begin(), all.end(), [&](const Endpoint& e) { return e.path == path; });
    if (it == all.end()) {
      return api::Unexpected{"enabled admission " + path +
                             " not found on the admission registered map"};
    }
    out.push_back(*it);
  }
  return out;
}

namespace {

// admit, called with the options current when a review starts instead of those it was built
// with. Request is const AdmissionRequest (AdmitFn) or AdmissionRequest (ConsumingAdmitFn).
template <class Fn>
Fn reading_live_options(Fn admit, std::shared_ptr<const LiveOptions> live) {
  return [admit = std::move(admit), live = std::move(live)](auto& request, const ClusterView& view,
                                                            const AdmissionOptions& /*as built*/) {
    const auto options = live->current();  // held for the whole review
    return admit(request, view, *options);
  };
}

}  // namespace

std::vector<Endpoint> with_live_options(std::vector<Endpoint> endpoints,
                                        std::shared_ptr<const LiveOptions> live) {
  for (auto& endpoint : endpoints) {
    endpoint.admit = reading_live_options(std::move(endpoint.admit), live);
    if (endpoint.admit_consuming) {
      endpoint.admit_consuming = reading_live_options(std::move(endpoint.admit_consuming), live);
    }
  }
  return endpoints;
}

std::string webhook_configuration_name(const std::string& path) {
  std::string name = "volcano-admission-service" + path;
  for (size_t i = std::string_view("volcano-admission-service").size(); i < name.size(); ++i) {
    if (name[i] == '/') name[i] = '-';
  }
  return name;
}

}  // namespace vc::webhook::app

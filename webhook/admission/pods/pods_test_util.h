#pragma once
// Test helpers for the pod admit functions. Test-only.

#include <memory>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "webhook/admission/pods/admit.h"
#include "webhook/admission/scheduling/admit_test_util.h"

namespace vc::webhook::pods::testing {

using nlohmann::json;
using scheduling::testing::make_request;

inline json pod(json annotations = json::object(), json spec = json::object()) {
  json p = {
      {"apiVersion", "v1"},
      {"kind", "Pod"},
      {"metadata", {{"name", "p"}, {"namespace", "ns"}, {"annotations", std::move(annotations)}}},
      {"spec", {{"schedulerName", "volcano"}, {"containers", {{{"name", "c"}, {"image", "i"}}}}}}};
  p["spec"].update(spec);
  return p;
}

inline AdmissionRequest pod_request(json object, std::string op = "CREATE") {
  return make_request(kPodsResource, std::move(op), std::move(object));
}

}  // namespace vc::webhook::pods::testing

#pragma once
// Test helpers for the scheduling admit functions: request builders, queue objects and
// assertions on responses. Test-only (included by *_test.cpp files).

#include <string>
#include <utility>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "webhook/admission/cluster_view.h"
#include "webhook/admission/options.h"
#include "webhook/admission/review.h"
#include "webhook/admission/scheduling/admit.h"

namespace vc::webhook::scheduling::testing {

using nlohmann::json;

inline AdmissionRequest make_request(const GroupVersionResource& resource, std::string operation,
                                     json object, json old_object = nullptr,
                                     std::string name = "") {
  AdmissionRequest r;
  r.uid = "uid-1";
  r.resource = resource;
  r.operation = std::move(operation);
  r.object = std::move(object);
  r.old_object = std::move(old_object);
  r.name = std::move(name);
  return r;
}

// A Queue object: {"metadata":{"name":...}, "spec": spec, "status": status}.
inline json queue_object(const std::string& name, json spec = json::object(),
                         json status = json::object(), json annotations = nullptr) {
  json q = {{"apiVersion", "scheduling.volcano.sh/v1beta1"},
            {"kind", "Queue"},
            {"metadata", {{"name", name}}},
            {"spec", std::move(spec)},
            {"status", std::move(status)}};
  if (!annotations.is_null()) q["metadata"]["annotations"] = std::move(annotations);
  return q;
}

inline json open_queue(const std::string& name, json spec = json::object()) {
  return queue_object(name, std::move(spec), {{"state", "Open"}});
}

#define EXPECT_DENIED(response, text)                 \
  do {                                                \
    const auto& r_ = (response);                      \
    EXPECT_FALSE(r_.allowed) << "expected a denial";  \
    EXPECT_EQ(r_.message, text);                      \
    EXPECT_TRUE(r_.patch.empty()) << r_.patch.dump(); \
  } while (0)

#define EXPECT_ALLOWED(response)                                             \
  do {                                                                       \
    const auto& r_ = (response);                                             \
    EXPECT_TRUE(r_.allowed) << "denied with: " << r_.message;                \
    EXPECT_EQ(r_.message, "");                                               \
    EXPECT_TRUE(r_.patch.empty()) << "unexpected patch " << r_.patch.dump(); \
  } while (0)

#define EXPECT_PATCH(response, ops)                           \
  do {                                                        \
    const auto& r_ = (response);                              \
    EXPECT_TRUE(r_.allowed) << "denied with: " << r_.message; \
    EXPECT_EQ(r_.patch, json(ops)) << r_.patch.dump();        \
  } while (0)

}  // namespace vc::webhook::scheduling::testing

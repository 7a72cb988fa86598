#pragma once
// Builders shared by this folder's tests: admission requests, a valid job, a cluster view with
// an open "default" queue.

#include <string>

#include <nlohmann/json.hpp>

#include "webhook/admission/cluster_view.h"
#include "webhook/admission/jobs/admit.h"

namespace vc::webhook::jobs::testing {

using nlohmann::json;

inline AdmissionRequest request(const GroupVersionResource& gvr, std::string operation, json object,
                                json old_object = nullptr) {
  AdmissionRequest r;
  r.uid = "uid-1";
  r.resource = gvr;
  r.operation = std::move(operation);
  r.namespace_ = "ns1";
  r.object = std::move(object);
  r.old_object = std::move(old_object);
  return r;
}

inline json container(const std::string& name = "c", const std::string& image = "busybox") {
  return {{"name", name}, {"image", image}};
}

inline json task(const std::string& name, int replicas) {
  return {{"name", name},
          {"replicas", replicas},
          {"template", {{"spec", {{"containers", json::array({container()})}}}}}};
}

// A job every check accepts (with open_cluster()).
inline json valid_job() {
  return {{"metadata", {{"name", "job1"}, {"namespace", "ns1"}}},
          {"spec",
           {{"queue", "default"},
            {"minAvailable", 1},
            {"maxRetry", 3},
            {"schedulerName", "volcano"},
            {"tasks", json::array({task("worker", 1)})}}}};
}

inline json queue(const std::string& name, const std::string& state,
                  const std::string& parent = "") {
  json q = {
      {"metadata", {{"name", name}}}, {"spec", json::object()}, {"status", {{"state", state}}}};
  if (!parent.empty()) q["spec"]["parent"] = parent;
  return q;
}

inline StaticClusterView open_cluster() {
  StaticClusterView view;
  view.add_queue(queue("default", "Open"));
  return view;
}

}  // namespace vc::webhook::jobs::testing

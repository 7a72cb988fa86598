// libFuzzer target over the AdmissionReview decoder and every admit function.
//
// Two ways in, chosen by what the input is:
//  - a body decode_review accepts is routed to every endpoint as decoded, then again with the
//    request's resource set to the one the endpoint serves (each admit function checks the
//    resource first, so without this the fuzzer would need to guess it for each endpoint);
//  - any other JSON value (in practice: a mutated object) is wrapped as the `object` of a
//    CREATE, an UPDATE (oldObject = the same value) and a DELETE request for every endpoint,
//    each with the endpoint's own resource, so the rules get deep coverage without the fuzzer
//    having to keep a review envelope intact.
// The wrapping goes through decode_review too, so both paths share the decoder's depth limit.
//
// Every response is encoded with encode_review and checked against invariants that hold for
// any input; a violation aborts with a message, which libFuzzer reports as a crash.
//
// Which cluster view and options are used depends on the input length (see variant()), so the
// fuzzer can reach the offline and non-default-flag branches by inserting whitespace.
//
// Threads: libFuzzer calls LLVMFuzzerTestOneInput from one thread.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "webhook/admission/cluster_view.h"
#include "webhook/admission/endpoint.h"
#include "webhook/admission/jobs/admit.h"
#include "webhook/admission/jobs/endpoints.h"
#include "webhook/admission/options.h"
#include "webhook/admission/pods/admit.h"
#include "webhook/admission/pods/endpoints.h"
#include "webhook/admission/scheduling/admit.h"
#include "webhook/admission/scheduling/endpoints.h"
#include "webhook/server/review_codec.h"

namespace vc::webhook::fuzz {
namespace {

using nlohmann::json;

// Larger inputs only slow the fuzzer down; the server's own body limit is far above this, and
// its behaviour on big bodies is covered by the decoder's depth check and the unit tests.
constexpr std::size_t kMaxInput = 64 * 1024;

[[noreturn]] void fail(std::string_view what, std::string_view path, std::string_view detail) {
  std::fprintf(stderr, "review_fuzz: %.*s at %.*s: %.*s\n", static_cast<int>(what.size()),
               what.data(), static_cast<int>(path.size()), path.data(),
               static_cast<int>(detail.size()), detail.data());
  std::abort();
}

// The resource an endpoint serves, from the first segment of its path. An endpoint missing
// here would only ever see the resource check, so an unknown one is a fuzzer bug.
GroupVersionResource served_resource(std::string_view path) {
  const std::string_view kind = path.substr(1, path.find('/', 1) - 1);
  if (kind == "jobs") return jobs::kJobsResource;
  if (kind == "cronjobs") return jobs::kCronJobsResource;
  if (kind == "jobflows") return jobs::kJobFlowsResource;
  if (kind == "queues") return scheduling::kQueuesResource;
  if (kind == "podgroups") return scheduling::kPodGroupsResource;
  if (kind == "hypernodes") return scheduling::kHyperNodesResource;
  if (kind == "pods") return pods::kPodsResource;
  fail("endpoint without a known resource", path, "add it to served_resource()");
}

struct Target {
  Endpoint endpoint;
  GroupVersionResource resource;
};

std::vector<Target> all_targets() {
  std::vector<Target> out;
  for (auto list : {jobs::endpoints(), scheduling::endpoints(), pods::endpoints()}) {
    for (auto& e : list) {
      GroupVersionResource resource = served_resource(e.path);
      out.push_back({std::move(e), std::move(resource)});
    }
  }
  return out;
}

json queue(const char* name, const char* state, json spec, json status = json::object()) {
  status["state"] = state;
  return {{"apiVersion", "scheduling.volcano.sh/v1beta1"},
          {"kind", "Queue"},
          {"metadata", {{"name", name}}},
          {"spec", std::move(spec)},
          {"status", std::move(status)}};
}

// root, default and a closed queue; a parent with two children (one with allocated pods) and a
// grandchild, so that leaf, hierarchy, capacity and delete rules all have something to find.
StaticClusterView cluster(bool online) {
  StaticClusterView view;
  view.set_online(online);
  view.add_queue(queue("root", "Open",
                       {{"weight", 1},
                        {"capability", {{"cpu", "100"}, {"memory", "200Gi"}}},
                        {"deserved", {{"cpu", "100"}, {"memory", "200Gi"}}},
                        {"guarantee", {{"resource", {{"cpu", "10"}}}}}}));
  view.add_queue(queue("default", "Open", {{"weight", 1}, {"reclaimable", true}}));
  view.add_queue(queue("closed", "Closed", {{"weight", 1}}));
  view.add_queue(queue("research", "Open",
                       {{"parent", "root"},
                        {"weight", 2},
                        {"capability", {{"cpu", "40"}, {"memory", "80Gi"}}},
                        {"deserved", {{"cpu", "20"}, {"memory", "40Gi"}}},
                        {"guarantee", {{"resource", {{"cpu", "4"}}}}}}));
  view.add_queue(queue("research-a", "Open",
                       {{"parent", "research"},
                        {"capability", {{"cpu", "20"}, {"nvidia.com/gpu", "4"}}},
                        {"deserved", {{"cpu", "10"}}},
                        {"guarantee", {{"resource", {{"cpu", "2"}}}}}}));
  view.add_queue(queue("research-b", "Open", {{"parent", "research"}, {"deserved", {{"cpu", "5"}}}},
                       {{"allocated", {{"pods", "3"}, {"cpu", "2"}}}}));
  view.add_queue(queue("research-b-1", "Open", {{"parent", "research-b"}}));
  view.add_namespace({{"metadata", {{"name", "default"}}}});
  view.add_namespace({{"metadata",
                       {{"name", "team-a"},
                        {"annotations", {{"scheduling.volcano.sh/queue-name", "research-a"}}}}}});
  view.add_namespace({{"metadata", {{"name", "mng"}, {"labels", {{"tier", "management"}}}}}});
  return view;
}

// One group of each matcher kind: by namespace, by annotation and by resourceGroup name.
constexpr const char* kPodAdmissionConfig = R"(
resourceGroups:
- resourceGroup: management
  object:
    key: namespace
    value: [mng]
  schedulerName: default-scheduler
  tolerations:
  - key: node-role.kubernetes.io/master
    operator: Exists
    effect: NoSchedule
  labels:
    volcano.sh/nodetype: management
  affinity: '{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"tier","operator":"In","values":["mng"]}]}]}}}'
- resourceGroup: gpu
  object:
    key: annotation
    value: ["volcano.sh/resource-group: gpu", "not: [yaml"]
  labels:
    accelerator: nvidia
- resourceGroup: cpu
  object:
    key: ""
  tolerations:
  - key: cpu-only
    tolerationseconds: 30
  affinity: '{"podAntiAffinity":'
)";

AdmissionOptions options(bool defaults) {
  auto config = PodAdmissionConfig::parse(kPodAdmissionConfig);
  if (!config) fail("pod admission config", "start-up", config.error());
  AdmissionOptions o;
  o.pod_admission_config = std::make_shared<const PodAdmissionConfig>(std::move(*config));
  if (!defaults) {
    o.scheduler_names = {"volcano", "kube-batch"};
    o.max_queue_depth = 2;
    o.enable_root_queue_protection = false;
    o.enable_queue_allocated_pods_check = true;
    o.scheduling_gates_queue_admission = true;
    o.pod_level_resources = false;
  }
  return o;
}

struct World {
  std::vector<Target> targets = all_targets();
  StaticClusterView online = cluster(true);
  StaticClusterView offline = cluster(false);
  AdmissionOptions defaults = options(true);
  AdmissionOptions flags = options(false);
};

const World& world() {
  static const World w;
  return w;
}

bool is_json_pointer(const std::string& path) {
  try {
    json::json_pointer pointer(path);
    return true;
  } catch (const json::exception&) {
    return false;
  }
}

// Properties every response must have, whatever the input: a validating endpoint never
// patches, a denial carries a message and no patch, a patch is a list of well-formed RFC 6902
// operations, and the encoded review is valid JSON that says what the response says.
void check_response(const Target& target, const AdmissionRequest& request,
                    const AdmissionResponse& response) {
  const std::string& path = target.endpoint.path;
  if (!response.patch.is_array()) fail("patch is not an array", path, response.patch.dump());
  if (!response.patch.empty()) {
    if (!target.endpoint.mutating) fail("validating endpoint patched", path, response.patch.dump());
    if (!response.allowed) fail("denial with a patch", path, response.patch.dump());
  }
  if (!response.allowed && response.message.empty()) fail("denial without a message", path, "");
  for (const json& op : response.patch) {
    static constexpr std::string_view kOps[] = {"add", "remove", "replace", "move", "copy", "test"};
    const bool known = op.is_object() && op.contains("op") && op["op"].is_string() &&
                       std::find(std::begin(kOps), std::end(kOps),
                                 op["op"].get_ref<const std::string&>()) != std::end(kOps);
    if (!known || !op.contains("path") || !op["path"].is_string() ||
        !is_json_pointer(op["path"].get_ref<const std::string&>())) {
      fail("malformed patch operation", path, op.dump());
    }
  }
  const std::string encoded = server::encode_review(request.uid, response);
  json review;
  try {
    review = json::parse(encoded);
  } catch (const json::exception& e) {
    fail("encoded review is not JSON", path, e.what());
  }
  const json& r = review["response"];
  if (r["uid"] != request.uid || r["allowed"] != response.allowed) {
    fail("encoded review disagrees with the response", path, encoded);
  }
}

void admit_checked(const Target& target, const AdmissionRequest& request, const ClusterView& view,
                   const AdmissionOptions& options) {
  AdmissionResponse response;
  try {
    response = target.endpoint.admit(request, view, options);
  } catch (const std::exception& e) {
    fail("admit function threw", target.endpoint.path, e.what());
  }
  check_response(target, request, response);
}

// Copies metadata.name and metadata.namespace into the request when they are strings, as the
// API server does (queue DELETE and pod defaulting read them from the request).
void name_from_object(AdmissionRequest& request, const json& object) {
  if (!object.is_object()) return;
  auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return;
  auto name = meta->find("name");
  if (name != meta->end() && name->is_string()) request.name = name->get<std::string>();
  auto ns = meta->find("namespace");
  if (ns != meta->end() && ns->is_string()) request.namespace_ = ns->get<std::string>();
}

int test_one_input(std::string_view input) {
  if (input.size() > kMaxInput) return 0;
  const World& w = world();
  const unsigned variant = input.size() % 4;
  const ClusterView& view = (variant & 1) != 0 ? w.offline : w.online;
  const AdmissionOptions& opts = (variant & 2) != 0 ? w.flags : w.defaults;

  if (auto decoded = server::decode_review(input)) {
    AdmissionRequest retargeted = *decoded;
    for (const Target& t : w.targets) {
      admit_checked(t, *decoded, view, opts);
      if (decoded->resource == t.resource) continue;
      retargeted.resource = t.resource;
      admit_checked(t, retargeted, view, opts);
    }
    return 0;
  }

  std::string wrapped = R"({"request":{"uid":"fuzz-uid","operation":"CREATE","object":)";
  wrapped += input;
  wrapped += "}}";
  auto create = server::decode_review(wrapped);
  if (!create || create->object.is_null()) return 0;
  name_from_object(*create, create->object);
  if (create->namespace_.empty()) create->namespace_ = "team-a";
  AdmissionRequest update = *create;
  update.operation = "UPDATE";
  update.old_object = update.object;
  AdmissionRequest remove = *create;
  remove.operation = "DELETE";
  remove.old_object = std::move(remove.object);
  remove.object = nullptr;
  for (const Target& t : w.targets) {
    for (AdmissionRequest* request : {&*create, &update, &remove}) {
      request->resource = t.resource;
      admit_checked(t, *request, view, opts);
    }
  }
  return 0;
}

}  // namespace
}  // namespace vc::webhook::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return vc::webhook::fuzz::test_one_input(
      std::string_view(reinterpret_cast<const char*>(data), size));
}

#include <gtest/gtest.h>

#include <initializer_list>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/json/fast_parse.h"
#include "controllers/views/intern.h"
#include "controllers/views/pod_resources.h"
#include "controllers/views/pod_view.h"
#include "controllers/views/podgroup_view.h"

namespace vc::controllers::views {
namespace {

using nlohmann::json;

json container(json requests, json limits = json::object()) {
  return {{"name", "c"}, {"resources", {{"requests", requests}, {"limits", limits}}}};
}

std::string text(const api::ResourceList& list, const std::string& name) {
  auto it = list.find(name);
  return it == list.end() ? "<absent>" : it->second.to_string();
}

TEST(PodResources, SingleContainerKeepsItsPrintedText) {
  json spec = {{"containers", {container({{"cpu", "500m"}, {"memory", "1Gi"}})}}};
  auto r = pod_requests(spec);
  EXPECT_EQ(text(r, "cpu"), "500m");
  EXPECT_EQ(text(r, "memory"), "1Gi");
}

TEST(PodResources, ContainersAreSummedAndInitContainersTakeTheMax) {
  json spec = {{"containers", {container({{"cpu", "1"}}), container({{"cpu", "500m"}})}},
               {"initContainers", {container({{"cpu", "2"}, {"memory", "64Mi"}})}}};
  auto r = pod_requests(spec);
  EXPECT_EQ(text(r, "cpu"), "2");
  EXPECT_EQ(text(r, "memory"), "64Mi");
}

TEST(PodResources, SidecarsAddToTheSumAndToLaterInitContainers) {
  json sidecar = container({{"cpu", "1"}});
  sidecar["restartPolicy"] = "Always";
  // containers 1 + sidecar 1 = 2; the later init container needs 1.5 + sidecar 1 = 2.5.
  json spec = {{"containers", {container({{"cpu", "1"}})}},
               {"initContainers", {sidecar, container({{"cpu", "1500m"}})}}};
  EXPECT_EQ(text(pod_requests(spec), "cpu"), "2500m");
}

TEST(PodResources, OverheadAddsToRequestsAndOnlyToLimitsThatAreSet) {
  json spec = {{"containers", {container({{"cpu", "1"}}, {{"cpu", "2"}})}},
               {"overhead", {{"cpu", "100m"}, {"memory", "10Mi"}}}};
  auto req = pod_requests(spec);
  auto lim = pod_limits(spec);
  EXPECT_EQ(text(req, "cpu"), "1100m");
  EXPECT_EQ(text(req, "memory"), "10Mi");
  EXPECT_EQ(text(lim, "cpu"), "2100m");
  EXPECT_EQ(text(lim, "memory"), "<absent>");
}

TEST(PodResources, PodLevelResourcesReplaceCpuAndMemory) {
  json spec = {{"containers", {container({{"cpu", "1"}, {"nvidia.com/gpu", "1"}})}},
               {"resources", {{"requests", {{"cpu", "3"}}}}}};
  auto r = pod_requests(spec);
  EXPECT_EQ(text(r, "cpu"), "3");
  EXPECT_EQ(text(r, "nvidia.com/gpu"), "1");
}

TEST(PodResources, MalformedQuantityThrows) {
  json spec = {{"containers", {container({{"cpu", "lots"}})}}};
  EXPECT_THROW(pod_requests(spec), std::invalid_argument);
}

std::map<std::string, std::string> printed(const api::ResourceList& list) {
  std::map<std::string, std::string> out;
  for (const auto& [name, q] : list) out[name] = q.to_string();
  return out;
}

api::ResourceList list(std::initializer_list<std::pair<const char*, const char*>> items) {
  api::ResourceList out;
  for (const auto& [name, value] : items) out.emplace(name, api::Quantity::must_parse(value));
  return out;
}

TEST(QuotaPodUsage, CountsNativeResourcesUnderBothNamesAndExtendedOnesAsRequests) {
  const auto requests = list({{"cpu", "500m"},
                              {"memory", "1Gi"},
                              {"ephemeral-storage", "2Gi"},
                              {"hugepages-2Mi", "4Mi"},
                              {"nvidia.com/gpu", "2"},
                              {"example.kubernetes.io/native", "3"}});
  const auto limits = list({{"cpu", "1"}, {"memory", "2Gi"}, {"nvidia.com/gpu", "2"}});
  EXPECT_EQ(printed(quota_pod_usage(requests, limits)),
            (std::map<std::string, std::string>{{"count/pods", "1"},
                                                {"pods", "1"},
                                                {"cpu", "500m"},
                                                {"requests.cpu", "500m"},
                                                {"limits.cpu", "1"},
                                                {"memory", "1Gi"},
                                                {"requests.memory", "1Gi"},
                                                {"limits.memory", "2Gi"},
                                                {"ephemeral-storage", "2Gi"},
                                                {"requests.ephemeral-storage", "2Gi"},
                                                {"hugepages-2Mi", "4Mi"},
                                                {"requests.hugepages-2Mi", "4Mi"},
                                                {"requests.nvidia.com/gpu", "2"}}));
}

TEST(QuotaPodUsage, NoResourcesCountOnlyThePod) {
  EXPECT_EQ(printed(quota_pod_usage({}, {})),
            (std::map<std::string, std::string>{{"count/pods", "1"}, {"pods", "1"}}));
}

TEST(AddUnprefixedRequests, CopiesOnlyNonNativeRequests) {
  auto usage = list({{"requests.nvidia.com/gpu", "2"},
                     {"requests.cpu", "1"},
                     {"requests.hugepages-2Mi", "4Mi"},
                     {"requests.example.kubernetes.io/x", "1"},
                     {"count/pods", "1"}});
  add_unprefixed_requests(usage);
  EXPECT_EQ(printed(usage),
            (std::map<std::string, std::string>{{"requests.nvidia.com/gpu", "2"},
                                                {"nvidia.com/gpu", "2"},
                                                {"requests.cpu", "1"},
                                                {"requests.hugepages-2Mi", "4Mi"},
                                                {"requests.example.kubernetes.io/x", "1"},
                                                {"count/pods", "1"}}));
}

TEST(ResourceAmount, RoundTripsValueFormatAndPrintedForm) {
  api::ResourceList list;
  list.emplace("cpu", api::Quantity::must_parse("1.441"));  // remembered verbatim
  list.emplace("memory", api::Quantity::from_int(1500, api::QuantityFormat::BinarySI));
  list.emplace("nvidia.com/gpu", api::Quantity::must_parse("2"));
  auto back = to_resource_list(to_amounts(list));
  ASSERT_EQ(back.size(), 3u);
  for (const auto& [name, q] : list) {
    EXPECT_EQ(back.at(name), q) << name;
    EXPECT_EQ(back.at(name).format(), q.format()) << name;
    EXPECT_EQ(back.at(name).to_string(), q.to_string()) << name;
    // Arithmetic on the rebuilt value prints like arithmetic on the original.
    EXPECT_EQ((back.at(name) * 2).to_string(), (q * 2).to_string()) << name;
  }
}

TEST(Intern, SameTextGivesTheSameStorage) {
  std::string a = "volcano.sh/some-interned-key";
  std::string b = a;
  EXPECT_EQ(intern(a).data(), intern(b).data());
  EXPECT_EQ(intern(a), a);
  EXPECT_TRUE(intern("").empty());
}

json sample_pod() {
  return {{"metadata",
           {{"name", "w-0"},
            {"namespace", "ns"},
            {"uid", "u-1"},
            {"resourceVersion", "7"},
            {"creationTimestamp", "2024-05-01T10:00:00Z"},
            {"deletionTimestamp", "2024-05-01T10:05:00Z"},
            {"deletionGracePeriodSeconds", 30},
            {"labels", {{"app", "x"}, {"controller-revision-hash", "abc"}}},
            {"annotations",
             {{"scheduling.k8s.io/group-name", "pg-1"},
              {"volcano.sh/task-spec", "worker"},
              {"scheduling.volcano.sh/queue-name", "q1"},
              {"kubectl.kubernetes.io/last-applied-configuration", "{...big...}"}}},
            {"ownerReferences",
             {{{"apiVersion", "apps/v1"},
               {"kind", "ReplicaSet"},
               {"name", "rs"},
               {"uid", "rs-uid"},
               {"controller", true}}}}}},
          {"spec",
           {{"schedulerName", "volcano"},
            {"nodeName", "n1"},
            {"priorityClassName", "high"},
            {"containers", {container({{"cpu", "1"}}, {{"cpu", "2"}})}}}},
          {"status",
           {{"phase", "Failed"},
            {"containerStatuses",
             {{{"name", "c"},
               {"ready", false},
               {"restartCount", 2},
               {"state", {{"terminated", {{"exitCode", 137}, {"reason", "OOMKilled"}}}}}}}},
            {"initContainerStatuses", {{{"name", "i"}, {"ready", true}, {"restartCount", 1}}}}}}};
}

TEST(PodView, KeepsTheFieldsControllersReadAndDropsOtherAnnotations) {
  auto v = make_pod_view(sample_pod());
  EXPECT_EQ(v->key(), "ns/w-0");
  EXPECT_EQ(v->uid, "u-1");
  EXPECT_EQ(v->resource_version, "7");
  ASSERT_NE(v->label("controller-revision-hash"), nullptr);
  EXPECT_EQ(v->group_name(), "pg-1");
  ASSERT_NE(v->annotation("volcano.sh/task-spec"), nullptr);
  EXPECT_EQ(*v->annotation("scheduling.volcano.sh/queue-name"), "q1");
  EXPECT_EQ(v->annotation("kubectl.kubernetes.io/last-applied-configuration"), nullptr);
  EXPECT_EQ(v->annotations.size(), 3u);
  EXPECT_EQ(v->scheduler_name, "volcano");
  EXPECT_EQ(v->node_name, "n1");
  EXPECT_EQ(v->priority_class_name, "high");
  EXPECT_EQ(v->phase, "Failed");
  ASSERT_TRUE(v->deletion_timestamp.has_value());
  EXPECT_EQ(v->deletion_grace_period_seconds, 30);
  ASSERT_NE(v->controller_ref(), nullptr);
  EXPECT_EQ(v->controller_ref()->kind, "ReplicaSet");
  EXPECT_EQ(v->controller_ref()->uid, "rs-uid");
  EXPECT_EQ(v->first_container_exit_code(), 137);
  EXPECT_EQ(v->container_statuses.front().reason, "OOMKilled");
  EXPECT_EQ(v->total_restart_count(), 3);
  EXPECT_FALSE(v->all_containers_ready());
  ASSERT_EQ(v->requests.size(), 1u);
  EXPECT_EQ(v->requests[0].name, "cpu");
  EXPECT_EQ(v->requests[0].text, "1");
  ASSERT_EQ(v->limits.size(), 1u);
  EXPECT_EQ(v->limits[0].text, "2");
}

TEST(PodView, TransformIsNamedAndProducesAPodView) {
  auto t = pod_view_transform();
  EXPECT_EQ(t.name, "pod-view");
  auto obj = t.fn(sample_pod());
  EXPECT_NE(as_pod_view(obj), nullptr);
  EXPECT_EQ(as_podgroup_view(obj), nullptr);
}

// A pod as the API server and kwok write it: everything a view leaves out is there too.
const char* const kFullPod = R"({"kind":"Pod","apiVersion":"v1",
 "metadata":{"name":"j-t-0","namespace":"ns","uid":"u","resourceVersion":"42",
  "generateName":"x","creationTimestamp":"2026-11-29T10:00:00Z",
  "deletionTimestamp":"2026-11-29T10:05:00Z","deletionGracePeriodSeconds":30,
  "labels":{"volcano.sh/job-name":"j","volcano.sh/task-spec":"t"},
  "annotations":{"scheduling.k8s.io/group-name":"j-uid","volcano.sh/task-index":"0",
   "scheduling.volcano.sh/queue-name":"q","other":"dropped by the view"},
  "ownerReferences":[{"apiVersion":"batch.volcano.sh/v1alpha1","kind":"Job","name":"j",
   "uid":"ju","controller":true,"blockOwnerDeletion":true}],
  "managedFields":[{"manager":"kwok","operation":"Update","fieldsV1":{"f:status":{}}}]},
 "spec":{"volumes":[{"name":"kube-api-access","projected":{"sources":[{"serviceAccountToken":
   {"expirationSeconds":3607,"path":"token"}}]}}],
  "initContainers":[{"name":"init","image":"busybox","resources":{"requests":{"cpu":"2"}}},
   {"name":"sidecar","image":"envoy","restartPolicy":"Always",
    "resources":{"requests":{"cpu":"100m","memory":"64Mi"},"limits":{"memory":"128Mi"}}}],
  "containers":[{"name":"main","image":"ray:2","command":["sh"],"env":[{"name":"A","value":"1"}],
   "resources":{"requests":{"cpu":"1","memory":"1Gi","nvidia.com/gpu":"1"},
    "limits":{"cpu":"2","nvidia.com/gpu":"1"}},"volumeMounts":[{"name":"v","mountPath":"/v"}]},
   {"name":"side","image":"x","resources":{}}],
  "overhead":{"cpu":"250m"},"restartPolicy":"Never","schedulerName":"volcano",
  "nodeName":"node-1","priorityClassName":"high","tolerations":[{"operator":"Exists"}]},
 "status":{"phase":"Running","conditions":[{"type":"Ready","status":"True"}],
  "hostIP":"10.0.0.1","podIP":"10.244.0.5","startTime":"2026-11-29T10:00:01Z",
  "initContainerStatuses":[{"name":"init","ready":false,"restartCount":0,
    "state":{"terminated":{"exitCode":0,"reason":"Completed","startedAt":"x"}}},
   {"name":"sidecar","ready":true,"restartCount":3,"state":{"running":{"startedAt":"x"}}}],
  "containerStatuses":[{"name":"main","ready":false,"restartCount":2,"image":"ray:2",
    "imageID":"sha","containerID":"c","started":false,
    "state":{"terminated":{"exitCode":137,"reason":"OOMKilled","finishedAt":"x"}},
    "lastState":{"terminated":{"exitCode":1,"reason":"Error"}}},
   {"name":"side","ready":true,"restartCount":0,"state":{"running":{"startedAt":"x"}}}]}})";

std::string text_of(const ResourceAmounts& amounts, std::string_view name) {
  for (const auto& a : amounts) {
    if (a.name == name) return a.text;
  }
  return "<absent>";
}

// Equal lists, compared item by item through key(item) (a std::tie of the fields).
template <class T, class Key>
void expect_same_items(const std::vector<T>& a, const std::vector<T>& b, Key key,
                       const char* what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_TRUE(key(a[i]) == key(b[i])) << what << i;
}

void expect_same_view(const PodView& a, const PodView& b) {
  EXPECT_EQ(a.key(), b.key());
  EXPECT_EQ(a.uid, b.uid);
  EXPECT_EQ(a.resource_version, b.resource_version);
  EXPECT_EQ(a.labels, b.labels);
  EXPECT_EQ(a.phase, b.phase);
  EXPECT_EQ(a.scheduler_name, b.scheduler_name);
  EXPECT_EQ(a.node_name, b.node_name);
  EXPECT_EQ(a.priority_class_name, b.priority_class_name);
  EXPECT_EQ(a.creation_timestamp, b.creation_timestamp);
  EXPECT_EQ(a.deletion_timestamp, b.deletion_timestamp);
  EXPECT_EQ(a.deletion_grace_period_seconds, b.deletion_grace_period_seconds);
  expect_same_items(
      a.annotations, b.annotations, [](const Annotation& x) { return std::tie(x.key, x.value); },
      "annotation ");
  expect_same_items(
      a.owner_references, b.owner_references,
      [](const OwnerRefView& x) {
        return std::tie(x.api_version, x.kind, x.name, x.uid, x.controller, x.block_owner_deletion);
      },
      "owner reference ");
  expect_same_items(
      a.container_statuses, b.container_statuses,
      [](const ContainerStatusView& x) {
        return std::tie(x.restart_count, x.exit_code, x.ready, x.terminated, x.init, x.reason);
      },
      "container status ");
  auto amount = [](const ResourceAmount& x) { return std::tie(x.name, x.text, x.format); };
  expect_same_items(a.requests, b.requests, amount, "request ");
  expect_same_items(a.limits, b.limits, amount, "limit ");
}

TEST(PodView, ReadsOnlyTheMembersItsTransformDeclares) {
  const json whole = json::parse(kFullPod);
  const json filtered = fastjson::parse(kFullPod, *pod_view_reads());
  EXPECT_LT(filtered.dump().size() * 3, whole.dump().size() * 2);  // a rich pod: still a third less
  EXPECT_FALSE(filtered["spec"].contains("volumes"));
  EXPECT_FALSE(filtered["spec"]["containers"][0].contains("env"));
  auto from_whole = make_pod_view(whole);
  auto from_filtered = make_pod_view(filtered);
  expect_same_view(*from_whole, *from_filtered);
  // The sample has something in every field the view holds, so a member missing from
  // pod_view_reads() would show up above as a difference.
  EXPECT_EQ(from_whole->annotations.size(), 3u);
  EXPECT_EQ(from_whole->container_statuses.size(), 4u);
  EXPECT_TRUE(from_whole->deletion_grace_period_seconds.has_value());
  // max(containers 1 + sidecar 100m, init peak 2) + overhead 250m
  EXPECT_EQ(text_of(from_whole->requests, "cpu"), "2250m");
  EXPECT_EQ(pod_view_transform().reads, pod_view_reads());
  // And the same holds for the sample every other view test uses.
  expect_same_view(*make_pod_view(sample_pod()),
                   *make_pod_view(fastjson::parse(sample_pod().dump(), *pod_view_reads())));
}

TEST(PodView, MistypedFieldThrowsSoTheReflectorSkipsTheObject) {
  json pod = sample_pod();
  pod["spec"]["nodeName"] = 5;
  try {
    make_pod_view(pod);
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "spec.nodeName: expected a string, got number");
  }
}

TEST(PodGroupView, KeepsSpecStatusOwnersAndAnnotations) {
  json pg = {{"metadata",
              {{"name", "pg"},
               {"namespace", "ns"},
               {"uid", "pg-uid"},
               {"annotations", {{"volcano.sh/preemptable", "true"}, {"other", "x"}}},
               {"ownerReferences",
                {{{"apiVersion", "batch.volcano.sh/v1alpha1"},
                  {"kind", "Job"},
                  {"name", "j"},
                  {"uid", "j-uid"},
                  {"controller", true}}}}}},
             {"spec",
              {{"minMember", 3},
               {"minTaskMember", {{"worker", 2}, {"head", 1}}},
               {"minResources", {{"cpu", "3"}, {"nvidia.com/gpu", "2"}}},
               {"queue", "ray-batch"},
               {"priorityClassName", "high"}}},
             {"status",
              {{"phase", "Inqueue"},
               {"running", 1},
               {"succeeded", 2},
               {"failed", 3},
               {"conditions",
                {{{"type", "Unschedulable"},
                  {"status", "True"},
                  {"reason", "NotEnoughResources"},
                  {"message", "3/3 tasks in gang unschedulable"}}}}}}};
  auto t = podgroup_view_transform();
  EXPECT_EQ(t.name, "podgroup-view");
  auto v = as_podgroup_view(t.fn(json(pg)));
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->min_member, 3);
  ASSERT_EQ(v->min_task_member.size(), 2u);
  EXPECT_EQ(v->min_task_member[0].first, "head");
  ASSERT_TRUE(v->min_resources.has_value());
  EXPECT_EQ(to_resource_list(*v->min_resources).at("nvidia.com/gpu").to_string(), "2");
  EXPECT_EQ(v->queue, "ray-batch");
  EXPECT_EQ(v->priority_class_name, "high");
  EXPECT_EQ(v->phase, "Inqueue");
  EXPECT_EQ(v->running, 1);
  EXPECT_EQ(v->succeeded, 2);
  EXPECT_EQ(v->failed, 3);
  ASSERT_EQ(v->conditions.size(), 1u);
  EXPECT_EQ(v->conditions[0].type, "Unschedulable");
  EXPECT_EQ(v->conditions[0].message, "3/3 tasks in gang unschedulable");
  EXPECT_EQ(v->annotations.size(), 2u);
  ASSERT_NE(v->controller_ref(), nullptr);
  EXPECT_EQ(v->controller_ref()->name, "j");
}

TEST(PodGroupView, AbsentMinResourcesStaysUnset) {
  auto v = make_podgroup_view({{"metadata", {{"name", "pg"}}}, {"spec", {{"minMember", 1}}}});
  EXPECT_FALSE(v->min_resources.has_value());
  EXPECT_EQ(v->phase, "");
}

}  // namespace
}  // namespace vc::controllers::views

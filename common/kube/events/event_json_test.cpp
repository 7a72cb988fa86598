#include "common/kube/events/event_json.h"

#include <gtest/gtest.h>

#include "common/api/time.h"

namespace vc::kube::events {
namespace {

using namespace std::chrono;
using nlohmann::json;

// 2023-11-14T22:13:20Z plus 5 ns
const WallTime kT{seconds(1700000000) + nanoseconds(5)};

Event job_event() {
  Event e;
  e.object =
      ObjectReference{"Job", "team-a", "train", "uid-1", "batch.volcano.sh/v1alpha1", "77", ""};
  e.type = EventType::Warning;
  e.reason = "PodGroupPending";
  e.message = "PodGroup team-a:train unschedule,reason: 3/4 tasks in gang unschedulable";
  e.time = kT + seconds(9);
  return e;
}

TEST(EventName, IsInvolvedNameDotHexUnixNanos) {
  EXPECT_EQ(event_name("train", kT), "train.17979cfe362a0005");  // 1700000000000000005
}

TEST(EventTime, IsRfc3339AtSecondPrecision) {
  EXPECT_EQ(api::format_rfc3339(kT + milliseconds(999)), "2023-11-14T22:13:20Z");
}

TEST(MakeEvent, WritesACoreV1Event) {
  const json ev =
      make_event(job_event(), EventSource{"vc-controller-manager", ""}, "train.abc", 1, kT);
  EXPECT_EQ(ev["apiVersion"], "v1");
  EXPECT_EQ(ev["kind"], "Event");
  EXPECT_EQ(ev["metadata"], (json{{"name", "train.abc"}, {"namespace", "team-a"}}));
  EXPECT_EQ(ev["involvedObject"], (json{{"kind", "Job"},
                                        {"namespace", "team-a"},
                                        {"name", "train"},
                                        {"uid", "uid-1"},
                                        {"apiVersion", "batch.volcano.sh/v1alpha1"},
                                        {"resourceVersion", "77"}}));
  EXPECT_EQ(ev["type"], "Warning");
  EXPECT_EQ(ev["reason"], "PodGroupPending");
  EXPECT_EQ(ev["message"], job_event().message);
  EXPECT_EQ(ev["source"], (json{{"component", "vc-controller-manager"}}));
  EXPECT_EQ(ev["reportingComponent"], "vc-controller-manager");
  EXPECT_EQ(ev["firstTimestamp"], "2023-11-14T22:13:20Z");
  EXPECT_EQ(ev["lastTimestamp"], "2023-11-14T22:13:29Z");
  EXPECT_EQ(ev["count"], 1);
}

TEST(MakeEvent, ClusterScopedObjectsGetTheDefaultNamespace) {
  Event e = job_event();
  e.object = ObjectReference{"Queue", "", "root", "u", "scheduling.volcano.sh/v1beta1", "", ""};
  const json ev = make_event(e, EventSource{"c", "node-1"}, "root.1", 1, kT);
  EXPECT_EQ(ev["metadata"]["namespace"], "default");
  EXPECT_FALSE(ev["involvedObject"].contains("namespace"));
  EXPECT_EQ(ev["source"]["host"], "node-1");
  EXPECT_EQ(ev["reportingInstance"], "node-1");
}

TEST(MakeRepeatPatch, CarriesCountLastTimestampAndMessage) {
  EXPECT_EQ(make_repeat_patch(job_event(), 3), (json{{"count", 3},
                                                     {"lastTimestamp", "2023-11-14T22:13:29Z"},
                                                     {"message", job_event().message}}));
}

TEST(ReferenceTo, ReadsTypeAndMetadata) {
  const ObjectReference r = reference_to(
      {{"apiVersion", "v1"},
       {"kind", "Pod"},
       {"metadata", {{"namespace", "ns"}, {"name", "p"}, {"uid", "u"}, {"resourceVersion", "9"}}}});
  EXPECT_EQ(r.kind, "Pod");
  EXPECT_EQ(r.api_version, "v1");
  EXPECT_EQ(r.namespace_, "ns");
  EXPECT_EQ(r.name, "p");
  EXPECT_EQ(r.uid, "u");
  EXPECT_EQ(r.resource_version, "9");
}

}  // namespace
}  // namespace vc::kube::events

#include "common/kube/events/event_cache.h"

#include <gtest/gtest.h>

#include "common/kube/events/event_json.h"

namespace vc::kube::events {
namespace {

using namespace std::chrono;
using namespace std::chrono_literals;

const WallTime kT{seconds(1700000000)};

Event ev(std::string name = "train", std::string message = "gang unschedulable", WallTime t = kT) {
  Event e;
  e.object = ObjectReference{
      "Job", "ns", std::move(name), "uid-" + std::string("1"), "batch.volcano.sh/v1alpha1",
      "5",   ""};
  e.type = EventType::Warning;
  e.reason = "PodGroupPending";
  e.message = std::move(message);
  e.time = t;
  return e;
}

// Plans and, as a successful send would, remembers.
Plan send(EventCache& cache, const Event& e) {
  Plan p = cache.plan(e);
  cache.remember(e, p);
  return p;
}

TEST(EventCache, FirstOccurrenceCreatesANamedEvent) {
  EventCache cache(10, 10min);
  const Plan p = cache.plan(ev());
  EXPECT_EQ(p.verb, Plan::Verb::Create);
  EXPECT_EQ(p.name, event_name("train", kT));
  EXPECT_EQ(p.namespace_, "ns");
  EXPECT_EQ(p.count, 1);
  EXPECT_EQ(p.first_timestamp, kT);
}

TEST(EventCache, RepeatsPatchTheSameEventWithGrowingCount) {
  EventCache cache(10, 10min);
  const Plan first = send(cache, ev());
  const Plan second = send(cache, ev("train", "gang unschedulable", kT + 5s));
  const Plan third = send(cache, ev("train", "gang unschedulable", kT + 9s));
  EXPECT_EQ(second.verb, Plan::Verb::Patch);
  EXPECT_EQ(second.name, first.name);
  EXPECT_EQ(second.count, 2);
  EXPECT_EQ(third.count, 3);
  EXPECT_EQ(third.first_timestamp, kT);
}

TEST(EventCache, ResourceVersionDoesNotSplitAggregation) {
  EventCache cache(10, 10min);
  send(cache, ev());
  Event newer = ev();
  newer.object.resource_version = "6";
  EXPECT_EQ(cache.plan(newer).verb, Plan::Verb::Patch);
}

TEST(EventCache, DifferentMessageReasonTypeOrObjectIsANewEvent) {
  EventCache cache(10, 10min);
  send(cache, ev());
  EXPECT_EQ(cache.plan(ev("train", "other message")).verb, Plan::Verb::Create);
  EXPECT_EQ(cache.plan(ev("other-job")).verb, Plan::Verb::Create);
  Event e = ev();
  e.reason = "Other";
  EXPECT_EQ(cache.plan(e).verb, Plan::Verb::Create);
  e = ev();
  e.type = EventType::Normal;
  EXPECT_EQ(cache.plan(e).verb, Plan::Verb::Create);
  e = ev();
  e.object.uid = "uid-2";  // a new object with the same name
  EXPECT_EQ(cache.plan(e).verb, Plan::Verb::Create);
}

TEST(EventCache, DigestFollowsTheAggregationIdentity) {
  EXPECT_EQ(aggregation_digest(ev()), aggregation_digest(ev()));
  Event other_version = ev();
  other_version.object.resource_version = "6";
  EXPECT_EQ(aggregation_digest(other_version), aggregation_digest(ev()));
  EXPECT_NE(aggregation_digest(ev("train", "other")), aggregation_digest(ev()));
  // Length-prefixed fields: moving a character across a field boundary changes the identity.
  EXPECT_NE(aggregation_digest(ev("trainx", "y")), aggregation_digest(ev("train", "xy")));
}

TEST(EventCache, RepeatAfterTheWindowCreatesANewEvent) {
  EventCache cache(10, 10min);
  send(cache, ev());
  send(cache, ev("train", "gang unschedulable", kT + 9min));
  // The window runs from the last occurrence, not the first.
  EXPECT_EQ(cache.plan(ev("train", "gang unschedulable", kT + 18min)).verb, Plan::Verb::Patch);
  const Plan late = cache.plan(ev("train", "gang unschedulable", kT + 19min));
  EXPECT_EQ(late.verb, Plan::Verb::Create);
  EXPECT_EQ(late.count, 1);
  EXPECT_EQ(late.name, event_name("train", kT + 19min));
}

TEST(EventCache, LeastRecentlySentEntryIsEvictedFirst) {
  EventCache cache(2, 10min);
  send(cache, ev("a"));
  send(cache, ev("b"));
  send(cache, ev("a", "gang unschedulable", kT + 1s));  // a is now the most recent
  send(cache, ev("c"));                                 // evicts b
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_EQ(cache.plan(ev("a", "gang unschedulable", kT + 2s)).verb, Plan::Verb::Patch);
  EXPECT_EQ(cache.plan(ev("c", "gang unschedulable", kT + 2s)).verb, Plan::Verb::Patch);
  EXPECT_EQ(cache.plan(ev("b", "gang unschedulable", kT + 2s)).verb, Plan::Verb::Create);
}

TEST(EventCache, ForgetStartsOver) {
  EventCache cache(10, 10min);
  send(cache, ev());
  cache.forget(ev());
  EXPECT_EQ(cache.size(), 0u);
  EXPECT_EQ(cache.plan(ev()).verb, Plan::Verb::Create);
}

}  // namespace
}  // namespace vc::kube::events

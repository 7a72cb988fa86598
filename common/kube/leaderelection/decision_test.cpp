#include "common/kube/leaderelection/decision.h"

#include <gtest/gtest.h>

#include "common/kube/leaderelection/identity.h"

namespace vc::kube::leaderelection {
namespace {

using namespace std::chrono;
using namespace std::chrono_literals;

const WallTime kWall{seconds(1700000000) + nanoseconds(1234567)};  // sub-microsecond on purpose
const MonoTime kMono{hours(1000)};
constexpr auto kDuration = 15s;

LeaseRecord held_by(std::string holder, int duration = 15, int transitions = 3) {
  return LeaseRecord{std::move(holder), duration, kWall - 1h, kWall - 1h, transitions};
}

TEST(Decide, AbsentLeaseIsCreatedWithUsAsHolder) {
  const Decision d = decide(std::nullopt, kWall, kMono, "me", kDuration);
  EXPECT_EQ(d.action, Action::Create);
  EXPECT_EQ(d.desired.holder_identity, "me");
  EXPECT_EQ(d.desired.lease_duration_seconds, 15);
  EXPECT_EQ(d.desired.acquire_time, truncate_to_micros(kWall));
  EXPECT_EQ(d.desired.renew_time, truncate_to_micros(kWall));
  EXPECT_EQ(d.desired.lease_transitions, 0);
}

TEST(Decide, LiveLeaseOfAnotherHolderMeansWait) {
  const Observed seen{held_by("other"), kMono};
  EXPECT_EQ(decide(seen, kWall, kMono + 14s, "me", kDuration).action, Action::Wait);
  EXPECT_TRUE(held_by_other(seen, kMono + 14s, "me"));
}

TEST(Decide, ExpiryCountsFromWhenWeSawTheRecordNotFromItsRenewTime) {
  // renewTime is an hour old by the holder's clock, but we only just saw this record: it is live.
  const Observed seen{held_by("other"), kMono};
  EXPECT_EQ(decide(seen, kWall, kMono + 1s, "me", kDuration).action, Action::Wait);
}

TEST(Decide, AnotherHoldersLeaseExpiresAfterItsDurationOnOurClock) {
  const Observed seen{held_by("other", 15, 3), kMono};
  EXPECT_EQ(decide(seen, kWall, kMono + 15s - 1ns, "me", kDuration).action, Action::Wait);
  const Decision d = decide(seen, kWall, kMono + 15s, "me", kDuration);
  EXPECT_EQ(d.action, Action::TakeOver);
  EXPECT_EQ(d.desired.holder_identity, "me");
  EXPECT_EQ(d.desired.acquire_time, truncate_to_micros(kWall));
  EXPECT_EQ(d.desired.lease_transitions, 4);
}

TEST(Decide, TheHoldersDeclaredDurationCountsNotOurs) {
  const Observed seen{held_by("other", 60), kMono};
  EXPECT_EQ(decide(seen, kWall, kMono + 30s, "me", kDuration).action, Action::Wait);
  EXPECT_EQ(decide(seen, kWall, kMono + 60s, "me", kDuration).action, Action::TakeOver);
}

TEST(Decide, OurOwnLeaseIsRenewedKeepingAcquireTimeAndTransitions) {
  const LeaseRecord mine = held_by("me", 15, 7);
  // Even long after it expired: nobody else wrote, so it is still ours.
  const Decision d = decide(Observed{mine, kMono}, kWall, kMono + 1h, "me", kDuration);
  EXPECT_EQ(d.action, Action::Renew);
  EXPECT_EQ(d.desired.acquire_time, mine.acquire_time);
  EXPECT_EQ(d.desired.renew_time, truncate_to_micros(kWall));
  EXPECT_EQ(d.desired.lease_transitions, 7);
}

TEST(Decide, ReleasedLeaseIsTakenOverAtOnce) {
  const LeaseRecord released = released_record(held_by("other", 15, 5), kWall);
  EXPECT_EQ(released.holder_identity, "");
  EXPECT_EQ(released.lease_duration_seconds, 1);
  EXPECT_EQ(released.lease_transitions, 5);
  const Decision d = decide(Observed{released, kMono}, kWall, kMono, "me", kDuration);
  EXPECT_EQ(d.action, Action::TakeOver);
  EXPECT_EQ(d.desired.lease_transitions, 6);
}

TEST(Observe, UnchangedRecordKeepsTheFirstObservationTime) {
  const Observed first = observe(std::nullopt, held_by("other"), kMono);
  EXPECT_EQ(first.observed_at, kMono);
  EXPECT_EQ(observe(first, held_by("other"), kMono + 10s).observed_at, kMono);
}

TEST(Observe, ChangedRecordRestartsTheClock) {
  const Observed first = observe(std::nullopt, held_by("other"), kMono);
  LeaseRecord renewed = held_by("other");
  renewed.renew_time = kWall;
  const Observed second = observe(first, renewed, kMono + 10s);
  EXPECT_EQ(second.observed_at, kMono + 10s);
  EXPECT_EQ(decide(second, kWall, kMono + 20s, "me", kDuration).action, Action::Wait);
}

TEST(Identity, IsHostnameUnderscoreUuidAndUnique) {
  const std::string a = make_identity();
  const std::string b = make_identity();
  EXPECT_NE(a, b);
  const auto sep = a.rfind('_');
  ASSERT_NE(sep, std::string::npos) << a;
  const std::string uuid = a.substr(sep + 1);
  ASSERT_EQ(uuid.size(), 36u) << a;
  EXPECT_EQ(uuid[14], '4') << a;  // version 4
  EXPECT_EQ(uuid[8], '-');
  EXPECT_FALSE(a.substr(0, sep).empty());
}

}  // namespace
}  // namespace vc::kube::leaderelection

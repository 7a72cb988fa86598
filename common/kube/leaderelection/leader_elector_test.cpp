// Single attempts of the elector against a fake API server, with a hand-moved clock.
#include "common/kube/leaderelection/leader_elector.h"

#include <gtest/gtest.h>

#include "common/kube/leaderelection/fake_lease_server_test_util.h"

namespace vc::kube::leaderelection {
namespace {

using namespace std::chrono_literals;
using testutil::FakeClock;
using testutil::FakeLeaseServer;

class ElectorStep : public ::testing::Test {
 protected:
  LeaderElectionConfig config(std::string identity) {
    LeaderElectionConfig c;
    c.lease_namespace = FakeLeaseServer::kNamespace;
    c.lease_name = FakeLeaseServer::kName;
    c.identity = std::move(identity);
    c.clock = clock_.clock();
    return c;
  }
  LeaseRecord stored() const { return record_from_lease(leases_.lease().value_or(json{})); }
  std::string requests() { return leases_.server().describe_requests(); }

  FakeClock clock_;
  FakeLeaseServer leases_;
  std::unique_ptr<Client> client_ = leases_.client();
};

TEST_F(ElectorStep, AbsentLeaseIsCreated) {
  LeaderElector a(*client_, config("a"));
  ASSERT_TRUE(a.try_acquire_or_renew()) << requests();
  const LeaseRecord r = stored();
  EXPECT_EQ(r.holder_identity, "a");
  EXPECT_EQ(r.lease_duration_seconds, 15);
  EXPECT_EQ(r.acquire_time, clock_.wall());
  EXPECT_EQ(r.renew_time, clock_.wall());
  EXPECT_EQ(r.lease_transitions, 0);
  EXPECT_EQ(a.observed_leader(), "a");
}

TEST_F(ElectorStep, RenewingUpdatesRenewTimeWithOneRequest) {
  LeaderElector a(*client_, config("a"));
  ASSERT_TRUE(a.try_acquire_or_renew());
  const WallTime acquired = clock_.wall();
  const std::string rv = leases_.lease()->at("metadata").at("resourceVersion");
  leases_.server().clear_requests();

  clock_.step(2s);
  ASSERT_TRUE(a.try_acquire_or_renew()) << requests();
  const auto log = leases_.server().requests();
  ASSERT_EQ(log.size(), 1u) << requests();
  EXPECT_EQ(log[0].method, "PUT");
  EXPECT_EQ(log[0].json()["metadata"]["resourceVersion"], rv);
  const LeaseRecord r = stored();
  EXPECT_EQ(r.acquire_time, acquired);
  EXPECT_EQ(r.renew_time, acquired + 2s);
  EXPECT_EQ(r.lease_transitions, 0);
}

TEST_F(ElectorStep, SecondCandidateWaitsOutALiveLeaseThenTakesOver) {
  LeaderElector a(*client_, config("a"));
  LeaderElector b(*client_, config("b"));
  ASSERT_TRUE(a.try_acquire_or_renew());
  EXPECT_FALSE(b.try_acquire_or_renew());
  EXPECT_EQ(b.observed_leader(), "a");

  clock_.step(14s);
  EXPECT_FALSE(b.try_acquire_or_renew());
  ASSERT_TRUE(a.try_acquire_or_renew());  // a renews: b's 15 s start again when it sees that
  clock_.step(14s);
  EXPECT_FALSE(b.try_acquire_or_renew()) << "b took over a lease renewed 14 s ago";
  EXPECT_EQ(stored().holder_identity, "a");

  clock_.step(15s);  // a stopped renewing: expired on b's clock
  ASSERT_TRUE(b.try_acquire_or_renew()) << requests();
  const LeaseRecord r = stored();
  EXPECT_EQ(r.holder_identity, "b");
  EXPECT_EQ(r.lease_transitions, 1);
  EXPECT_EQ(r.acquire_time, clock_.wall());
}

TEST_F(ElectorStep, ConflictFailsTheAttemptAndTheNewHolderIsSeen) {
  LeaderElector a(*client_, config("a"));
  ASSERT_TRUE(a.try_acquire_or_renew());
  leases_.overwrite_spec({{"holderIdentity", "intruder"}, {"leaseDurationSeconds", 15}});
  leases_.server().clear_requests();

  EXPECT_FALSE(a.try_acquire_or_renew());
  // The renewal with the old resourceVersion conflicted; a re-read showed the new holder.
  const auto log = leases_.server().requests();
  ASSERT_EQ(log.size(), 2u) << requests();
  EXPECT_EQ(log[0].method, "PUT");
  EXPECT_EQ(log[1].method, "GET");
  EXPECT_EQ(a.observed_leader(), "intruder");
  EXPECT_EQ(stored().holder_identity, "intruder");
}

TEST_F(ElectorStep, ReleaseClearsTheHolderSoAnotherCandidateTakesOverAtOnce) {
  LeaderElector a(*client_, config("a"));
  LeaderElector b(*client_, config("b"));
  ASSERT_TRUE(a.try_acquire_or_renew());
  EXPECT_FALSE(b.try_acquire_or_renew());

  ASSERT_TRUE(a.release());
  LeaseRecord r = stored();
  EXPECT_EQ(r.holder_identity, "");
  EXPECT_EQ(r.lease_duration_seconds, 1);
  EXPECT_EQ(r.lease_transitions, 0);

  ASSERT_TRUE(b.try_acquire_or_renew()) << requests();  // no waiting, same clock instant
  r = stored();
  EXPECT_EQ(r.holder_identity, "b");
  EXPECT_EQ(r.lease_transitions, 1);
}

TEST_F(ElectorStep, ReleaseWithoutHoldingWritesNothing) {
  LeaderElector a(*client_, config("a"));
  LeaderElector b(*client_, config("b"));
  ASSERT_TRUE(a.try_acquire_or_renew());
  EXPECT_FALSE(b.try_acquire_or_renew());
  const int writes = leases_.writes();
  EXPECT_TRUE(b.release());
  EXPECT_EQ(leases_.writes(), writes);
  EXPECT_EQ(stored().holder_identity, "a");
}

TEST_F(ElectorStep, ServerErrorsFailTheAttempt) {
  LeaderElector a(*client_, config("a"));
  leases_.fail_with(500);
  EXPECT_FALSE(a.try_acquire_or_renew());
  EXPECT_FALSE(leases_.lease());
  leases_.fail_with(0);
  EXPECT_TRUE(a.try_acquire_or_renew());
}

TEST_F(ElectorStep, CreateRaceLostToAnotherCandidateFails) {
  LeaderElector a(*client_, config("a"));
  LeaderElector b(*client_, config("b"));
  ASSERT_TRUE(b.try_acquire_or_renew());
  leases_.hide_next_get();  // a reads "absent", then its create collides with b's Lease
  leases_.server().clear_requests();
  EXPECT_FALSE(a.try_acquire_or_renew());
  const auto log = leases_.server().requests();
  ASSERT_EQ(log.size(), 2u) << requests();
  EXPECT_EQ(log[1].method, "POST");
  EXPECT_EQ(stored().holder_identity, "b");
  EXPECT_FALSE(a.try_acquire_or_renew());  // the next attempt sees b's live lease
  EXPECT_EQ(a.observed_leader(), "b");
}

TEST(ElectorConfig, RejectsInconsistentDurations) {
  testutil::FakeLeaseServer leases;
  auto client = leases.client();
  auto make = [&](std::chrono::seconds lease, std::chrono::milliseconds renew,
                  std::chrono::milliseconds retry) {
    LeaderElectionConfig c;
    c.lease_namespace = "ns";
    c.lease_name = "l";
    c.identity = "me";
    c.lease_duration = lease;
    c.renew_deadline = renew;
    c.retry_period = retry;
    LeaderElector e(*client, c);
  };
  EXPECT_NO_THROW(make(15s, 10s, 2s));
  EXPECT_THROW(make(10s, 10s, 2s), std::invalid_argument);
  EXPECT_THROW(make(15s, 2400ms, 2s), std::invalid_argument);
  EXPECT_THROW(make(15s, 10s, 0s), std::invalid_argument);
  LeaderElectionConfig no_identity;
  no_identity.lease_namespace = "ns";
  no_identity.lease_name = "l";
  EXPECT_THROW(LeaderElector(*client, no_identity), std::invalid_argument);
}

}  // namespace
}  // namespace vc::kube::leaderelection

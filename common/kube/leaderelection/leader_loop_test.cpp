// The elector's loop on its own thread against a fake API server, with short real durations.
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/kube/leaderelection/fake_lease_server_test_util.h"
#include "common/kube/leaderelection/leader_elector.h"
#include "common/testing/eventually.h"

namespace vc::kube::leaderelection {
namespace {

using namespace std::chrono_literals;
using testutil::FakeLeaseServer;

// Callback invocations in order, e.g. "started:a", "stopped:a", "new_leader:b".
class CallbackLog {
 public:
  LeaderCallbacks callbacks(const std::string& who) {
    return LeaderCallbacks{
        [this, who] {
          int now = ++leaders_;
          int seen = max_leaders_.load();
          while (now > seen && !max_leaders_.compare_exchange_weak(seen, now)) {
          }
          add("started:" + who);
        },
        [this, who] {
          --leaders_;
          add("stopped:" + who);
        },
        [this, who](const std::string& leader) { add("new_leader@" + who + ":" + leader); }};
  }

  bool wait_for(const std::string& entry, int times = 1, std::chrono::milliseconds timeout = 5s) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, timeout, [&] {
      return std::count(entries_.begin(), entries_.end(), entry) >= times;
    });
  }

  std::vector<std::string> entries() const {
    std::lock_guard lock(mu_);
    return entries_;
  }

  std::string describe() const {
    std::string out;
    for (const auto& e : entries()) out += e + "\n";
    return out;
  }

  int max_leaders() const { return max_leaders_; }

 private:
  void add(std::string e) {
    std::lock_guard lock(mu_);
    entries_.push_back(std::move(e));
    cv_.notify_all();
  }

  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::string> entries_;
  std::atomic<int> leaders_{0};
  std::atomic<int> max_leaders_{0};
};

bool eventually(const std::function<bool()>& pred, std::chrono::milliseconds timeout = 5s) {
  return vc::testing::eventually(pred, timeout);
}

class ElectorLoop : public ::testing::Test {
 protected:
  LeaderElectionConfig config(std::string identity) {
    LeaderElectionConfig c;
    c.lease_namespace = FakeLeaseServer::kNamespace;
    c.lease_name = FakeLeaseServer::kName;
    c.identity = std::move(identity);
    c.lease_duration = 1s;
    c.renew_deadline = 300ms;
    c.retry_period = 50ms;
    return c;
  }
  LeaseRecord stored() const { return record_from_lease(leases_.lease().value_or(json{})); }

  FakeLeaseServer leases_;
  std::unique_ptr<Client> client_ = leases_.client();
  CallbackLog log_;
};

TEST_F(ElectorLoop, LeadsRenewsAndReleasesOnStop) {
  LeaderElector a(*client_, config("a"), log_.callbacks("a"));
  a.start();
  ASSERT_TRUE(log_.wait_for("started:a")) << log_.describe();
  EXPECT_TRUE(a.is_leader());
  const int writes = leases_.writes();
  ASSERT_TRUE(eventually([&] { return leases_.writes() >= writes + 2; })) << "no renewals";
  EXPECT_EQ(stored().holder_identity, "a");

  a.stop();
  EXPECT_FALSE(a.is_leader());
  EXPECT_EQ(log_.entries(), (std::vector<std::string>{"new_leader@a:a", "started:a", "stopped:a"}));
  const LeaseRecord r = stored();
  EXPECT_EQ(r.holder_identity, "");
  EXPECT_EQ(r.lease_duration_seconds, 1);
}

TEST_F(ElectorLoop, LosesLeadershipWhenRenewalsFailThenCampaignsAgain) {
  LeaderElector a(*client_, config("a"), log_.callbacks("a"));
  a.start();
  ASSERT_TRUE(log_.wait_for("started:a")) << log_.describe();
  const auto failing_since = std::chrono::steady_clock::now();
  leases_.fail_with(500);
  ASSERT_TRUE(log_.wait_for("stopped:a")) << log_.describe();
  // Not before the renew deadline (300 ms, less a renewal that raced with the injection).
  EXPECT_GE(std::chrono::steady_clock::now() - failing_since, 250ms);
  EXPECT_FALSE(a.is_leader());
  leases_.fail_with(0);
  ASSERT_TRUE(log_.wait_for("started:a", 2)) << log_.describe();
  EXPECT_TRUE(a.is_leader());
  a.stop();
  EXPECT_EQ(log_.max_leaders(), 1);
}

TEST_F(ElectorLoop, StepsDownWhenAnotherCandidateTakesTheLeaseAndRetakesItAfterExpiry) {
  LeaderElector a(*client_, config("a"), log_.callbacks("a"));
  a.start();
  ASSERT_TRUE(log_.wait_for("started:a")) << log_.describe();
  const auto taken_at = std::chrono::steady_clock::now();
  leases_.overwrite_spec({{"holderIdentity", "intruder"}, {"leaseDurationSeconds", 1}});
  ASSERT_TRUE(log_.wait_for("stopped:a")) << log_.describe();
  // Stepped down on seeing the live rival, without waiting for the renew deadline to pass.
  EXPECT_LT(std::chrono::steady_clock::now() - taken_at, 1s);
  EXPECT_TRUE(log_.wait_for("new_leader@a:intruder")) << log_.describe();
  EXPECT_EQ(stored().holder_identity, "intruder") << "a overwrote a live lease";

  // The intruder never renews: after its second, a takes the Lease back.
  ASSERT_TRUE(log_.wait_for("started:a", 2)) << log_.describe();
  EXPECT_GE(std::chrono::steady_clock::now() - taken_at, 1s);
  const LeaseRecord r = stored();
  EXPECT_EQ(r.holder_identity, "a");
  EXPECT_EQ(r.lease_transitions, 1);
  a.stop();
}

TEST_F(ElectorLoop, OnlyOneOfTwoCandidatesLeadsUntilItStops) {
  auto a = std::make_unique<LeaderElector>(*client_, config("a"), log_.callbacks("a"));
  auto b = std::make_unique<LeaderElector>(*client_, config("b"), log_.callbacks("b"));
  a->start();
  ASSERT_TRUE(log_.wait_for("started:a")) << log_.describe();
  b->start();
  ASSERT_TRUE(log_.wait_for("new_leader@b:a")) << log_.describe();
  // Let both loops run several retry periods: b keeps seeing a's renewals.
  const auto seen = leases_.server().requests().size();
  ASSERT_TRUE(leases_.server().wait_for_requests(seen + 20, 5s));
  EXPECT_TRUE(a->is_leader());
  EXPECT_FALSE(b->is_leader());

  a->stop();  // releases: b need not wait out the lease
  const auto released_at = std::chrono::steady_clock::now();
  ASSERT_TRUE(log_.wait_for("started:b")) << log_.describe();
  EXPECT_LT(std::chrono::steady_clock::now() - released_at, 1s);
  EXPECT_EQ(stored().holder_identity, "b");
  EXPECT_EQ(stored().lease_transitions, 1);
  b->stop();
  EXPECT_EQ(log_.max_leaders(), 1) << log_.describe();
}

// A partition: requests go unanswered. The renewal in flight ends at the renew deadline, not a
// request timeout later, so the leader steps down (and fences its controllers) in time; and
// once stepped down it reads the Lease before writing it, never renewing blindly from its last
// write, since the Lease may have changed hands meanwhile.
TEST_F(ElectorLoop, HungRenewalEndsAtTheRenewDeadlineAndTheNextAttemptReadsFirst) {
  auto slow_client = leases_.client(5s);  // only the round's deadline can end a hung request
  LeaderElector a(*slow_client, config("a"), log_.callbacks("a"));
  a.start();
  ASSERT_TRUE(log_.wait_for("started:a")) << log_.describe();
  const auto cut_at = std::chrono::steady_clock::now();
  leases_.stall(true);
  ASSERT_TRUE(log_.wait_for("stopped:a", 1, 3s)) << log_.describe();
  // Renew deadline 300 ms after a round that starts within one 50 ms retry period.
  EXPECT_LT(std::chrono::steady_clock::now() - cut_at, 1s) << "stepped down a request timeout late";
  // The partition goes on until the next attempt has sent its first request: the renewal that
  // hung must be followed by a read, never by a blind write. (That read hangs too, until the
  // client's 5 s timeout; the attempt after it succeeds.)
  ASSERT_TRUE(leases_.wait_for_stalled(2, 3s)) << leases_.server().describe_requests();
  const std::vector<std::string> stalled = leases_.stalled_methods();
  EXPECT_EQ(stalled[0], "PUT") << "the hung request was not the renewal";
  EXPECT_EQ(stalled[1], "GET") << "a replica that stepped down wrote blindly:\n"
                               << leases_.server().describe_requests();
  leases_.stall(false);
  ASSERT_TRUE(log_.wait_for("started:a", 2, 10s)) << log_.describe();
  a.stop();
}

}  // namespace
}  // namespace vc::kube::leaderelection

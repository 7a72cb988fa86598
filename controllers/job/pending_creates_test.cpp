#include "controllers/job/pending_creates.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>

namespace vc::controllers::job {
namespace {

using namespace std::chrono_literals;
using Clock = PendingCreates::Clock;

kube::cache::ObjectPtr object(const std::string& name, const std::string& uid) {
  auto o = std::make_shared<kube::cache::Object>();
  o->namespace_ = "ns1";
  o->name = name;
  o->uid = uid;
  return o;
}

std::vector<std::string> names(std::vector<kube::cache::ObjectPtr> objects) {
  std::vector<std::string> out;
  for (const auto& o : objects) out.push_back(o->name);
  std::sort(out.begin(), out.end());
  return out;
}

TEST(PendingCreates, RecordedPerJobUntilForgotten) {
  PendingCreates creates(1min);
  const auto t0 = Clock::time_point{} + 1h;
  EXPECT_TRUE(creates.empty());
  creates.record("ns1/job1", object("job1-a-0", "uid-a"), t0);
  creates.record("ns1/job1", object("job1-a-1", "uid-b"), t0);
  creates.record("ns1/job2", object("job2-a-0", "uid-c"), t0);
  EXPECT_EQ(creates.size(), 3u);
  EXPECT_EQ(names(creates.of("ns1/job1", t0 + 1s)),
            (std::vector<std::string>{"job1-a-0", "job1-a-1"}));
  creates.forget("ns1/job1", "uid-a");
  EXPECT_EQ(names(creates.of("ns1/job1", t0 + 1s)), (std::vector<std::string>{"job1-a-1"}));
  EXPECT_EQ(names(creates.of("ns1/job2", t0 + 1s)), (std::vector<std::string>{"job2-a-0"}));
  creates.forget("ns1/job1", "uid-b");
  creates.forget("ns1/job2", "uid-c");
  EXPECT_TRUE(creates.empty());
  EXPECT_TRUE(creates.of("ns1/job1", t0 + 1s).empty());
}

TEST(PendingCreates, ForgettingNeedsTheSameJobAndUid) {
  PendingCreates creates;
  creates.record("ns1/job1", object("job1-a-0", "uid-a"));
  creates.forget("ns1/job1", "uid-other");
  creates.forget("ns1/job2", "uid-a");
  EXPECT_EQ(creates.size(), 1u) << "an object of the same name made by someone else is not ours";
}

TEST(PendingCreates, RecordingTheSameUidAgainReplacesTheEntry) {
  PendingCreates creates(1min);
  const auto t0 = Clock::time_point{} + 1h;
  creates.record("ns1/job1", object("job1-a-0", "uid-a"), t0);
  creates.record("ns1/job1", object("job1-a-0", "uid-a"), t0 + 50s);
  EXPECT_EQ(creates.size(), 1u);
  EXPECT_EQ(creates.of("ns1/job1", t0 + 100s).size(), 1u) << "the second record restarts the ttl";
}

TEST(PendingCreates, EntriesExpireAfterTheTtlAndArePruned) {
  PendingCreates creates(1min);
  const auto t0 = Clock::time_point{} + 1h;
  creates.record("ns1/job1", object("old", "uid-old"), t0);
  EXPECT_EQ(creates.of("ns1/job1", t0 + 59s).size(), 1u);
  EXPECT_TRUE(creates.of("ns1/job1", t0 + 60s).empty());
  creates.record("ns1/job2", object("new", "uid-new"), t0 + 61s);
  EXPECT_EQ(creates.size(), 1u) << "the expired entry must be dropped by a later record";
  EXPECT_EQ(names(creates.of("ns1/job2", t0 + 62s)), (std::vector<std::string>{"new"}));
}

TEST(PendingCreates, ObjectWithoutUidIsNeverRecorded) {
  PendingCreates creates;
  creates.record("ns1/job1", object("job1-a-0", ""));
  creates.record("ns1/job1", nullptr);
  EXPECT_TRUE(creates.empty());
}

}  // namespace
}  // namespace vc::controllers::job

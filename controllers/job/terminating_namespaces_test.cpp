#include "controllers/job/terminating_namespaces.h"

#include <gtest/gtest.h>

namespace vc::controllers::job {
namespace {

using namespace std::chrono_literals;
using Clock = TerminatingNamespaces::Clock;
const auto t0 = Clock::time_point{} + 1h;

TEST(TerminatingNamespaces, ARefusalHoldsOnlyItsNamespaceForTheHold) {
  TerminatingNamespaces ns(2s);
  EXPECT_TRUE(ns.may_create("team-a", t0)) << "nothing marked yet";
  EXPECT_EQ(ns.held_for("team-a", t0), Clock::duration::zero());
  ns.refused("team-a", t0);
  EXPECT_FALSE(ns.may_create("team-a", t0 + 500ms));
  EXPECT_EQ(ns.held_for("team-a", t0 + 500ms), 1500ms) << "what is left of the hold";
  EXPECT_TRUE(ns.may_create("team-b", t0 + 500ms)) << "another namespace";
  EXPECT_EQ(ns.held_for("team-b", t0 + 500ms), Clock::duration::zero());
}

TEST(TerminatingNamespaces, AfterTheHoldOneCallerProbesAndTheOthersWaitAgain) {
  TerminatingNamespaces ns(2s);
  ns.refused("team-a", t0);
  EXPECT_EQ(ns.held_for("team-a", t0 + 2s), Clock::duration::zero());
  EXPECT_TRUE(ns.may_create("team-a", t0 + 2s)) << "the probe";
  EXPECT_FALSE(ns.may_create("team-a", t0 + 2s)) << "a second job in the same moment waits";
  EXPECT_EQ(ns.held_for("team-a", t0 + 2s), 2s) << "it is synced again when the probe's hold ends";
  ns.refused("team-a", t0 + 2100ms);  // the probe was refused: still being deleted
  EXPECT_FALSE(ns.may_create("team-a", t0 + 4s));
  EXPECT_TRUE(ns.may_create("team-a", t0 + 4100ms));
}

TEST(TerminatingNamespaces, ASuccessfulCreateClearsTheMark) {
  // The namespace was deleted and created again under the same name: its jobs must not wait.
  TerminatingNamespaces ns(2s);
  ns.refused("team-a", t0);
  ASSERT_TRUE(ns.may_create("team-a", t0 + 2s));
  ns.created("team-a");
  EXPECT_TRUE(ns.may_create("team-a", t0 + 2s));
  EXPECT_EQ(ns.held_for("team-a", t0 + 2s), Clock::duration::zero());
  EXPECT_EQ(ns.size(), 0u);
}

TEST(TerminatingNamespaces, MarksEndedAHoldAgoArePrunedOnTheNextRefusal) {
  TerminatingNamespaces ns(2s);
  ns.refused("a", t0);
  ns.refused("b", t0 + 3s);
  EXPECT_EQ(ns.size(), 2u) << "a ended at t0 + 2s; it could still be probed";
  ns.refused("c", t0 + 4s);
  EXPECT_EQ(ns.size(), 2u) << "a ended a hold ago: gone";
  EXPECT_TRUE(ns.may_create("a", t0 + 4s));
  EXPECT_FALSE(ns.may_create("b", t0 + 4s));
}

}  // namespace
}  // namespace vc::controllers::job

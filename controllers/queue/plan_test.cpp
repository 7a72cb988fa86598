#include "controllers/queue/plan.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <variant>

namespace vc::controllers::queue {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

QueueInfo queue(std::string name, std::string state, std::string parent = "root",
                std::optional<std::string> closed_by_parent = std::nullopt) {
  return QueueInfo{.name = std::move(name),
                   .uid = "uid",
                   .resource_version = "10",
                   .parent = std::move(parent),
                   .state = std::move(state),
                   .closed_by_parent = std::move(closed_by_parent)};
}

Snapshot snap(QueueInfo q, std::optional<QueueInfo> parent = queue("root", "Open", ""),
              std::vector<std::string> phases = {}, std::vector<QueueInfo> children = {}) {
  return Snapshot{std::move(q), std::move(parent), std::move(children), std::move(phases)};
}

const Request kSync{"q", "OutOfSync", "SyncQueue"};
const Request kOpen{"q", "CommandIssued", "OpenQueue"};
const Request kClose{"q", "CommandIssued", "CloseQueue"};
const char* kZero = "PublishCounts pending=0 running=0 unknown=0 inqueue=0 completed=0";

std::vector<std::string> steps(const Request& r, const Snapshot& s) {
  return describe(plan_request(r, s));
}

TEST(QueuePlanSync, NewQueueGetsRootParentAndOpens) {
  EXPECT_THAT(steps(kSync, snap(queue("q", "", ""))),
              ElementsAre("DefaultParent root", kZero, "ApplyState \"\"->Open"));
}

TEST(QueuePlanSync, RootIsNeitherDefaultedNorCheckedAgainstAParent) {
  EXPECT_THAT(steps({"root", "OutOfSync", "SyncQueue"}, snap(queue("root", "", ""), std::nullopt)),
              ElementsAre(kZero, "ApplyState \"\"->Open"));
}

TEST(QueuePlanSync, OpenQueueInSteadyStateOnlyPublishesCounts) {
  EXPECT_THAT(steps(kSync, snap(queue("q", "Open"), queue("root", "Open", ""),
                                {"Running", "Pending", "Inqueue", "Completed", "Unknown"})),
              ElementsAre("PublishCounts pending=1 running=1 unknown=1 inqueue=1 completed=1"));
}

TEST(QueuePlanSync, ClosingQueueClosesOnlyWhenNoPodGroupOfAnyPhaseIsLeft) {
  EXPECT_THAT(steps(kSync, snap(queue("q", "Closing"), queue("root", "Open", ""), {"Completed"})),
              ElementsAre("PublishCounts pending=0 running=0 unknown=0 inqueue=0 completed=1"));
  EXPECT_THAT(steps(kSync, snap(queue("q", "Closing"), queue("root", "Open", ""), {""})),
              ElementsAre(kZero));
  EXPECT_THAT(steps(kSync, snap(queue("q", "Closing"))),
              ElementsAre(kZero, "ApplyState Closing->Closed"));
}

TEST(QueuePlanSync, SyncOnAClosingQueueWithNoPodGroupsClosesIt) {
  // The SYNC the queue's own state change enqueues (queue_controller.cpp, queue_handler): after
  // our CLOSE wrote Closing and the last PodGroup went, it finishes the close with no further
  // event.
  EXPECT_THAT(steps(kSync, snap(queue("q", "Closing"), queue("root", "Open", ""), {})),
              ElementsAre(kZero, "ApplyState Closing->Closed"));
}

TEST(QueuePlanSync, MissingParentFailsAfterTheStateIsWritten) {
  auto s = steps(kSync, snap(queue("q", "", "p"), std::nullopt));
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[1], "ApplyState \"\"->Open");
  EXPECT_EQ(s[2],
            "Fail Failed to get parent queue p of queue q: queues.scheduling.volcano.sh \"p\" "
            "not found");
}

TEST(QueuePlanSync, ClosedParentMarksAnOpenChildAndClosesIt) {
  for (const char* parent_state : {"Closed", "Closing"}) {
    EXPECT_THAT(steps(kSync, snap(queue("q", "Open", "p"), queue("p", parent_state))),
                ElementsAre(kZero, "Annotate q closed-by-parent=true", "Enqueue q CloseQueue"));
  }
  auto plan = plan_request(kSync, snap(queue("q", "Open", "p"), queue("p", "Closed")));
  const auto* enqueue = std::get_if<step::Enqueue>(&plan.steps.back());
  ASSERT_NE(enqueue, nullptr);
  EXPECT_EQ(enqueue->request, (Request{"q", "", "CloseQueue"}));  // no event, as in Volcano
}

TEST(QueuePlanSync, OpenParentReopensAChildClosedByIt) {
  EXPECT_THAT(steps(kSync, snap(queue("q", "Closed", "p", "true"), queue("p", "Open"))),
              ElementsAre(kZero, "Enqueue q OpenQueue"));
  // Closed by hand (no mark, or mark false): stays closed.
  EXPECT_THAT(steps(kSync, snap(queue("q", "Closed", "p", "false"), queue("p", "Open"))),
              ElementsAre(kZero));
  EXPECT_THAT(steps(kSync, snap(queue("q", "Closed", "p"), queue("p", "Open"))),
              ElementsAre(kZero));
}

TEST(QueuePlanSync, ClosedQueueClosesChildrenLeftOpenByAnInterruptedClose) {
  // CLOSE wrote this queue's state and then failed to mark c1: the retry is a SYNC (Closed +
  // CloseQueue), which finishes the cascade.
  for (const char* state : {"Closed", "Closing"}) {
    Snapshot s = snap(queue("q", state), queue("root", "Open", ""),
                      {std::string(state) == "Closing" ? "Running" : ""},
                      {queue("c1", "Open", "q"), queue("c2", "Closed", "q", "true")});
    if (std::string(state) == "Closed") s.podgroup_phases.clear();
    EXPECT_THAT(steps(kClose, s),
                ElementsAre(::testing::StartsWith("PublishCounts"),
                            "Annotate c1 closed-by-parent=true", "Enqueue c1 CloseQueue"))
        << state;
  }
  // An open queue leaves its children alone.
  EXPECT_THAT(steps(kSync, snap(queue("q", "Open"), queue("root", "Open", ""), {},
                                {queue("c1", "Open", "q"), queue("c2", "Closed", "q")})),
              ElementsAre(kZero));
}

TEST(QueuePlanSync, ParentWithoutStateOrUnknownChangesNothing) {
  for (const char* parent_state : {"", "Unknown"}) {
    EXPECT_THAT(steps(kSync, snap(queue("q", "Closed", "p", "true"), queue("p", parent_state))),
                ElementsAre(kZero));
  }
}

TEST(QueuePlanSync, InvalidStateFails) {
  EXPECT_THAT(steps(kSync, snap(queue("q", "Paused"))),
              ElementsAre("Fail queue q state Paused is invalid"));
}

TEST(QueuePlanOpen, AppliesOpenThenReopensMarkedChildrenThenClearsTheMark) {
  Snapshot s = snap(queue("q", "Closed", "root", "true"), queue("root", "Open", ""), {},
                    {queue("c1", "Closed", "q", "true"), queue("c2", "Closed", "q", "false"),
                     queue("c3", "Closed", "q")});
  // Own state first: the children's OPEN then finds their parent Open.
  EXPECT_THAT(steps(kOpen, s), ElementsAre("ApplyState Closed->Open", "Enqueue c1 OpenQueue",
                                           "Annotate q closed-by-parent=false"));
  const Plan plan = plan_request(kOpen, s);
  const auto& apply = std::get<step::ApplyState>(plan.steps[0]);
  EXPECT_EQ(apply.failure_reason, "OpenQueue");
  EXPECT_EQ(apply.failure_prefix, "Update queue status from Closed to Open failed for ");
  EXPECT_EQ(apply.success_reason, "");  // no success event on open
}

TEST(QueuePlanOpen, AlreadyUnmarkedQueueIsNotAnnotatedAgain) {
  EXPECT_THAT(steps(kOpen, snap(queue("q", "Unknown", "root", "false"))),
              ElementsAre("ApplyState Unknown->Open"));
}

TEST(QueuePlanOpen, ParentCachedClosedOrClosingIsCheckedAgainstTheApiServerNotFailed) {
  // Our own OPEN of p wrote Open and asked for q's OPEN; the cache can still show p Closed or
  // Closing. The executor's live read fails the OPEN with Volcano's error only if p really is
  // (executor_test.cpp, RequireParentOpenReadsTheParentFromTheApiServer).
  for (const char* cached : {"Closed", "Closing"}) {
    EXPECT_THAT(steps(kOpen, snap(queue("q", "Closed", "p", "true"), queue("p", cached))),
                ElementsAre("RequireParentOpen p", "ApplyState Closed->Open",
                            "Annotate q closed-by-parent=false"))
        << cached;
  }
}

TEST(QueuePlanOpen, ParentMissingFromTheCacheIsCheckedAgainstTheApiServerNotFailed) {
  // NotFound from the live read fails with the lister's text
  // (executor_test.cpp, RequireParentOpenOnAMissingParentFailsWithTheListerText).
  EXPECT_THAT(steps(kOpen, snap(queue("q", "Closing", "p"), std::nullopt)),
              ElementsAre("RequireParentOpen p", "ApplyState Closing->Open",
                          "Annotate q closed-by-parent=false"));
}

TEST(QueuePlanOpen, EmptyOrRootParentIsNotChecked) {
  EXPECT_THAT(steps(kOpen, snap(queue("q", "Closed", ""), std::nullopt)),
              ElementsAre("ApplyState Closed->Open", "Annotate q closed-by-parent=false"));
  EXPECT_THAT(steps(kOpen, snap(queue("q", "Closed", "root"), std::nullopt)),
              ElementsAre("ApplyState Closed->Open", "Annotate q closed-by-parent=false"));
}

TEST(QueuePlanOpen, ParentOpenInTheCacheIsCheckedAgainstTheApiServerFirst) {
  // The cache may still show a parent Open that was just closed: the executor reads it again
  // before the child's state is written.
  EXPECT_THAT(steps(kOpen, snap(queue("q", "Closed", "p", "true"), queue("p", "Open"))),
              ElementsAre("RequireParentOpen p", "ApplyState Closed->Open",
                          "Annotate q closed-by-parent=false"));
  EXPECT_THAT(steps(kOpen, snap(queue("q", "Closed", "root", "true"), queue("root", "Open", ""))),
              ElementsAre("ApplyState Closed->Open", "Annotate q closed-by-parent=false"));
}

TEST(QueuePlanClose, CascadesToOpenChildrenAndClosesAnEmptyQueue) {
  Snapshot s = snap(queue("q", "Open"), queue("root", "Open", ""), {},
                    {queue("c1", "Open", "q"), queue("c2", "Closed", "q"), queue("c3", "", "q"),
                     queue("c4", "Closing", "q")});
  // Own state first: a child's SYNC in between finds its parent closed, not Open.
  EXPECT_THAT(steps(kClose, s),
              ElementsAre("ApplyState Open->Closed", "Annotate c1 closed-by-parent=true",
                          "Enqueue c1 CloseQueue", "Annotate c3 closed-by-parent=true",
                          "Enqueue c3 CloseQueue"));
  const Plan plan = plan_request(kClose, s);
  const auto& apply = std::get<step::ApplyState>(plan.steps.front());
  EXPECT_EQ(apply.failure_reason, "CloseQueue");
  EXPECT_EQ(apply.failure_prefix, "Close queue failed for ");
  EXPECT_EQ(apply.success_reason, "CloseQueue");
  EXPECT_EQ(apply.success_message, "Close queue succeed");
  // Counts are not published on the CLOSE path (spec controller-manager.md §6.3.9).
  for (const Step& st : plan.steps) EXPECT_FALSE(std::holds_alternative<step::PublishCounts>(st));
}

TEST(QueuePlanClose, QueueWithPodGroupsGoesToClosing) {
  EXPECT_THAT(steps(kClose, snap(queue("q", "Unknown"), queue("root", "Open", ""), {"Running"})),
              ElementsAre("ApplyState Unknown->Closing"));
}

TEST(QueuePlanClose, RootCannotBeClosed) {
  Snapshot s = snap(queue("root", "Open", ""), std::nullopt, {}, {queue("c1", "Open", "root")});
  EXPECT_THAT(steps({"root", "CommandIssued", "CloseQueue"}, s),
              ElementsAre("Note Root queue cannot be closed"));
}

TEST(QueuePlanClose, CloseOnAClosedQueueIsASync) {
  EXPECT_THAT(steps(kClose, snap(queue("q", "Closed"))), ElementsAre(kZero));
}

TEST(QueuePlan, EffectiveParent) {
  EXPECT_EQ(effective_parent(queue("root", "", "")), "");
  EXPECT_EQ(effective_parent(queue("q", "", "")), "root");
  EXPECT_EQ(effective_parent(queue("q", "", "p")), "p");
}

}  // namespace
}  // namespace vc::controllers::queue

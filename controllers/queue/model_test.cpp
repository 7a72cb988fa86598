#include "controllers/queue/model.h"

#include <gtest/gtest.h>

#include "controllers/queue/command.h"

namespace vc::controllers::queue {
namespace {

using nlohmann::json;

TEST(QueueRequestKey, EqualRequestsHashAlikeAndDescribeNamesEveryField) {
  const RequestHash hash;
  const Request a{"q1", "OutOfSync", "SyncQueue"};
  EXPECT_EQ(hash(a), hash(Request{"q1", "OutOfSync", "SyncQueue"}));
  EXPECT_NE(a, (Request{"q1", "OutOfSync", "OpenQueue"}));
  EXPECT_NE(hash(a), hash(Request{"q1", "OutOfSync", "OpenQueue"}));
  EXPECT_EQ(describe(Request{"q", "CommandIssued", "odd/action"}), "CommandIssued/odd/action/q");
  EXPECT_EQ(describe(Request{"q.a-b", "", "OpenQueue"}), "/OpenQueue/q.a-b");
}

TEST(QueueInfo, ReadsTheFieldsTheControllerUses) {
  json q = {{"metadata",
             {{"name", "q1"},
              {"uid", "u1"},
              {"resourceVersion", "7"},
              {"annotations", {{"volcano.sh/closed-by-parent", "true"}, {"x", "y"}}}}},
            {"spec", {{"parent", "p"}}},
            {"status", {{"state", "Closing"}}}};
  volcano::Queue queue;
  volcano::decode_queue(q, queue);
  QueueInfo info = queue_info(queue);
  EXPECT_EQ(info.name, "q1");
  EXPECT_EQ(info.uid, "u1");
  EXPECT_EQ(info.resource_version, "7");
  EXPECT_EQ(info.parent, "p");
  EXPECT_EQ(info.state, "Closing");
  EXPECT_EQ(info.closed_by_parent, "true");
  EXPECT_EQ(info.reference().kind, "Queue");
  EXPECT_EQ(info.reference().api_version, "scheduling.volcano.sh/v1beta1");
  EXPECT_EQ(info.reference().namespace_, "");
}

TEST(QueueInfo, MissingFieldsReadAsAbsent) {
  volcano::Queue queue;
  volcano::decode_queue({{"metadata", {{"name", "q"}, {"annotations", nullptr}}}, {"spec", {}}},
                        queue);
  QueueInfo info = queue_info(queue);
  EXPECT_EQ(info.parent, "");
  EXPECT_EQ(info.state, "");
  EXPECT_FALSE(info.closed_by_parent.has_value());
}

TEST(CountPhases, CountsTheFivePhasesAndIgnoresOthers) {
  PhaseCounts c = count_phases(
      {"Pending", "Running", "Running", "Unknown", "Inqueue", "Completed", "", "Weird"});
  EXPECT_EQ(c,
            (PhaseCounts{.pending = 1, .running = 2, .unknown = 1, .inqueue = 1, .completed = 1}));
}

// What the controller makes of a Command the API server sends: the informer's command-view
// transform decodes it (and skips one that does not decode), then the controller reads it.
bool targets_queue(const json& command) {
  auto c = volcano::command_from_json(command);
  return c && queue::targets_queue(*c);
}
std::optional<Request> command_request(const json& command) {
  auto c = volcano::command_from_json(command);
  return c ? queue::command_request(*c) : std::nullopt;
}

json command(const std::string& api_version, const std::string& kind, const std::string& name,
             const std::string& action) {
  return {{"apiVersion", "bus.volcano.sh/v1alpha1"},
          {"kind", "Command"},
          {"metadata", {{"namespace", "default"}, {"name", "c1"}}},
          {"action", action},
          {"target", {{"apiVersion", api_version}, {"kind", kind}, {"name", name}}}};
}

TEST(QueueCommand, CommandForAQueueBecomesACommandIssuedRequestWithTheActionVerbatim) {
  auto r = command_request(command("scheduling.volcano.sh/v1beta1", "Queue", "q1", "CloseQueue"));
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(*r, (Request{"q1", "CommandIssued", "CloseQueue"}));
  r = command_request(command("scheduling.volcano.sh/v1beta1", "Queue", "q1", "Whatever"));
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->action, "Whatever");
}

TEST(QueueCommand, CommandsForOtherTargetsAreIgnored) {
  EXPECT_FALSE(command_request(command("batch.volcano.sh/v1alpha1", "Job", "j", "AbortJob")));
  EXPECT_FALSE(command_request(command("scheduling.volcano.sh/v1", "Queue", "q", "OpenQueue")));
  EXPECT_FALSE(command_request(command("scheduling.volcano.sh/v1beta1", "Queue", "", "OpenQueue")));
  EXPECT_FALSE(command_request(json{{"action", "OpenQueue"}}));
  EXPECT_TRUE(targets_queue(command("scheduling.volcano.sh/v1beta1", "Queue", "q", "x")));
}

// Go's client cannot decode such a Command, so Volcano never sees it.
TEST(QueueCommand, ACommandWithAMistypedMemberTargetsNothing) {
  json c = command("scheduling.volcano.sh/v1beta1", "Queue", "q1", "CloseQueue");
  c["action"] = 1;
  EXPECT_FALSE(targets_queue(c));
  EXPECT_FALSE(command_request(c));
  c = command("scheduling.volcano.sh/v1beta1", "Queue", "q1", "CloseQueue");
  c["target"]["controller"] = "true";
  EXPECT_FALSE(targets_queue(c));
  EXPECT_FALSE(targets_queue(json::array()));
}

}  // namespace
}  // namespace vc::controllers::queue

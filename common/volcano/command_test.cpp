#include "common/volcano/command.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace vc::volcano {
namespace {

using nlohmann::json;
using testing::StrEq;
using testing::ThrowsMessage;

// What `vcctl queue operate --action close` creates.
json close_queue_command() {
  return json::parse(R"({
    "apiVersion": "bus.volcano.sh/v1alpha1",
    "kind": "Command",
    "metadata": {"name": "q1-closequeue-x7k2p", "namespace": "default", "uid": "c-1",
                 "generateName": "q1-closequeue-", "resourceVersion": "12",
                 "creationTimestamp": "2024-01-02T03:04:05Z"},
    "action": "CloseQueue",
    "reason": "maintenance",
    "message": "close it",
    "target": {"apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "Queue", "name": "q1",
               "uid": "q-1", "controller": true, "blockOwnerDeletion": false}
  })");
}

TEST(DecodeCommand, ReadsMetadataActionTargetReasonAndMessage) {
  Command c;
  decode_command(close_queue_command(), c);
  EXPECT_EQ(c.namespace_, "default");
  EXPECT_EQ(c.name, "q1-closequeue-x7k2p");
  EXPECT_EQ(c.uid, "c-1");
  EXPECT_EQ(c.resource_version, "12");
  EXPECT_EQ(c.creation_timestamp, api::parse_time("2024-01-02T03:04:05Z"));
  EXPECT_EQ(c.action, "CloseQueue");
  EXPECT_EQ(c.reason, "maintenance");
  EXPECT_EQ(c.message, "close it");
  ASSERT_TRUE(c.target.has_value());
  EXPECT_EQ(*c.target,
            (api::OwnerRef{"scheduling.volcano.sh/v1beta1", "Queue", "q1", "q-1", true, false}));
}

TEST(DecodeCommand, MissingOrNullMembersAreZeroValues) {
  Command c;
  decode_command(json::parse(R"({"action": null, "target": null})"), c);
  EXPECT_EQ(c.action, "");
  EXPECT_FALSE(c.target.has_value());
  EXPECT_EQ(c.name, "");
}

TEST(CommandTargets, ComparesApiVersionAndKindExactly) {
  Command c;
  decode_command(close_queue_command(), c);
  EXPECT_TRUE(c.targets("scheduling.volcano.sh/v1beta1", "Queue"));
  EXPECT_FALSE(c.targets("scheduling.volcano.sh/v1beta1", "queue"));
  EXPECT_FALSE(c.targets("scheduling.volcano.sh/v1", "Queue"));
  EXPECT_FALSE(Command{}.targets("", "")) << "no target targets nothing";
}

TEST(DecodeCommand, ErrorsNameTheField) {
  json c = close_queue_command();
  c["target"]["controller"] = "true";
  EXPECT_THAT(
      [&] {
        Command out;
        decode_command(c, out);
      },
      ThrowsMessage<DecodeError>(StrEq("target.controller: expected a boolean, got string")));
  c = close_queue_command();
  c["reason"] = 1;
  EXPECT_EQ(command_from_json(c).error(), "reason: expected a string, got number");
  EXPECT_EQ(command_from_json(json::array()).error(), "(root): expected an object, got array");
  ASSERT_TRUE(command_from_json(close_queue_command()).ok());
  EXPECT_EQ(command_from_json(close_queue_command())->action, "CloseQueue");
}

}  // namespace
}  // namespace vc::volcano

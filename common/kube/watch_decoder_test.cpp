#include <gtest/gtest.h>

#include <random>

#include "common/kube/watch_decoder.h"

namespace vc::kube {
namespace {

std::string event_text(const std::string& type, const std::string& name) {
  return json{{"type", type},
              {"object",
               {{"metadata", {{"name", name}, {"annotations", {{"tricky", "a}b{\"c\\\"[]"}}}}},
                {"spec", {{"list", {1, 2, {{"x", "}"}}}}}}}}}
             .dump() +
         "\n";
}

std::vector<std::string> feed_in_pieces(const std::string& stream,
                                        const std::vector<std::size_t>& cuts, Status* status) {
  WatchDecoder decoder;
  std::vector<std::string> names;
  auto on_event = [&](WatchEvent&& ev) {
    names.push_back(ev.object["metadata"]["name"].get<std::string>());
  };
  std::size_t pos = 0;
  for (std::size_t cut : cuts) {
    *status = decoder.feed(std::string_view(stream).substr(pos, cut - pos), on_event);
    if (!status->ok()) return names;
    pos = cut;
  }
  *status = decoder.feed(std::string_view(stream).substr(pos), on_event);
  EXPECT_TRUE(decoder.at_boundary());
  return names;
}

TEST(WatchDecoder, SeveralEventsInOneChunk) {
  const std::string stream =
      event_text("ADDED", "a") + event_text("MODIFIED", "b") + event_text("DELETED", "c");
  Status st = ok_status();
  EXPECT_EQ(feed_in_pieces(stream, {}, &st), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_TRUE(st.ok());
}

TEST(WatchDecoder, OneBytePerChunk) {
  const std::string stream = event_text("ADDED", "a") + event_text("BOOKMARK", "b");
  std::vector<std::size_t> cuts;
  for (std::size_t i = 1; i < stream.size(); ++i) cuts.push_back(i);
  Status st = ok_status();
  EXPECT_EQ(feed_in_pieces(stream, cuts, &st), (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(st.ok());
}

TEST(WatchDecoder, RandomChunkBoundariesDeliverEveryEventOnceInOrder) {
  std::string stream;
  std::vector<std::string> expected;
  for (int i = 0; i < 50; ++i) {
    expected.push_back("pod-" + std::to_string(i));
    stream += event_text(i % 2 ? "MODIFIED" : "ADDED", expected.back());
  }
  std::mt19937 rng(42);
  for (int round = 0; round < 50; ++round) {
    std::vector<std::size_t> cuts;
    std::size_t pos = 0;
    while (true) {
      pos += 1 + rng() % 97;
      if (pos >= stream.size()) break;
      cuts.push_back(pos);
    }
    Status st = ok_status();
    ASSERT_EQ(feed_in_pieces(stream, cuts, &st), expected) << "round " << round;
    ASSERT_TRUE(st.ok());
  }
}

TEST(WatchDecoder, EventsWithoutNewlinesAreSplitByStructure) {
  std::string stream = json{{"type", "ADDED"}, {"object", {{"metadata", {{"name", "a"}}}}}}.dump() +
                       json{{"type", "ADDED"}, {"object", {{"metadata", {{"name", "b"}}}}}}.dump();
  Status st = ok_status();
  EXPECT_EQ(feed_in_pieces(stream, {7, 30}, &st), (std::vector<std::string>{"a", "b"}));
}

TEST(WatchDecoder, ErrorEventIsDecoded) {
  auto ev = decode_watch_event(
      R"({"type":"ERROR","object":{"kind":"Status","code":410,"reason":"Expired"}})");
  ASSERT_TRUE(ev.ok());
  EXPECT_EQ(ev->type, WatchEvent::Type::Error);
  EXPECT_EQ(ev->object["code"], 410);
}

TEST(WatchDecoder, AnObjectFilterBuildsOnlyItsMembersButKeepsStatusErrors) {
  const auto filter = fastjson::MemberFilter::only({"metadata.name", "metadata.resourceVersion"});
  WatchDecoder decoder(&filter);
  std::vector<WatchEvent> events;
  auto on_event = [&](WatchEvent&& ev) { events.push_back(std::move(ev)); };
  ASSERT_TRUE(decoder
                  .feed(event_text("MODIFIED", "a") +
                            R"({"type":"ERROR","object":{"kind":"Status","apiVersion":"v1",)"
                            R"("metadata":{},"status":"Failure","message":"too old",)"
                            R"("reason":"Expired","code":410,"details":{"x":1}}})",
                        on_event)
                  .ok());
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].type, WatchEvent::Type::Modified);
  EXPECT_EQ(events[0].object, json::parse(R"({"metadata":{"name":"a"}})"));
  EXPECT_EQ(events[1].type, WatchEvent::Type::Error);
  EXPECT_EQ(events[1].object,
            json::parse(R"({"kind":"Status","apiVersion":"v1","metadata":{},"message":"too old",)"
                        R"("reason":"Expired","code":410,"details":{"x":1}})"));
  // A filter that keeps everything is no filter: managedFields is still dropped.
  const fastjson::MemberFilter all;
  WatchDecoder whole(&all);
  events.clear();
  ASSERT_TRUE(
      whole
          .feed(R"({"type":"ADDED","object":{"metadata":{"name":"b","managedFields":[]},"x":1}})",
                on_event)
          .ok());
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].object, json::parse(R"({"metadata":{"name":"b"},"x":1})"));
}

// known_version sees the head of Added and Modified events only; when it answers true the event
// comes head_only, with nothing of the object but its namespace, name and resourceVersion.
TEST(WatchDecoder, AKnownVersionIsDeliveredHeadOnly) {
  std::vector<std::string> asked;
  std::function<bool(const WatchEventHead&)> known = [&](const WatchEventHead& h) {
    asked.push_back(std::string(h.type == WatchEvent::Type::Added ? "ADDED" : "MODIFIED") + " " +
                    std::string(h.namespace_) + "/" + std::string(h.name) + "@" +
                    std::string(h.resource_version));
    return h.resource_version == "5";
  };
  WatchDecoder decoder(nullptr, &known);
  std::vector<WatchEvent> events;
  auto on_event = [&](WatchEvent&& ev) { events.push_back(std::move(ev)); };
  auto event = [](const std::string& type, const std::string& rv) {
    return json{{"type", type},
                {"object",
                 {{"metadata",
                   {{"managedFields", {{"big", 1}}},
                    {"name", "j"},
                    {"namespace", "ns"},
                    {"resourceVersion", rv}}},
                  {"spec", {{"x", 1}}}}}}
        .dump();
  };
  ASSERT_TRUE(decoder
                  .feed(event("MODIFIED", "5") + event("MODIFIED", "6") + event("ADDED", "5") +
                            event("DELETED", "5") +
                            R"({"type":"BOOKMARK","object":{"metadata":)"
                            R"({"resourceVersion":"5"}}})",
                        on_event)
                  .ok());
  EXPECT_EQ(asked,
            (std::vector<std::string>{"MODIFIED ns/j@5", "MODIFIED ns/j@6", "ADDED ns/j@5"}));
  ASSERT_EQ(events.size(), 5u);
  EXPECT_TRUE(events[0].head_only);
  EXPECT_EQ(events[0].type, WatchEvent::Type::Modified);
  EXPECT_EQ(events[0].object,
            json::parse(R"({"metadata":{"name":"j","namespace":"ns","resourceVersion":"5"}})"));
  EXPECT_FALSE(events[1].head_only);
  EXPECT_EQ(events[1].object["spec"]["x"], 1) << "an unknown version is built whole";
  EXPECT_TRUE(events[2].head_only);
  EXPECT_EQ(events[2].type, WatchEvent::Type::Added);
  EXPECT_FALSE(events[3].head_only) << "a deletion is never skipped";
  EXPECT_EQ(events[3].type, WatchEvent::Type::Deleted);
  EXPECT_EQ(events[4].type, WatchEvent::Type::Bookmark);

  // A frame the skim cannot read is left to the full decode, which reports it.
  events.clear();
  WatchDecoder strict(nullptr, &known);
  EXPECT_FALSE(strict.feed(R"({"type":"MODIFIED","object":{"metadata":[1,]}})", on_event).ok());
  EXPECT_TRUE(events.empty());
}

TEST(WatchDecoder, NothingKnownSkipsTheHead) {
  int asked = 0;
  std::function<bool(const WatchEventHead&)> known = [&](const WatchEventHead&) {
    ++asked;
    return true;
  };
  bool anything = false;
  std::function<bool()> anything_known = [&] { return anything; };
  WatchDecoder decoder(nullptr, &known, &anything_known);
  std::vector<WatchEvent> events;
  auto on_event = [&](WatchEvent&& ev) { events.push_back(std::move(ev)); };
  const std::string modified =
      R"({"type":"MODIFIED","object":{"metadata":{"name":"p","namespace":"ns",)"
      R"("resourceVersion":"3"},"spec":{"x":1}}})";
  ASSERT_TRUE(decoder.feed(modified, on_event).ok());
  EXPECT_EQ(asked, 0) << "nothing offered: the head is not read";
  ASSERT_EQ(events.size(), 1u);
  EXPECT_FALSE(events[0].head_only);
  EXPECT_EQ(events[0].object["spec"]["x"], 1);

  anything = true;
  ASSERT_TRUE(decoder.feed(modified, on_event).ok());
  EXPECT_EQ(asked, 1);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_TRUE(events[1].head_only);

  // Without known_version, anything_known is never asked.
  int asked_anything = 0;
  std::function<bool()> counting = [&] {
    ++asked_anything;
    return true;
  };
  WatchDecoder plain(nullptr, nullptr, &counting);
  ASSERT_TRUE(plain.feed(modified, on_event).ok());
  EXPECT_EQ(asked_anything, 0);
  EXPECT_FALSE(events.back().head_only);
}

TEST(WatchDecoder, GarbageIsAnError) {
  WatchDecoder decoder;
  int events = 0;
  auto st = decoder.feed("<html>oops</html>", [&](WatchEvent&&) { ++events; });
  EXPECT_TRUE(st.is(ErrorKind::Transport));
  EXPECT_EQ(events, 0);
  EXPECT_TRUE(decode_watch_event(R"({"type":"WHAT","object":{}})").is(ErrorKind::Transport));
  EXPECT_TRUE(decode_watch_event(R"({"object":{}})").is(ErrorKind::Transport));
}

TEST(WatchDecoder, PartialEventIsNotABoundary) {
  WatchDecoder decoder;
  int events = 0;
  ASSERT_TRUE(decoder.feed(R"({"type":"ADDED","obj)", [&](WatchEvent&&) { ++events; }).ok());
  EXPECT_FALSE(decoder.at_boundary());
  EXPECT_EQ(events, 0);
}

}  // namespace
}  // namespace vc::kube

// Informer and reflector behaviour against the fake API server: list, watch, resume, relist,
// faults, handlers and sync.

#include "common/kube/cache/informer.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/kube/cache/fake_collection_test_util.h"

namespace vc::kube::cache {
namespace {

using namespace testing_util;

class InformerTest : public ::testing::Test {
 protected:
  InformerTest()
      : pods_(server_, "/api/v1/pods"), client_(server_.config(), test_client_options()) {}

  std::unique_ptr<Informer> make(InformerOptions options = fast_options()) {
    return std::make_unique<Informer>(client_, resources::pods, std::move(options));
  }
  // Starts the informer with the recorder attached and waits for the first sync.
  void start_synced(Informer& informer) {
    informer.add_event_handler(recorder_.handler());
    informer.start();
    ASSERT_TRUE(informer.wait_for_sync({}, in(10s))) << server_.describe_requests();
  }

  FakeApiServer server_;
  FakeCollection pods_;
  Client client_;
  Recorder recorder_;
};

TEST_F(InformerTest, ListsThenWatchesFromTheListResourceVersion) {
  pods_.add_list_version({pod("ns", "a", 1), pod("ns", "b", 2)}, 10);
  auto informer = make();
  start_synced(*informer);
  auto watch = pods_.next_watch();
  ASSERT_TRUE(watch);
  EXPECT_EQ(pods_.watch_versions(), Events{"10"});

  watch->write_event("MODIFIED", pod("ns", "a", 11));
  watch->write_event("ADDED", pod("ns", "c", 12));
  watch->write_event("DELETED", pod("ns", "b", 13));
  EXPECT_EQ(recorder_.wait_for(5), (Events{"add ns/a@1", "add ns/b@2", "update ns/a@1->11",
                                           "add ns/c@12", "delete ns/b@13"}));
  EXPECT_EQ(informer->store().size(), 2u);
  EXPECT_EQ(informer->store().get("ns/a")->resource_version, "11");
  EXPECT_EQ(informer->store().get("ns/b"), nullptr);
  EXPECT_TRUE(eventually([&] { return informer->last_resource_version() == "13"; }))
      << informer->last_resource_version();
}

TEST_F(InformerTest, ConnectionResetMidWatchResumesFromTheLastResourceVersion) {
  pods_.add_list_version({pod("ns", "a", 1), pod("ns", "b", 1)}, 10);
  auto informer = make();
  start_synced(*informer);
  auto first = pods_.next_watch();
  ASSERT_TRUE(first);
  first->write_event("MODIFIED", pod("ns", "a", 11));
  first->write_event("ADDED", pod("ns", "c", 12));
  recorder_.wait_for(4);
  first->reset_connection();

  auto second = pods_.next_watch();
  ASSERT_TRUE(second) << server_.describe_requests();
  EXPECT_EQ(pods_.watch_versions(), (Events{"10", "12"}));
  second->write_event("DELETED", pod("ns", "b", 13));
  second->write_event("MODIFIED", pod("ns", "c", 14));
  second->write_event("ADDED", pod("ns", "marker", 15));
  EXPECT_EQ(recorder_.wait_for(7),
            (Events{"add ns/a@1", "add ns/b@1", "update ns/a@1->11", "add ns/c@12",
                    "delete ns/b@13", "update ns/c@12->14", "add ns/marker@15"}));
  EXPECT_EQ(pods_.list_continues().size(), 1u) << "a reset must not cause a relist";
}

TEST_F(InformerTest, CleanEndOfWatchResumesFromTheLastResourceVersion) {
  pods_.add_list_version({pod("ns", "a", 1)}, 10);
  auto informer = make();
  start_synced(*informer);
  auto first = pods_.next_watch();
  ASSERT_TRUE(first);
  first->write_event("MODIFIED", pod("ns", "a", 11));
  first->close();
  auto second = pods_.next_watch();
  ASSERT_TRUE(second);
  EXPECT_EQ(pods_.watch_versions(), (Events{"10", "11"}));
  second->write_event("ADDED", pod("ns", "marker", 12));
  EXPECT_EQ(recorder_.wait_for(3), (Events{"add ns/a@1", "update ns/a@1->11", "add ns/marker@12"}));
  EXPECT_EQ(pods_.list_continues().size(), 1u);
}

TEST_F(InformerTest, GoneAtWatchStartRelistsAndDeletesWhatVanished) {
  pods_.add_list_version({pod("ns", "a", 1), pod("ns", "b", 1), pod("ns", "c", 1)}, 10);
  pods_.add_list_version({pod("ns", "a", 1), pod("ns", "b", 5), pod("ns", "d", 6)}, 20);
  pods_.fail_next_watch(Response::error(410, "Expired", "too old resource version: 10"));
  auto informer = make();
  start_synced(*informer);

  auto watch = pods_.next_watch();
  ASSERT_TRUE(watch) << server_.describe_requests();
  EXPECT_EQ(pods_.watch_versions(), (Events{"10", "20"}));
  watch->write_event("ADDED", pod("ns", "marker", 21));
  EXPECT_EQ(recorder_.wait_for(7),
            (Events{"add ns/a@1", "add ns/b@1", "add ns/c@1", "update ns/b@1->5", "add ns/d@6",
                    "delete ns/c@1", "add ns/marker@21"}));
  EXPECT_EQ(pods_.list_continues().size(), 2u);
  EXPECT_EQ(informer->store().get("ns/c"), nullptr);
}

TEST_F(InformerTest, GoneErrorEventMidStreamRelistsAndIgnoresTheRestOfTheStream) {
  pods_.add_list_version({pod("ns", "a", 1), pod("ns", "b", 1)}, 10);
  pods_.add_list_version({pod("ns", "a", 3)}, 30);
  auto informer = make();
  start_synced(*informer);
  auto first = pods_.next_watch();
  ASSERT_TRUE(first);
  first->write_event("MODIFIED", pod("ns", "b", 11));
  recorder_.wait_for(3);
  first->write_event("ERROR", gone_status());
  first->write_event("MODIFIED", pod("ns", "a", 12));  // after the error: must be ignored

  auto second = pods_.next_watch();
  ASSERT_TRUE(second) << server_.describe_requests();
  EXPECT_EQ(pods_.watch_versions(), (Events{"10", "30"}));
  second->write_event("ADDED", pod("ns", "marker", 31));
  // b vanished while the watch was broken: its delete carries the last state we saw (rv 11).
  EXPECT_EQ(recorder_.wait_for(6),
            (Events{"add ns/a@1", "add ns/b@1", "update ns/b@1->11", "update ns/a@1->3",
                    "delete ns/b@11", "add ns/marker@31"}));
}

TEST_F(InformerTest, OtherErrorEventResumesTheWatchWithoutRelisting) {
  pods_.add_list_version({pod("ns", "a", 1)}, 10);
  auto informer = make();
  start_synced(*informer);
  auto first = pods_.next_watch();
  ASSERT_TRUE(first);
  first->write_event("MODIFIED", pod("ns", "a", 11));
  recorder_.wait_for(2);
  first->write_event("ERROR", {{"kind", "Status"}, {"code", 500}, {"reason", "InternalError"}});
  auto second = pods_.next_watch();
  ASSERT_TRUE(second);
  EXPECT_EQ(pods_.watch_versions(), (Events{"10", "11"}));
  EXPECT_EQ(pods_.list_continues().size(), 1u);
}

TEST_F(InformerTest, ExpiredContinueTokenRelistsFromTheFirstPage) {
  std::vector<json> items;
  for (int i = 0; i < 5; ++i) items.push_back(pod("ns", "p" + std::to_string(i), i + 1));
  pods_.add_list_version(items, 10);
  pods_.fail_list_page_once(2, Response::error(410, "Expired", "continue token expired"));
  auto options = fast_options();
  options.page_size = 2;
  auto informer = make(options);
  start_synced(*informer);
  EXPECT_EQ(pods_.list_continues(), (Events{"", "2", "", "2", "4"}));
  EXPECT_EQ(pods_.list_limits(), (Events{"2", "2", "2", "2", "2"}));
  EXPECT_EQ(recorder_.wait_for(5),
            (Events{"add ns/p0@1", "add ns/p1@2", "add ns/p2@3", "add ns/p3@4", "add ns/p4@5"}));
  EXPECT_EQ(informer->store().size(), 5u);
}

TEST_F(InformerTest, EventsSplitAcrossChunkBoundariesAreDecodedWhole) {
  pods_.add_list_version({pod("ns", "a", 1)}, 10);
  auto informer = make();
  start_synced(*informer);
  auto watch = pods_.next_watch();
  ASSERT_TRUE(watch);
  const std::string bytes =
      json{{"type", "MODIFIED"}, {"object", pod("ns", "a", 11, {{"x", "{\"}"}})}}.dump() + "\n" +
      json{{"type", "ADDED"}, {"object", pod("ns", "b", 12)}}.dump() + "\n";
  for (size_t i = 0; i < bytes.size(); i += 7) watch->write_chunk(bytes.substr(i, 7));
  EXPECT_EQ(recorder_.wait_for(3), (Events{"add ns/a@1", "update ns/a@1->11", "add ns/b@12"}));
  EXPECT_EQ(*informer->store().get("ns/a")->label("x"), "{\"}");
}

TEST_F(InformerTest, TenThousandObjectsArriveInPagesOf500) {
  std::vector<json> items;
  items.reserve(10000);
  for (int i = 0; i < 10000; ++i) {
    items.push_back(pod("ns-" + std::to_string(i % 10), "p" + std::to_string(i), i + 1));
  }
  pods_.add_list_version(std::move(items), 20000);
  auto informer = make(InformerOptions{});  // the production page size
  start_synced(*informer);
  EXPECT_EQ(informer->store().size(), 10000u);
  EXPECT_EQ(recorder_.size(), 10000u) << "has_synced means every add was delivered";
  const auto limits = pods_.list_limits();
  EXPECT_EQ(limits.size(), 20u);
  EXPECT_TRUE(std::all_of(limits.begin(), limits.end(), [](auto& l) { return l == "500"; }));
  EXPECT_EQ(informer->store().by_index(kNamespaceIndex, "ns-3").size(), 1000u);
  EXPECT_EQ(informer->last_resource_version(), "20000");
}

TEST_F(InformerTest, BookmarksAdvanceTheResourceVersionWithoutHandlerCalls) {
  pods_.add_list_version({pod("ns", "a", 1)}, 10);
  auto informer = make();
  start_synced(*informer);
  auto first = pods_.next_watch();
  ASSERT_TRUE(first);
  first->write_event("BOOKMARK", {{"kind", "Pod"}, {"metadata", {{"resourceVersion", "50"}}}});
  ASSERT_TRUE(eventually([&] { return informer->last_resource_version() == "50"; }))
      << informer->last_resource_version();
  first->close();
  auto second = pods_.next_watch();
  ASSERT_TRUE(second);
  EXPECT_EQ(pods_.watch_versions(), (Events{"10", "50"}));
  second->write_event("ADDED", pod("ns", "marker", 51));
  EXPECT_EQ(recorder_.wait_for(2), (Events{"add ns/a@1", "add ns/marker@51"}));
}

TEST_F(InformerTest, LateHandlerGetsAddsForCachedObjectsThenLiveEvents) {
  pods_.add_list_version({pod("ns", "a", 1), pod("ns", "b", 1)}, 10);
  Recorder late;  // declared first: it must outlive the informer that calls it
  auto informer = make();
  start_synced(*informer);
  auto watch = pods_.next_watch();
  ASSERT_TRUE(watch);
  watch->write_event("MODIFIED", pod("ns", "a", 11));
  recorder_.wait_for(3);

  informer->add_event_handler(late.handler());
  watch->write_event("DELETED", pod("ns", "b", 12));
  auto seen = late.wait_for(3);
  std::sort(seen.begin(), seen.begin() + std::min<size_t>(2, seen.size()));
  EXPECT_EQ(seen, (Events{"add ns/a@11", "add ns/b@1", "delete ns/b@12"}));
  EXPECT_EQ(recorder_.wait_for(4),
            (Events{"add ns/a@1", "add ns/b@1", "update ns/a@1->11", "delete ns/b@12"}))
      << "the first handler must not get the synthetic adds";
}

// Watch events are delivered on the reflector thread and late handlers' adds on the
// distribution thread: handlers must still get one call at a time, in event order, and a handler
// joining mid-stream every object exactly once.
TEST_F(InformerTest, HandlersGetOneCallAtATimeInOrderWhileALateHandlerJoinsMidStream) {
  pods_.add_list_version({}, 1);
  std::mutex mu;
  std::vector<std::string> late_seen;  // guarded by mu
  std::atomic<int> in_call{0};
  std::atomic<int> overlaps{0};
  std::atomic<int> last_version{0};
  std::atomic<int> out_of_order{0};
  EventHandler first{
      .on_add =
          [&](const ObjectPtr& o) {
            if (in_call.fetch_add(1) != 0) ++overlaps;
            const int v = std::stoi(o->resource_version);
            if (v <= last_version.exchange(v)) ++out_of_order;
            in_call.fetch_sub(1);
          },
      .on_update = {},
      .on_delete = {},
  };
  auto note_late = [&](const ObjectPtr& o) {
    if (in_call.fetch_add(1) != 0) ++overlaps;
    {
      std::lock_guard lock(mu);
      late_seen.push_back(o->name);
    }
    in_call.fetch_sub(1);
  };
  EventHandler late{.on_add = note_late,
                    .on_update = [&](const ObjectPtr&, const ObjectPtr& o) { note_late(o); },
                    .on_delete = {}};
  auto informer = make();
  informer->add_event_handler(first);
  informer->start();
  ASSERT_TRUE(informer->wait_for_sync({}, in(10s)));
  auto watch = pods_.next_watch();
  ASSERT_TRUE(watch);
  constexpr int kObjects = 400;
  std::string burst;
  for (int i = 0; i < kObjects; ++i) {
    burst += json{{"type", "ADDED"}, {"object", pod("ns", "p" + std::to_string(i), i + 2)}}.dump();
    burst += "\n";
    if (i == kObjects / 2) {
      watch->write_chunk(burst);
      burst.clear();
      informer->add_event_handler(late);
    }
  }
  watch->write_chunk(burst);
  ASSERT_TRUE(eventually([&] { return last_version.load() == kObjects + 1; }))
      << "last version seen " << last_version.load();
  auto late_names = [&] {
    std::lock_guard lock(mu);
    return late_seen;
  };
  ASSERT_TRUE(eventually([&] { return late_names().size() >= kObjects; })) << late_names().size();
  auto names = late_names();
  std::sort(names.begin(), names.end());
  EXPECT_EQ(std::adjacent_find(names.begin(), names.end()), names.end())
      << "the late handler saw an object twice";
  EXPECT_EQ(names.size(), static_cast<std::size_t>(kObjects));
  EXPECT_EQ(overlaps.load(), 0);
  EXPECT_EQ(out_of_order.load(), 0);
}

TEST_F(InformerTest, LateHandlerIsSyncedOnceItsSyntheticAddsWereDelivered) {
  pods_.add_list_version({pod("ns", "a", 1), pod("ns", "b", 1)}, 10);
  std::atomic<int> adds{0};
  EventHandler counting;
  counting.on_add = [&](const ObjectPtr&) { adds++; };
  auto informer = make();
  const HandlerId early = informer->add_event_handler(recorder_.handler());
  EXPECT_FALSE(informer->handler_synced(early));
  informer->start();
  ASSERT_TRUE(informer->wait_for_handler_sync(early, {}, in(10s)));
  EXPECT_EQ(recorder_.size(), 2u);

  const HandlerId late = informer->add_event_handler(counting);
  ASSERT_TRUE(informer->wait_for_handler_sync(late, {}, in(10s)));
  EXPECT_EQ(adds.load(), 2) << "synced before its synthetic adds were delivered";
  EXPECT_FALSE(informer->handler_synced(late + 1)) << "no such handler";
}

TEST_F(InformerTest, HandlerRegisteredBeforeAnyObjectGetsNoSyntheticAdds) {
  pods_.add_list_version({}, 10);
  Recorder late;
  auto informer = make();
  start_synced(*informer);
  informer->add_event_handler(late.handler());
  auto watch = pods_.next_watch();
  ASSERT_TRUE(watch);
  watch->write_event("ADDED", pod("ns", "a", 11));
  EXPECT_EQ(late.wait_for(1), Events{"add ns/a@11"});
  EXPECT_EQ(recorder_.wait_for(1), Events{"add ns/a@11"});
}

TEST_F(InformerTest, RemovedHandlerGetsNoFurtherEvents) {
  pods_.add_list_version({pod("ns", "a", 1)}, 10);
  Recorder removed;
  auto informer = make();
  const HandlerId id = informer->add_event_handler(removed.handler());
  start_synced(*informer);
  EXPECT_EQ(removed.wait_for(1), Events{"add ns/a@1"});
  informer->remove_event_handler(id);
  auto watch = pods_.next_watch();
  ASSERT_TRUE(watch);
  watch->write_event("ADDED", pod("ns", "b", 11));
  recorder_.wait_for(2);
  EXPECT_EQ(removed.events(), Events{"add ns/a@1"});
}

TEST_F(InformerTest, HasSyncedOnlyAfterTheListWasDelivered) {
  pods_.add_list_version({pod("ns", "a", 1), pod("ns", "b", 1)}, 10);
  std::atomic<size_t> adds_when_synced{0};
  std::atomic<bool> checked{false};
  auto informer = make();
  EXPECT_FALSE(informer->has_synced());
  EventHandler h;
  h.on_add = [&](const ObjectPtr&) {
    if (!checked.exchange(true)) adds_when_synced = informer->has_synced() ? 1 : 0;
  };
  informer->add_event_handler(h);
  start_synced(*informer);
  EXPECT_TRUE(informer->has_synced());
  EXPECT_TRUE(checked.load());
  EXPECT_EQ(adds_when_synced.load(), 0u) << "has_synced was true before the adds were delivered";
  EXPECT_EQ(recorder_.size(), 2u);
}

TEST_F(InformerTest, PeriodicResyncSendsUpdatesWithTheSameObject) {
  pods_.add_list_version({pod("ns", "a", 1)}, 10);
  auto options = fast_options();
  options.resync_period = 20ms;
  auto informer = make(options);
  start_synced(*informer);
  auto seen = recorder_.wait_for_event("update ns/a@1->1 (same)");
  EXPECT_NE(std::find(seen.begin(), seen.end(), "update ns/a@1->1 (same)"), seen.end())
      << ::testing::PrintToString(seen);
}

TEST_F(InformerTest, ThrowingHandlerDoesNotStopOtherHandlersOrLaterEvents) {
  pods_.add_list_version({pod("ns", "a", 1)}, 10);
  auto informer = make();
  EventHandler bad;
  bad.on_add = [](const ObjectPtr&) { throw std::runtime_error("handler bug"); };
  informer->add_event_handler(bad);
  start_synced(*informer);
  auto watch = pods_.next_watch();
  ASSERT_TRUE(watch);
  watch->write_event("ADDED", pod("ns", "b", 11));
  EXPECT_EQ(recorder_.wait_for(2), (Events{"add ns/a@1", "add ns/b@11"}));
}

TEST_F(InformerTest, StopEndsAnOpenWatchPromptly) {
  pods_.add_list_version({pod("ns", "a", 1)}, 10);
  auto informer = make();
  start_synced(*informer);
  auto watch = pods_.next_watch();
  ASSERT_TRUE(watch);
  ASSERT_TRUE(watch->wait_started(5s));
  const auto started = std::chrono::steady_clock::now();
  informer->stop();
  const auto took = std::chrono::steady_clock::now() - started;
  EXPECT_LT(took, 2s) << "stop took "
                      << std::chrono::duration_cast<std::chrono::milliseconds>(took).count()
                      << " ms";
  EXPECT_TRUE(watch->wait_client_gone(5s)) << "the watch connection stayed open";
  EXPECT_EQ(informer->store().size(), 1u) << "the store stays readable after stop";
  EXPECT_THROW(informer->start(), std::logic_error);
}

TEST_F(InformerTest, StopDuringBackoffIsPrompt) {
  pods_.fail_every_list(Response::error(500, "InternalError", "etcd unavailable"));
  auto options = fast_options();
  options.backoff.initial = 10s;
  options.backoff.max = 10s;
  auto informer = make(options);
  informer->start();
  ASSERT_TRUE(server_.wait_for_requests(1, 5s));
  const auto started = std::chrono::steady_clock::now();
  informer->stop();
  EXPECT_LT(std::chrono::steady_clock::now() - started, 2s);
  EXPECT_FALSE(informer->has_synced());
}

TEST_F(InformerTest, WaitForCacheSyncGivesUpAtTheDeadlineOrOnStop) {
  pods_.fail_every_list(Response::error(500, "InternalError", "etcd unavailable"));
  auto informer = make();
  informer->start();
  EXPECT_FALSE(wait_for_cache_sync({informer.get()}, {}, in(100ms)));
  std::stop_source stop;
  stop.request_stop();
  const auto started = std::chrono::steady_clock::now();
  EXPECT_FALSE(wait_for_cache_sync({informer.get()}, stop.get_token(), in(60s)));
  EXPECT_LT(std::chrono::steady_clock::now() - started, 5s);
  EXPECT_GE(pods_.list_continues().size(), 2u) << "a failed list is retried";
}

// Offers ns/<name> at resource_version as if this process had just written it.
ObjectPtr offer_written(Informer& informer, const std::string& name, const std::string& rv) {
  auto written = std::make_shared<JsonObject>();
  written->namespace_ = "ns";
  written->name = name;
  written->resource_version = rv;
  written->json = {{"offered", true}};
  informer.written().offer(written);
  return written;
}

// An object offered as written stands for the watch event of exactly its version: the store
// then holds the offered object itself. Any other version is decoded as usual.
TEST_F(InformerTest, WatchEventOfAnOfferedVersionTakesTheOfferedObject) {
  pods_.add_list_version({pod("ns", "a", 1), pod("ns", "b", 1)}, 10);
  auto informer = make();
  start_synced(*informer);
  auto watch = pods_.next_watch();
  ASSERT_TRUE(watch);

  const ObjectPtr written = offer_written(*informer, "a", "11");
  offer_written(*informer, "b", "99");  // a version the watch never delivers

  watch->write_event("MODIFIED", pod("ns", "a", 11));
  watch->write_event("MODIFIED", pod("ns", "b", 12));
  EXPECT_EQ(recorder_.wait_for(4),
            (Events{"add ns/a@1", "add ns/b@1", "update ns/a@1->11", "update ns/b@1->12"}));
  EXPECT_EQ(informer->store().get("ns/a"), written) << "the offered object itself is cached";
  auto b = std::dynamic_pointer_cast<const JsonObject>(informer->store().get("ns/b"));
  ASSERT_TRUE(b);
  EXPECT_EQ(b->json["metadata"]["resourceVersion"], "12") << "decoded from the event";
  EXPECT_EQ(informer->written().size(), 1u) << "ns/a was taken, ns/b still waits";

  watch->write_event("DELETED", pod("ns", "b", 13));
  recorder_.wait_for(5);
  EXPECT_EQ(informer->written().size(), 0u) << "a deletion drops the offer";
  EXPECT_TRUE(eventually([&] { return informer->last_resource_version() == "13"; }))
      << informer->last_resource_version();
}

TEST_F(InformerTest, RelistDropsOffersTheWatchNoLongerDelivers) {
  pods_.add_list_version({pod("ns", "a", 1)}, 10);
  pods_.add_list_version({pod("ns", "a", 20)}, 30);
  auto informer = make();
  start_synced(*informer);
  auto watch = pods_.next_watch();
  ASSERT_TRUE(watch);
  offer_written(*informer, "a", "15");
  watch->write_event("ERROR", gone_status());
  EXPECT_EQ(recorder_.wait_for(2), (Events{"add ns/a@1", "update ns/a@1->20"}));
  EXPECT_TRUE(eventually([&] { return informer->written().size() == 0; }))
      << informer->written().size();
}

TEST_F(InformerTest, IndexerAfterStartThrows) {
  pods_.add_list_version({}, 10);
  auto informer = make();
  informer->start();
  EXPECT_THROW(
      informer->add_indexer("late", [](const Object&) { return std::vector<std::string>{}; }),
      std::logic_error);
}

}  // namespace
}  // namespace vc::kube::cache

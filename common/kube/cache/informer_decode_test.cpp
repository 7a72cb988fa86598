// Objects the transform cannot decode: on ADDED, MODIFIED and relist alike they stay known as
// undecodable, are never reported deleted, are counted once per version and reach the sink with
// the decoder's message naming the field.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/kube/cache/factory.h"
#include "common/kube/cache/fake_collection_test_util.h"
#include "common/kube/cache/informer.h"
#include "common/testing/metrics.h"

namespace vc::kube::cache {
namespace {

using namespace testing_util;
using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;

struct PhaseView : Object {
  std::string phase;
};

// A strict decoder, as the typed views are: a field of the wrong type throws, naming the field.
ObjectPtr phase_view(json&& j) {
  const json& phase = j.at("status").at("phase");
  if (!phase.is_string()) {
    throw std::invalid_argument(std::string("status.phase: expected string, got ") +
                                phase.type_name());
  }
  auto v = std::make_shared<PhaseView>();
  read_metadata(j, *v);
  v->phase = phase.get<std::string>();
  return v;
}

json wrong_typed(json p) {
  p["status"]["phase"] = 42;
  return p;
}

double rejections() {
  return vc::testing::metric_value(R"(vc_cpp_decode_rejections_total{resource="pods"})");
}

class InformerDecodeTest : public ::testing::Test {
 protected:
  InformerDecodeTest()
      : pods_(server_, "/api/v1/pods"), client_(server_.config(), test_client_options()) {}

  std::unique_ptr<Informer> start_informer() {
    auto o = fast_options();
    o.transform = {"phase-view", phase_view};
    o.on_decode_rejection = [this](const DecodeRejection& r) {
      std::lock_guard lock(mu_);
      sunk_.push_back(r);
    };
    auto informer = std::make_unique<Informer>(client_, resources::pods, o);
    informer->add_event_handler(recorder_.handler());
    informer->start();
    EXPECT_TRUE(informer->wait_for_sync({}, in(10s)));
    watch_ = pods_.next_watch();
    EXPECT_TRUE(watch_) << server_.describe_requests();
    return informer;
  }

  std::vector<DecodeRejection> sunk() {
    std::lock_guard lock(mu_);
    return sunk_;
  }

  // Ends the current watch with 410 Gone; returns the next one, opened after the relist.
  std::shared_ptr<ResponseStream> relist(ResponseStream& current) {
    current.write_event("ERROR", gone_status());
    return pods_.next_watch();
  }

  FakeApiServer server_;
  FakeCollection pods_;
  Client client_;
  Recorder recorder_;
  std::mutex mu_;
  std::vector<DecodeRejection> sunk_;
  std::shared_ptr<ResponseStream> watch_;  // the first watch, once start_informer() returned
};

TEST_F(InformerDecodeTest, AddedWrongTypedObjectStaysKnownThroughARelistAndDecodesAsAnAdd) {
  pods_.add_list_version({pod("ns", "a", 1)}, 10);
  pods_.add_list_version({pod("ns", "a", 1), wrong_typed(pod("ns", "b", 11)), pod("ns", "m", 12)},
                         30);
  const double before = rejections();
  auto informer = start_informer();
  ASSERT_TRUE(watch_);
  auto& watch = watch_;
  watch->write_event("ADDED", wrong_typed(pod("ns", "b", 11)));
  watch->write_event("ADDED", pod("ns", "m", 12));
  EXPECT_EQ(recorder_.wait_for(2), (Events{"add ns/a@1", "add ns/m@12"}));
  EXPECT_TRUE(informer->undecodable("ns/b"));
  EXPECT_EQ(informer->store().get("ns/b"), nullptr) << "never decoded: nothing to serve";
  EXPECT_EQ(rejections(), before + 1);
  auto s = sunk();
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].key(), "ns/b");
  EXPECT_EQ(s[0].kind, "Pod");
  EXPECT_EQ(s[0].api_version, "v1");
  EXPECT_EQ(s[0].uid, "uid-b");
  EXPECT_EQ(s[0].resource_version, "11");
  EXPECT_THAT(s[0].error, HasSubstr("status.phase"));

  // The relist holds the same undecodable version: no delete, no second report.
  auto second = relist(*watch);
  ASSERT_TRUE(second) << server_.describe_requests();
  second->write_event("ADDED", pod("ns", "marker", 31));
  Events events = recorder_.wait_for_event("add ns/marker@31");
  EXPECT_THAT(events, Contains("add ns/marker@31"));
  EXPECT_THAT(events, Not(Contains(HasSubstr("delete"))));
  EXPECT_TRUE(informer->undecodable("ns/b"));
  EXPECT_EQ(rejections(), before + 1) << "a relist of the same version is not a new rejection";
  EXPECT_EQ(sunk().size(), 1u);

  // Fixed: it was never decoded, so handlers hear of it now as an add.
  second->write_event("MODIFIED", pod("ns", "b", 32));
  EXPECT_THAT(recorder_.wait_for_event("add ns/b@32"), Contains("add ns/b@32"));
  EXPECT_FALSE(informer->undecodable("ns/b"));
}

TEST_F(InformerDecodeTest, ModifiedWrongTypedKeepsTheLastGoodVersionThroughARelist) {
  pods_.add_list_version({pod("ns", "a", 1)}, 10);
  pods_.add_list_version({wrong_typed(pod("ns", "a", 12)), pod("ns", "m", 13)}, 30);
  const double before = rejections();
  auto informer = start_informer();
  ASSERT_TRUE(watch_);
  auto& watch = watch_;
  watch->write_event("MODIFIED", wrong_typed(pod("ns", "a", 11)));
  watch->write_event("MODIFIED", wrong_typed(pod("ns", "a", 12)));
  watch->write_event("ADDED", pod("ns", "m", 13));
  EXPECT_EQ(recorder_.wait_for(2), (Events{"add ns/a@1", "add ns/m@13"}))
      << "handlers hear nothing of a rejected version";
  ASSERT_TRUE(informer->store().get("ns/a"));
  EXPECT_EQ(informer->store().get("ns/a")->resource_version, "1") << "the last good version";
  EXPECT_TRUE(informer->undecodable("ns/a"));
  EXPECT_EQ(rejections(), before + 2) << "each rejected version counts once";
  ASSERT_EQ(sunk().size(), 2u);
  EXPECT_EQ(sunk()[1].resource_version, "12");
  EXPECT_THAT(sunk()[1].error, HasSubstr("status.phase"));

  auto second = relist(*watch);
  ASSERT_TRUE(second) << server_.describe_requests();
  second->write_event("ADDED", pod("ns", "marker", 31));
  Events events = recorder_.wait_for_event("add ns/marker@31");
  EXPECT_THAT(events, Not(Contains(HasSubstr("delete ns/a"))));
  ASSERT_TRUE(informer->store().get("ns/a"));
  EXPECT_EQ(informer->store().get("ns/a")->resource_version, "1");
  EXPECT_TRUE(informer->undecodable("ns/a"));
  EXPECT_EQ(rejections(), before + 2);
  EXPECT_EQ(sunk().size(), 2u);

  // A good version is an update from the last good one; a real delete is a delete.
  second->write_event("MODIFIED", pod("ns", "a", 32));
  EXPECT_THAT(recorder_.wait_for_event("update ns/a@1->32"), Contains("update ns/a@1->32"));
  EXPECT_FALSE(informer->undecodable("ns/a"));
  second->write_event("DELETED", pod("ns", "a", 33));
  EXPECT_THAT(recorder_.wait_for_event("delete ns/a@33"), Contains("delete ns/a@33"));
}

TEST_F(InformerDecodeTest, RejectionFirstSeenInARelistKeepsTheObjectUntilItIsReallyGone) {
  pods_.add_list_version({pod("ns", "a", 1)}, 10);
  pods_.add_list_version({wrong_typed(pod("ns", "a", 5))}, 20);
  pods_.add_list_version({pod("ns", "m", 21)}, 40);
  pods_.fail_next_watch(Response::error(410, "Expired", "too old resource version: 10"));
  const double before = rejections();
  auto informer = start_informer();
  ASSERT_TRUE(watch_);
  auto& watch = watch_;
  EXPECT_EQ(pods_.watch_versions(), (Events{"10", "20"}));
  watch->write_event("ADDED", pod("ns", "marker", 21));
  Events events = recorder_.wait_for_event("add ns/marker@21");
  EXPECT_EQ(events, (Events{"add ns/a@1", "add ns/marker@21"}));
  EXPECT_TRUE(informer->undecodable("ns/a"));
  EXPECT_EQ(informer->store().get("ns/a")->resource_version, "1");
  EXPECT_EQ(rejections(), before + 1);
  ASSERT_EQ(sunk().size(), 1u);
  EXPECT_EQ(sunk()[0].resource_version, "5");

  // Deleted while nobody watched: the next relist lacks it, so it is gone for real.
  auto second = relist(*watch);
  ASSERT_TRUE(second) << server_.describe_requests();
  EXPECT_THAT(recorder_.wait_for_event("delete ns/a@1"), Contains("delete ns/a@1"));
  EXPECT_FALSE(informer->undecodable("ns/a"));
  EXPECT_TRUE(informer->undecodable_keys().empty());
}

TEST_F(InformerDecodeTest, DeletedNeverDecodedObjectIsForgottenWithoutAHandlerCall) {
  pods_.add_list_version({}, 10);
  auto informer = start_informer();
  ASSERT_TRUE(watch_);
  auto& watch = watch_;
  watch->write_event("ADDED", wrong_typed(pod("ns", "b", 11)));
  watch->write_event("DELETED", wrong_typed(pod("ns", "b", 12)));
  watch->write_event("ADDED", pod("ns", "m", 13));
  EXPECT_EQ(recorder_.wait_for(1), (Events{"add ns/m@13"}));
  EXPECT_FALSE(informer->undecodable("ns/b"));
}

TEST(SharedInformerFactoryDecode, GivesItsRejectionSinkToEveryInformer) {
  FakeApiServer server;
  Client client(server.config(), test_client_options());
  SharedInformerFactoryOptions o;
  o.on_decode_rejection = [](const DecodeRejection&) {};
  SharedInformerFactory factory(client, o);
  EXPECT_TRUE(factory.informer(resources::pods)->options().on_decode_rejection);
}

}  // namespace
}  // namespace vc::kube::cache

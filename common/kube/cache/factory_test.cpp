#include "common/kube/cache/factory.h"

#include <gtest/gtest.h>

#include "common/kube/cache/fake_collection_test_util.h"

namespace vc::kube::cache {
namespace {

using namespace testing_util;

ObjectPtr bare(json&& j) {
  auto o = std::make_shared<Object>();
  read_metadata(j, *o);
  return o;
}

TEST(SharedInformerFactory, SameResourceAndSpecShareOneInformer) {
  FakeApiServer server;
  Client client(server.config(), test_client_options());
  SharedInformerFactory factory(client);
  auto a = factory.informer(resources::pods);
  auto b = factory.informer(resources::pods);
  EXPECT_EQ(a, b);
  EXPECT_NE(a,
            factory.informer(
                resources::pods,
                {.namespace_ = "ns", .label_selector = "", .field_selector = "", .transform = {}}));
  InformerSpec compact;
  compact.transform = {"bare", bare};
  auto c = factory.informer(resources::pods, compact);
  EXPECT_NE(a, c);
  EXPECT_EQ(c, factory.informer(resources::pods, compact));
  EXPECT_NE(a, factory.informer(resources::podgroups));
  EXPECT_EQ(factory.size(), 4u);
}

TEST(SharedInformerFactory, StartSyncsEveryInformerAndStopEndsThem) {
  FakeApiServer server;
  FakeCollection pods(server, "/api/v1/pods");
  FakeCollection queues(server, "/apis/scheduling.volcano.sh/v1beta1/queues");
  pods.add_list_version({pod("ns", "a", 1)}, 10);
  queues.add_list_version({pod("", "default", 2)}, 20);
  Client client(server.config(), test_client_options());
  SharedInformerFactory factory(client);
  auto pod_informer = factory.informer(resources::pods);
  auto queue_informer = factory.informer(resources::queues);
  factory.start();
  ASSERT_TRUE(factory.wait_for_sync({}, in(10s))) << server.describe_requests();
  EXPECT_TRUE(pod_informer->store().get("ns/a"));
  EXPECT_TRUE(queue_informer->store().get("default"));
  auto pod_watch = pods.next_watch();
  auto queue_watch = queues.next_watch();
  ASSERT_TRUE(pod_watch && queue_watch);

  // An informer asked for after start() is started by the next start().
  auto late = factory.informer(
      resources::pods,
      {.namespace_ = "", .label_selector = "app=x", .field_selector = "", .transform = {}});
  factory.start();
  EXPECT_TRUE(late->wait_for_sync({}, in(10s)));

  factory.stop();
  EXPECT_TRUE(pod_watch->wait_client_gone(5s));
  EXPECT_TRUE(queue_watch->wait_client_gone(5s));
}

}  // namespace
}  // namespace vc::kube::cache

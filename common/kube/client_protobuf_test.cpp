// ClientOptions::content_type = protobuf against the fake API server: what goes on the wire for
// built-in types and custom resources, and that callers get the same JSON back.

#include <gtest/gtest.h>

#include <future>

#include "common/kube/client.h"
#include "common/kube/proto/envelope.h"
#include "common/kube/proto/wire.h"
#include "common/testing/fake_apiserver.h"

namespace vc::kube {
namespace {

using namespace std::chrono_literals;
using vc::testing::FakeApiServer;
using vc::testing::Reply;
using vc::testing::Request;
using vc::testing::Response;
using vc::testing::ResponseStream;

constexpr const char* kProtobuf = "application/vnd.kubernetes.protobuf";

json pod(const std::string& name) {
  return {{"apiVersion", "v1"},
          {"kind", "Pod"},
          {"metadata", {{"name", name}, {"namespace", "ns"}, {"resourceVersion", "5"}}},
          {"spec", {{"containers", {{{"name", "c"}, {"image", "busybox"}}}}}}};
}

Response protobuf(int status, const json& object) {
  Response r;
  r.status = status;
  r.content_type = kProtobuf;
  r.body = *proto::encode_object(proto::k8s_schema(), object);
  return r;
}

// One watch frame: a 4-byte length and a WatchEvent{type, RawExtension{enveloped object}}.
std::string frame(const std::string& type, const json& object) {
  proto::WireWriter ext, event;
  ext.bytes(1, *proto::encode_object(proto::k8s_schema(), object));
  event.bytes(1, type);
  event.bytes(2, ext.data());
  std::string len(4, '\0');
  for (int i = 0; i < 4; ++i) len[i] = static_cast<char>(event.data().size() >> (8 * (3 - i)));
  return len + event.data();
}

class ClientProtobufTest : public ::testing::Test {
 protected:
  static ClientOptions options() {
    ClientOptions o;
    o.qps = 0;
    o.retry_base_delay = 10ms;
    o.content_type = kProtobuf;
    return o;
  }
  FakeApiServer server_;
  Client client_{server_.config(), options()};
};

TEST_F(ClientProtobufTest, BuiltInObjectsGoAndComeInProtobuf) {
  std::string received_type, received_body;
  server_.handle("POST", "/api/v1/namespaces/ns/pods", [&](const Request& r) {
    received_type = r.header("content-type");
    received_body = r.body;
    auto decoded = proto::decode_object(proto::k8s_schema(), r.body);
    json created = decoded ? *decoded : json();
    created["metadata"]["uid"] = "u1";
    return protobuf(201, created);
  });
  auto r = client_.create(resources::pods, "ns", pod("p1"));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(received_type, kProtobuf);
  ASSERT_TRUE(proto::is_enveloped(received_body));
  EXPECT_EQ(*proto::decode_object(proto::k8s_schema(), received_body), pod("p1"));
  EXPECT_EQ((*r)["metadata"]["uid"], "u1");
  EXPECT_EQ((*r)["spec"]["containers"][0]["image"], "busybox");
  EXPECT_EQ(server_.requests().front().header("accept"),
            "application/vnd.kubernetes.protobuf, application/json");
}

TEST_F(ClientProtobufTest, ReplyReadsFilterAProtobufReplyAsAJsonOne) {
  server_.handle("POST", "/api/v1/namespaces/ns/pods", [](const Request&) {
    json created = pod("p1");
    created["metadata"]["managedFields"] = {{{"manager", "m"}}};
    return protobuf(201, created);
  });
  auto reads = fastjson::MemberFilter::only({"metadata.name", "metadata.resourceVersion"});
  auto r = client_.create(resources::pods, "ns", pod("p1"), reads);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ((*r)["metadata"], (json{{"name", "p1"}, {"resourceVersion", "5"}}));
  EXPECT_FALSE(r->contains("spec"));
}

TEST_F(ClientProtobufTest, CustomResourcesAndPatchesStayJson) {
  server_.handle("POST", "/apis/batch.volcano.sh/v1alpha1/namespaces/ns/jobs", [](const Request&) {
    return Response::json(201, {{"kind", "Job"}});
  });
  server_.handle("PATCH", "/api/v1/namespaces/ns/pods/p1",
                 [](const Request&) { return protobuf(200, pod("p1")); });
  ASSERT_TRUE(client_
                  .create(resources::jobs, "ns",
                          {{"apiVersion", "batch.volcano.sh/v1alpha1"}, {"kind", "Job"}})
                  .ok());
  auto patched = client_.patch(resources::pods, "ns", "p1", PatchType::Merge,
                               R"({"metadata":{"labels":{"a":"b"}}})");
  ASSERT_TRUE(patched.ok()) << patched.error().describe();
  EXPECT_EQ((*patched)["metadata"]["name"], "p1");
  auto log = server_.requests();
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(log[0].header("content-type"), "application/json");
  EXPECT_EQ(log[0].header("accept"), "application/json");
  EXPECT_EQ(log[1].header("content-type"), "application/merge-patch+json");
  EXPECT_EQ(log[1].header("accept"), "application/vnd.kubernetes.protobuf, application/json");
}

TEST_F(ClientProtobufTest, WhatTheSchemaCannotWriteGoesAsJson) {
  server_.handle("POST", "/api/v1/namespaces/ns/pods", [](const Request& r) {
    return Response::json(201, json::parse(r.body));  // a server answering JSON is read too
  });
  json newer = pod("p2");
  newer["spec"]["aFieldFromTheFuture"] = true;
  auto r = client_.create(resources::pods, "ns", newer);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ((*r)["spec"]["aFieldFromTheFuture"], true);
  EXPECT_EQ(server_.requests().front().header("content-type"), "application/json");
}

TEST_F(ClientProtobufTest, ProtobufErrorsAndListsDecode) {
  server_.handle("GET", "/api/v1/namespaces/ns/pods/gone", [](const Request&) {
    return protobuf(404, {{"apiVersion", "v1"},
                          {"kind", "Status"},
                          {"status", "Failure"},
                          {"reason", "NotFound"},
                          {"code", 404},
                          {"message", "pods \"gone\" not found"}});
  });
  server_.handle("GET", "/api/v1/namespaces/ns/pods", [](const Request&) {
    json items = json::array();
    for (const char* name : {"a", "b"}) {
      json item = pod(name);  // list items carry no apiVersion and kind
      item.erase("apiVersion");
      item.erase("kind");
      items.push_back(std::move(item));
    }
    return protobuf(200, {{"apiVersion", "v1"},
                          {"kind", "PodList"},
                          {"metadata", {{"resourceVersion", "9"}, {"continue", "next"}}},
                          {"items", items}});
  });
  auto gone = client_.get(resources::pods, "ns", "gone");
  ASSERT_FALSE(gone.ok());
  EXPECT_EQ(gone.error().kind, ErrorKind::NotFound);
  EXPECT_EQ(gone.error().message, "pods \"gone\" not found");

  std::vector<std::string> names;
  auto list = client_.list_each(resources::pods, "ns", {}, [&](json&& item) {
    names.push_back(item["metadata"]["name"]);
    EXPECT_FALSE(item.contains("kind"));  // items carry no type, as in a JSON list
  });
  ASSERT_TRUE(list.ok()) << list.error().describe();
  EXPECT_EQ(names, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ((*list)["metadata"]["resourceVersion"], "9");
  EXPECT_EQ((*list)["metadata"]["continue"], "next");
  EXPECT_EQ((*list)["items"], json::array());
  auto whole = client_.list(resources::pods, "ns");
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ((*whole)["items"].size(), 2u);
}

TEST_F(ClientProtobufTest, WatchFramesAreSplitFilteredAndDelivered) {
  std::shared_ptr<ResponseStream> stream =
      std::make_shared<ResponseStream>(200, "application/vnd.kubernetes.protobuf;stream=watch");
  server_.handle("GET", "/api/v1/namespaces/ns/pods",
                 [&](const Request&) -> Reply { return stream; });
  json labelled = pod("p1");
  labelled["metadata"]["labels"] = {{"app", "x"}};
  labelled["metadata"]["managedFields"] = {{{"manager", "m"}}};
  std::string bytes = frame("ADDED", labelled) + frame("DELETED", pod("p2"));
  // Any split: the first frame's length on its own, then the rest in two uneven pieces.
  stream->write_chunk(bytes.substr(0, 2));
  stream->write_chunk(bytes.substr(2, 40));
  stream->write_chunk(bytes.substr(42));
  stream->close();
  std::vector<WatchEvent> events;
  WatchOptions o;
  o.object_filter = std::make_shared<fastjson::MemberFilter>(
      fastjson::MemberFilter::only({"metadata.name", "metadata.labels", "metadata.managedFields"}));
  auto st = client_.watch(resources::pods, "ns", o,
                          [&](WatchEvent&& ev) { events.push_back(std::move(ev)); });
  ASSERT_TRUE(st.ok()) << st.error().describe();
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].type, WatchEvent::Type::Added);
  EXPECT_EQ(events[0].object["metadata"]["labels"]["app"], "x");
  EXPECT_FALSE(events[0].object.contains("spec"));  // the filter's members only
  EXPECT_EQ(events[1].type, WatchEvent::Type::Deleted);
  EXPECT_EQ(events[1].object["metadata"]["name"], "p2");
  EXPECT_EQ(server_.requests().front().header("accept"),
            "application/vnd.kubernetes.protobuf, application/json");
}

TEST_F(ClientProtobufTest, WatchWithoutFilterNeverBuildsManagedFields) {
  auto stream =
      std::make_shared<ResponseStream>(200, "application/vnd.kubernetes.protobuf;stream=watch");
  server_.handle("GET", "/api/v1/namespaces/ns/pods",
                 [&](const Request&) -> Reply { return stream; });
  json p = pod("p1");
  p["metadata"]["managedFields"] = {{{"manager", "m"}}};
  stream->write_chunk(frame("MODIFIED", p));
  stream->write_chunk(std::string("\x00\x00", 2));  // a frame cut short by the end of stream
  stream->close();
  std::vector<WatchEvent> events;
  auto st = client_.watch(resources::pods, "ns", {},
                          [&](WatchEvent&& ev) { events.push_back(std::move(ev)); });
  ASSERT_EQ(events.size(), 1u);
  EXPECT_FALSE(events[0].object["metadata"].contains("managedFields"));
  EXPECT_EQ(events[0].object["spec"]["containers"][0]["name"], "c");
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("stream ended inside an event (2 bytes buffered)"),
            std::string::npos)
      << st.error().message;
}

}  // namespace
}  // namespace vc::kube

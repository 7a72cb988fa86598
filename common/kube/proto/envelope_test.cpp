#include "common/kube/proto/envelope.h"

#include <gtest/gtest.h>

#include "common/kube/proto/test_schema_pool.h"

namespace vc::kube::proto {
namespace {

using nlohmann::json;

std::string unhex(std::string_view hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2)
    out.push_back(static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
  return out;
}

// A kube-apiserver v1.35's answer to GET /api/v1/namespaces/default/pods/nonexist with
// Accept: application/vnd.kubernetes.protobuf.
constexpr std::string_view kNotFound =
    "6b3873000a0c0a027631120653746174757312510a060a0012001a0012074661696c7572651a19706f6473202"
    "26e6f6e657869737422206e6f7420666f756e6422084e6f74466f756e642a160a086e6f6e6578697374120"
    "01a04706f6473280032003094031a002200";

TEST(KubeProtoEnvelope, DecodesTheApiServersStatus) {
  auto status = decode_object(k8s_schema(), unhex(kNotFound));
  ASSERT_TRUE(status) << status.error();
  EXPECT_EQ((*status)["apiVersion"], "v1");
  EXPECT_EQ((*status)["kind"], "Status");
  EXPECT_EQ((*status)["status"], "Failure");
  EXPECT_EQ((*status)["reason"], "NotFound");
  EXPECT_EQ((*status)["code"], 404);
  EXPECT_EQ((*status)["message"], "pods \"nonexist\" not found");
  EXPECT_EQ((*status)["details"]["name"], "nonexist");
  EXPECT_EQ((*status)["details"]["kind"], "pods");
}

TEST(KubeProtoEnvelope, ObjectsRoundTripWithTheirTypeMeta) {
  json pod = {{"apiVersion", "v1"},
              {"kind", "Pod"},
              {"metadata", {{"name", "p"}, {"namespace", "n"}}},
              {"spec", {{"schedulerName", "volcano"}}}};
  auto body = encode_object(k8s_schema(), pod);
  ASSERT_TRUE(body) << body.error();
  EXPECT_EQ(body->substr(0, 4), std::string("k8s\0", 4));
  auto back = decode_object(k8s_schema(), *body);
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(*back, pod);

  json lease = {{"apiVersion", "coordination.k8s.io/v1"},
                {"kind", "Lease"},
                {"metadata", {{"name", "l"}}},
                {"spec", {{"holderIdentity", "a"}}}};
  body = encode_object(k8s_schema(), lease);
  ASSERT_TRUE(body) << body.error();
  back = decode_object(k8s_schema(), *body);
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, lease);
}

TEST(KubeProtoEnvelope, WhatCannotBeProtobufIsAnError) {
  const Schema& s = k8s_schema();
  EXPECT_FALSE(encode_object(s, {{"metadata", {{"name", "x"}}}}));  // no apiVersion/kind
  auto crd = encode_object(s, {{"apiVersion", "batch.volcano.sh/v1alpha1"}, {"kind", "Job"}});
  ASSERT_FALSE(crd);
  EXPECT_EQ(crd.error(), "protobuf: no message for batch.volcano.sh/v1alpha1 Job");
  EXPECT_FALSE(encode_object(s, {{"apiVersion", "v1"}, {"kind", "Pod"}, {"spec", {{"bogus", 1}}}}));
  EXPECT_FALSE(decode_object(s, "{\"kind\":\"Pod\"}"));  // JSON, not an envelope
  EXPECT_EQ(message_for(s, "v1", "PodList")->full_name, "k8s.io.api.core.v1.PodList");
  EXPECT_EQ(message_for(s, "events.k8s.io/v1", "Event")->full_name, "k8s.io.api.events.v1.Event");
  EXPECT_EQ(message_for(s, "v1", "Status")->full_name,
            "k8s.io.apimachinery.pkg.apis.meta.v1.Status");
}

// A watch frame as the API server writes it, built with the protobuf library.
std::string frame_of(const std::string& type, const std::string& enveloped) {
  testing::ReferencePool pool;
  auto m = pool.make("k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent");
  const auto* d = m->GetDescriptor();
  m->GetReflection()->SetString(m.get(), d->FindFieldByName("type"), type);
  auto* ext = m->GetReflection()->MutableMessage(m.get(), d->FindFieldByName("object"));
  ext->GetReflection()->SetString(ext, ext->GetDescriptor()->FindFieldByName("raw"), enveloped);
  std::string frame = m->SerializeAsString();
  std::string len(4, '\0');
  for (int i = 0; i < 4; ++i) len[i] = static_cast<char>(frame.size() >> (8 * (3 - i)));
  return len + frame;
}

TEST(KubeProtoEnvelope, WatchFramesSplitAtAnyChunkBoundary) {
  json node = {{"apiVersion", "v1"},
               {"kind", "Node"},
               {"metadata", {{"name", "n1"}, {"resourceVersion", "7"}}}};
  std::string stream =
      frame_of("ADDED", *encode_object(k8s_schema(), node)) + frame_of("ERROR", unhex(kNotFound));
  for (size_t chunk : {1u, 3u, 7u, 1000u}) {
    WatchFrames frames;
    std::vector<json> events;
    for (size_t i = 0; i < stream.size(); i += chunk) {
      frames.append(std::string_view(stream).substr(i, chunk));
      while (auto f = frames.next()) {
        auto e = decode_watch_event(k8s_schema(), *f);
        ASSERT_TRUE(e) << e.error();
        events.push_back(*e);
      }
    }
    EXPECT_EQ(frames.error(), nullptr);
    ASSERT_EQ(events.size(), 2u) << chunk;
    EXPECT_EQ(events[0], (json{{"type", "ADDED"}, {"object", node}}));
    EXPECT_EQ(events[1]["type"], "ERROR");
    EXPECT_EQ(events[1]["object"]["reason"], "NotFound");
  }
}

TEST(KubeProtoEnvelope, CorruptWatchStreamsStop) {
  WatchFrames frames;
  frames.append(std::string("\xff\xff\xff\xff", 4));
  EXPECT_FALSE(frames.next());
  EXPECT_NE(frames.error(), nullptr);
  EXPECT_FALSE(decode_watch_event(k8s_schema(), std::string("\x0a\x05"
                                                            "ADDED",
                                                            7)));              // no object
  EXPECT_FALSE(decode_watch_event(k8s_schema(), std::string("\x12\x00", 2)));  // no type
}

}  // namespace
}  // namespace vc::kube::proto

#include "common/kube/proto/json_codec.h"

#include <gtest/gtest.h>

#include "common/kube/proto/test_schema_pool.h"

namespace vc::kube::proto {
namespace {

using nlohmann::json;

const Message& type(const std::string& name) {
  const Message* m = k8s_schema().find(name);
  if (m == nullptr) throw std::runtime_error("no " + name);
  return *m;
}

testing::ReferencePool& pool() {
  static testing::ReferencePool p;
  return p;
}

// A pod with one of each kind of member the codec treats specially.
json sample_pod() {
  return json::parse(R"({
    "metadata": {"name": "p", "namespace": "ns", "labels": {"app": "x"},
                 "creationTimestamp": "2024-01-02T03:04:05Z",
                 "ownerReferences": [{"apiVersion": "batch.volcano.sh/v1alpha1", "kind": "Job",
                                      "name": "j", "uid": "u1", "controller": true}]},
    "spec": {
      "nodeName": "",
      "priority": -5,
      "activeDeadlineSeconds": 9000000000,
      "containers": [{
        "name": "c", "image": "busybox", "command": ["sh", "-c", "sleep 1"],
        "resources": {"limits": {"cpu": "500m", "memory": 1073741824}, "requests": {"cpu": 0.5}},
        "ports": [{"containerPort": 8080, "protocol": "TCP"}],
        "readinessProbe": {"httpGet": {"path": "/ready", "port": "http"}, "periodSeconds": 3},
        "livenessProbe": {"tcpSocket": {"port": 8080}},
        "envFrom": [{"secretRef": {"name": "s", "optional": false}}]
      }],
      "volumes": [{"name": "v", "configMap": {"name": "cm", "defaultMode": 420}},
                  {"name": "e", "emptyDir": {}}],
      "terminationGracePeriodSeconds": 0,
      "schedulerName": "volcano"
    },
    "status": {"phase": "Running", "startTime": null}
  })");
}

TEST(KubeProtoCodec, EncodesWhatTheProtobufLibraryReadsBack) {
  auto bytes = from_json(sample_pod(), type("k8s.io.api.core.v1.Pod"));
  ASSERT_TRUE(bytes) << bytes.error();
  std::string text = pool().text_of("k8s.io.api.core.v1.Pod", *bytes);
  ASSERT_FALSE(text.empty());
  for (const char* part :
       {R"(name: "p")", R"(namespace: "ns")", R"(labels { key: "app" value: "x" })",
        "creationTimestamp { seconds: 1704164645 nanos: 0 }", "controller: true", R"(nodeName: "")",
        "priority: -5", "activeDeadlineSeconds: 9000000000",
        R"(limits { key: "cpu" value { string: "500m" } })",
        R"(limits { key: "memory" value { string: "1073741824" } })",
        R"(requests { key: "cpu" value { string: "0.5" } })",
        R"(handler { httpGet { path: "/ready" port { type: 1 intVal: 0 strVal: "http" } } })",
        R"(tcpSocket { port { type: 0 intVal: 8080 strVal: "" } })",
        R"(secretRef { localObjectReference { name: "s" } optional: false })",
        R"(volumeSource { configMap { localObjectReference { name: "cm" } defaultMode: 420 } })",
        "volumeSource { emptyDir { } }", "terminationGracePeriodSeconds: 0", R"(phase: "Running")"})
    EXPECT_NE(text.find(part), std::string::npos) << part << "\n in: " << text;
  // null members are left out, as Go's decoder leaves them unset.
  EXPECT_EQ(text.find("startTime"), std::string::npos) << text;
}

TEST(KubeProtoCodec, DecodesWhatTheProtobufLibraryWrites) {
  std::string bytes = pool().bytes_of("k8s.io.api.core.v1.Pod", R"(
    metadata { name: "p" creationTimestamp { seconds: 1704164645 nanos: 0 }
               deletionTimestamp { seconds: -62135596800 }
               annotations { key: "a" value: "b" } }
    spec { containers { name: "c" resources { limits { key: "cpu" value { string: "2" } } }
                        livenessProbe { handler { httpGet { port { type: 1 strVal: "web" } } } } }
           volumes { name: "v" volumeSource { secret { secretName: "s" items { key: "k" path: "p" } } } }
           hostNetwork: true priority: -3 }
    status { phase: "Pending" conditions { type: "Ready" status: "False" } }
  )");
  auto j = to_json(bytes, type("k8s.io.api.core.v1.Pod"));
  ASSERT_TRUE(j) << j.error();
  EXPECT_EQ(*j, json::parse(R"({
    "metadata": {"name": "p", "creationTimestamp": "2024-01-02T03:04:05Z", "deletionTimestamp": null,
                 "annotations": {"a": "b"}},
    "spec": {"containers": [{"name": "c", "resources": {"limits": {"cpu": "2"}},
                             "livenessProbe": {"httpGet": {"port": "web"}}}],
             "volumes": [{"name": "v", "secret": {"secretName": "s", "items": [{"key": "k", "path": "p"}]}}],
             "hostNetwork": true, "priority": -3},
    "status": {"phase": "Pending", "conditions": [{"type": "Ready", "status": "False"}]}
  })"))
      << j->dump();
}

TEST(KubeProtoCodec, RoundTripKeepsTheObject) {
  json pod = sample_pod();
  auto bytes = from_json(pod, type("k8s.io.api.core.v1.Pod"));
  ASSERT_TRUE(bytes) << bytes.error();
  auto back = to_json(*bytes, type("k8s.io.api.core.v1.Pod"));
  ASSERT_TRUE(back) << back.error();
  // What changes: null members go, numeric quantities become their strings.
  pod["status"].erase("startTime");
  auto& c = pod["spec"]["containers"][0];
  c["resources"]["limits"]["memory"] = "1073741824";
  c["resources"]["requests"]["cpu"] = "0.5";
  EXPECT_EQ(*back, pod) << back->dump();
}

TEST(KubeProtoCodec, TimesDurationsBytesAndRawJson) {
  // A Lease's MicroTime keeps microseconds; an Event's series count is an int32.
  json lease = {{"metadata", {{"name", "l"}}},
                {"spec",
                 {{"holderIdentity", "me"},
                  {"leaseDurationSeconds", 15},
                  {"renewTime", "2024-01-02T03:04:05.123456Z"}}}};
  auto bytes = from_json(lease, type("k8s.io.api.coordination.v1.Lease"));
  ASSERT_TRUE(bytes) << bytes.error();
  EXPECT_NE(pool()
                .text_of("k8s.io.api.coordination.v1.Lease", *bytes)
                .find("renewTime { seconds: 1704164645 nanos: 123456000 }"),
            std::string::npos);
  auto back = to_json(*bytes, type("k8s.io.api.coordination.v1.Lease"));
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, lease);

  // Secret data are bytes: base64 in JSON.
  json secret = {{"metadata", {{"name", "s"}}}, {"data", {{"k", "aGVsbG8="}}}, {"type", "Opaque"}};
  bytes = from_json(secret, type("k8s.io.api.core.v1.Secret"));
  ASSERT_TRUE(bytes) << bytes.error();
  EXPECT_NE(pool()
                .text_of("k8s.io.api.core.v1.Secret", *bytes)
                .find(R"(data { key: "k" value: "hello" })"),
            std::string::npos);
  back = to_json(*bytes, type("k8s.io.api.core.v1.Secret"));
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, secret);

  // managedFields' fieldsV1 is JSON carried as bytes.
  json meta = {{"name", "m"},
               {"managedFields",
                {{{"manager", "x"},
                  {"fieldsType", "FieldsV1"},
                  {"fieldsV1", {{"f:spec", json::object()}}}}}}};
  bytes = from_json(meta, type("k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta"));
  ASSERT_TRUE(bytes) << bytes.error();
  back = to_json(*bytes, type("k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta"));
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, meta);

  // A Duration is Go's duration text.
  json cond = {{"type", "Ready"}, {"status", "True"}};
  json status = {{"status", "Failure"}, {"code", 404}, {"details", {{"retryAfterSeconds", 3}}}};
  bytes = from_json(status, type("k8s.io.apimachinery.pkg.apis.meta.v1.Status"));
  ASSERT_TRUE(bytes);
  back = to_json(*bytes, type("k8s.io.apimachinery.pkg.apis.meta.v1.Status"));
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, status);
}

TEST(KubeProtoCodec, DecodingBuildsOnlyWhatTheFilterKeeps) {
  const Message& pod = type("k8s.io.api.core.v1.Pod");
  json with_fields = sample_pod();
  with_fields["metadata"]["managedFields"] = {
      {{"manager", "m"}, {"fieldsV1", {{"f:a", json::object()}}}}};
  auto bytes = from_json(with_fields, pod);
  ASSERT_TRUE(bytes) << bytes.error();
  // Arrays are transparent, inline members filter as their parent's, map keys are members.
  auto f =
      fastjson::MemberFilter::only({"metadata.name", "metadata.labels.app", "spec.containers.name",
                                    "spec.volumes.configMap", "spec.volumes.name"});
  auto j = to_json(*bytes, pod, &f);
  ASSERT_TRUE(j) << j.error();
  EXPECT_EQ(*j, json::parse(R"({"metadata": {"name": "p", "labels": {"app": "x"}},
    "spec": {"containers": [{"name": "c"}],
             "volumes": [{"name": "v", "configMap": {"name": "cm", "defaultMode": 420}}, {"name": "e"}]}})"))
      << j->dump();
  auto no_managed = fastjson::MemberFilter::all_but({"metadata.managedFields"});
  j = to_json(*bytes, pod, &no_managed);
  ASSERT_TRUE(j);
  EXPECT_FALSE((*j)["metadata"].contains("managedFields"));
  EXPECT_EQ((*j)["spec"]["containers"][0]["image"], "busybox");
}

TEST(KubeProtoCodec, EncodingIsStrictAndNamesThePath) {
  const Message& pod = type("k8s.io.api.core.v1.Pod");
  auto expect_error = [&](const json& j, const std::string& what) {
    auto r = from_json(j, pod);
    ASSERT_FALSE(r) << j.dump();
    EXPECT_EQ(r.error(), "protobuf: " + what) << j.dump();
  };
  expect_error({{"spec", {{"noSuchField", 1}}}}, "spec.noSuchField: unknown field");
  expect_error({{"spec", {{"containers", {{{"name", 3}}}}}}},
               "spec.containers[0].name: expected a string");
  expect_error({{"spec", {{"priority", 1.5}}}}, "spec.priority: expected an int32");
  expect_error({{"spec", {{"priority", 3000000000LL}}}}, "spec.priority: expected an int32");
  expect_error({{"spec", {{"hostNetwork", "yes"}}}}, "spec.hostNetwork: expected a boolean");
  expect_error({{"spec", {{"containers", json::object()}}}}, "spec.containers: expected an array");
  expect_error({{"metadata", {{"creationTimestamp", "yesterday"}}}},
               "metadata.creationTimestamp: not an RFC 3339 time");
  expect_error(
      {{"spec", {{"containers", {{{"ports", {{{"containerPort", 1}, {"hostPort", "x"}}}}}}}}}},
      "spec.containers[0].ports[0].hostPort: expected an int32");
  expect_error(json::array(), "expected an object");
}

TEST(KubeProtoCodec, DecodingSkipsUnknownFieldsAndRefusesCorruptBytes) {
  const Message& pod = type("k8s.io.api.core.v1.Pod");
  // Field 99 (a newer server's) is skipped; metadata.name kept.
  std::string bytes = std::string("\x0a\x03\x0a\x01p", 5) + std::string("\x98\x06\x01", 3);
  auto j = to_json(bytes, pod);
  ASSERT_TRUE(j) << j.error();
  EXPECT_EQ(*j, json::parse(R"({"metadata": {"name": "p"}})"));
  EXPECT_FALSE(to_json(std::string("\x0a\x09\x0a", 3), pod));  // length past the end
  // A string where a message belongs (wire type 0 for field metadata).
  auto r = to_json(std::string("\x08\x01", 2), pod);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().find("k8s.io.api.core.v1.Pod.metadata"), std::string::npos) << r.error();
  // Invalid UTF-8 in a string becomes U+FFFD, as Go's JSON writes it, and dumps.
  j = to_json(std::string("\x0a\x04\x0a\x02\xffz", 6), pod);
  ASSERT_TRUE(j);
  EXPECT_EQ((*j)["metadata"]["name"], "\xef\xbf\xbdz");
  EXPECT_NO_THROW((void)j->dump());
}

}  // namespace
}  // namespace vc::kube::proto

// libFuzzer over the Kubernetes protobuf decoder (common/kube/proto): bytes as the API server
// sends them for built-in types. The first byte picks what the rest is:
//
//   0: an enveloped object (a GET's body)      -> decode_object
//   1: an enveloped List (a LIST's body)       -> decode_list
//   2: a protobuf watch stream, in chunks      -> WatchFrames + decode_watch_event
//   3+: a bare message of one of kMessages     -> to_json
//
// Checked: no crash, leak or exception; an answer for every input; and what decodes survives a
// round trip: its JSON encodes again (from_json / encode_object) and decodes to the same JSON,
// so a decoded object the client writes back (a Lease, a Pod's status) never fails on our side.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/kube/proto/envelope.h"
#include "common/kube/proto/json_codec.h"
#include "common/kube/proto/schema.h"

namespace {

using nlohmann::json;
namespace proto = vc::kube::proto;

void check(bool ok) {
  if (!ok) std::abort();
}

// The value with its objects' null members left out: a RawExtension without bytes decodes to
// null, as Go writes it, and encoding leaves a null member out, as Go's decoder does.
json without_nulls(const json& value) {
  if (value.is_array()) {
    json out = json::array();
    for (const auto& v : value) out.push_back(without_nulls(v));
    return out;
  }
  if (!value.is_object()) return value;
  json out = json::object();
  for (const auto& [k, v] : value.items()) {
    if (!v.is_null()) out[k] = without_nulls(v);
  }
  return out;
}

// The same JSON but for null members; else both sides, for the report.
void check_same(const json& again, const json& decoded) {
  if (without_nulls(again) == without_nulls(decoded)) return;
  const auto replace = json::error_handler_t::replace;
  std::fprintf(stderr, "decoded:   %s\nrewritten: %s\n", decoded.dump(-1, ' ', false, replace).c_str(),
               again.dump(-1, ' ', false, replace).c_str());
  std::abort();
}

// The messages our client exchanges in protobuf, and the metav1 ones every response may carry.
constexpr const char* kMessages[] = {
    "k8s.io.api.core.v1.Pod",
    "k8s.io.api.core.v1.Node",
    "k8s.io.api.core.v1.Namespace",
    "k8s.io.api.core.v1.ConfigMap",
    "k8s.io.api.coordination.v1.Lease",
    "k8s.io.api.events.v1.Event",
    "k8s.io.apimachinery.pkg.apis.meta.v1.Status",
    "k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent",
};

// The JSON decoded from bytes encodes again, and that decodes to the same JSON.
void round_trip(const json& decoded, const proto::Message& type) {
  auto bytes = proto::from_json(decoded, type);
  if (!bytes) std::fprintf(stderr, "re-encoding failed: %s\n", bytes.error().c_str());
  check(static_cast<bool>(bytes));
  auto again = proto::to_json(*bytes, type);
  check(static_cast<bool>(again));
  check_same(*again, decoded);
}

void round_trip_object(const json& decoded) {
  const auto& schema = proto::k8s_schema();
  auto body = proto::encode_object(schema, decoded);
  if (!body) std::fprintf(stderr, "re-encoding failed: %s\n", body.error().c_str());
  check(static_cast<bool>(body));
  auto again = proto::decode_object(schema, *body);
  check(static_cast<bool>(again));
  check_same(*again, decoded);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1 || size > 64 * 1024) return 0;
  const auto& schema = proto::k8s_schema();
  const uint8_t mode = data[0];
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);

  if (mode == 0) {
    if (auto object = proto::decode_object(schema, rest)) round_trip_object(*object);
    static const auto filter = vc::fastjson::MemberFilter::only({"metadata.name", "spec"});
    (void)proto::decode_object(schema, rest, &filter);
  } else if (mode == 1) {
    // The items go to the callback; the List comes back with an empty "items".
    auto list = proto::decode_list(schema, rest, [](json&& item) { check(item.is_object()); });
    if (list) check(list->is_object() && list->value("items", json()) == json::array());
  } else if (mode == 2) {
    proto::WatchFrames frames;
    uint32_t seed = static_cast<uint32_t>(size) * 2654435761u;
    size_t pos = 0;
    while (pos < rest.size() && frames.error() == nullptr) {
      seed = seed * 1103515245u + 12345u;
      const size_t n = std::min<size_t>(rest.size() - pos, 1 + (seed >> 16) % 23);
      frames.append(rest.substr(pos, n));
      pos += n;
      while (auto frame = frames.next()) {
        auto event = proto::decode_watch_event(schema, *frame);
        if (event) check(event->is_object() && event->contains("type"));
      }
    }
  } else {
    const auto* type = schema.find(kMessages[(mode - 3) % std::size(kMessages)]);
    check(type != nullptr);
    if (auto decoded = proto::to_json(rest, *type)) round_trip(*decoded, *type);
  }
  return 0;
}

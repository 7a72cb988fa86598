#pragma once
// Kubernetes' protobuf envelope: how the API server frames an object on the wire when the
// content type is application/vnd.kubernetes.protobuf.
//
//   object:  "k8s\0" + runtime.Unknown{typeMeta{apiVersion, kind}, raw = the object's message}
//   watch:   a stream of frames, each a 4-byte big-endian length and then a metav1.WatchEvent
//            {type, object = RawExtension{raw = an enveloped object as above}}
//
// Only built-in types have protobuf forms (custom resources are JSON only); which message an
// envelope holds follows from its apiVersion and kind (message_for).
//
// Thread-safety: pure functions; a WatchFrames belongs to one stream.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/api/expected.h"
#include "common/json/member_filter.h"
#include "common/kube/proto/schema.h"

namespace vc::kube::proto {

inline constexpr std::string_view kContentType = "application/vnd.kubernetes.protobuf";
inline constexpr std::string_view kWatchContentType =
    "application/vnd.kubernetes.protobuf;stream=watch";

// The message of apiVersion/kind: "v1" is k8s.io.api.core.v1, "<group>/<version>" is
// k8s.io.api.<first label of group>.<version>, and kinds that are not there (Status) come from
// metav1. nullptr when the schema has none.
const Message* message_for(const Schema& schema, std::string_view api_version,
                           std::string_view kind);

// Whether body starts with the protobuf envelope's magic bytes.
bool is_enveloped(std::string_view body);

// A JSON object with apiVersion and kind, enveloped; an error (unknown kind, or json_codec's
// strict encoding) when it cannot be written in protobuf.
api::Expected<std::string> encode_object(const Schema& schema, const nlohmann::json& object);
// The same with the type given (the object's own apiVersion and kind, if any, are left out).
api::Expected<std::string> encode_object(const Schema& schema, const nlohmann::json& object,
                                         std::string_view api_version, std::string_view kind);

// An enveloped object (a response body) as JSON, with apiVersion and kind from the envelope;
// filter as for to_json (null: everything).
api::Expected<nlohmann::json> decode_object(const Schema& schema, std::string_view body,
                                            const fastjson::MemberFilter* filter = nullptr);

// An enveloped List (PodList, ...) item by item: each of its items is decoded and handed to
// on_item in order (apiVersion and kind are not added to items, as in the JSON of a list), and
// the List is returned without them. Peak memory is the bytes and one decoded item.
api::Expected<nlohmann::json> decode_list(const Schema& schema, std::string_view body,
                                          const std::function<void(nlohmann::json&&)>& on_item);

// One watch frame's WatchEvent as the JSON watch event: {"type": "ADDED", "object": {...}}, the
// object built through object_filter (null: everything) unless it is an ERROR event's Status.
api::Expected<nlohmann::json> decode_watch_event(
    const Schema& schema, std::string_view frame,
    const fastjson::MemberFilter* object_filter = nullptr);

// Splits a protobuf watch stream into frames as its bytes arrive.
class WatchFrames {
 public:
  // Frames larger than this are refused (a corrupt length would otherwise buffer without end).
  static constexpr uint32_t kMaxFrame = 64u << 20;

  void append(std::string_view bytes) { buffer_.append(bytes); }
  // The next complete frame, nullopt when more bytes are needed or the stream is corrupt (then
  // error() is set).
  std::optional<std::string> next();
  const char* error() const { return error_; }
  // True when no partial frame is buffered.
  bool at_boundary() const { return pos_ == buffer_.size(); }
  size_t buffered_bytes() const { return buffer_.size() - pos_; }

 private:
  std::string buffer_;
  size_t pos_ = 0;
  const char* error_ = nullptr;
};

}  // namespace vc::kube::proto

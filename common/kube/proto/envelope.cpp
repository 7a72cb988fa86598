#include "common/kube/proto/envelope.h"

#include "common/kube/proto/json_codec.h"
#include "common/kube/proto/wire.h"

namespace vc::kube::proto {
namespace {

using nlohmann::json;

constexpr std::string_view kMagic{"k8s\0", 4};
constexpr std::string_view kMeta = "k8s.io.apimachinery.pkg.apis.meta.v1.";

struct Envelope {
  std::string api_version, kind;
  std::string_view raw;
};

api::Expected<Envelope> open(std::string_view body) {
  if (!body.starts_with(kMagic))
    return api::Unexpected{"protobuf: the body does not start with the k8s envelope"};
  Envelope e;
  WireReader r(body.substr(kMagic.size()));
  std::string_view encoding;
  while (auto w = r.next()) {
    if (w->type != WireType::Bytes) continue;
    if (w->number == 1) {
      WireReader t(w->bytes);
      while (auto tw = t.next()) {
        if (tw->number == 1 && tw->type == WireType::Bytes) e.api_version = std::string(tw->bytes);
        if (tw->number == 2 && tw->type == WireType::Bytes) e.kind = std::string(tw->bytes);
      }
      if (t.error() != nullptr)
        return api::Unexpected{std::string("protobuf: envelope type: ") + t.error()};
    }
    if (w->number == 2) e.raw = w->bytes;
    if (w->number == 3) encoding = w->bytes;
  }
  if (r.error() != nullptr) return api::Unexpected{std::string("protobuf: envelope: ") + r.error()};
  if (!encoding.empty())
    return api::Unexpected{"protobuf: unsupported content encoding " + std::string(encoding)};
  return e;
}

}  // namespace

bool is_enveloped(std::string_view body) {
  return body.starts_with(kMagic);
}

const Message* message_for(const Schema& schema, std::string_view api_version,
                           std::string_view kind) {
  std::string package;
  auto slash = api_version.find('/');
  if (slash == std::string_view::npos) {
    package = "k8s.io.api.core." + std::string(api_version) + ".";
  } else {
    auto group = api_version.substr(0, slash);
    package = "k8s.io.api." + std::string(group.substr(0, group.find('.'))) + "." +
              std::string(api_version.substr(slash + 1)) + ".";
  }
  if (const Message* m = schema.find(package + std::string(kind))) return m;
  return schema.find(std::string(kMeta) + std::string(kind));
}

api::Expected<std::string> encode_object(const Schema& schema, const json& object) {
  if (!object.is_object()) return api::Unexpected{"protobuf: not an object"};
  auto api_version = object.find("apiVersion");
  auto kind = object.find("kind");
  if (api_version == object.end() || !api_version->is_string() || kind == object.end() ||
      !kind->is_string())
    return api::Unexpected{"protobuf: the object has no apiVersion and kind"};
  return encode_object(schema, object, api_version->get_ref<const std::string&>(),
                       kind->get_ref<const std::string&>());
}

api::Expected<std::string> encode_object(const Schema& schema, const json& object,
                                         std::string_view api_version, std::string_view kind) {
  const Message* type = message_for(schema, api_version, kind);
  if (type == nullptr)
    return api::Unexpected{"protobuf: no message for " + std::string(api_version) + " " +
                           std::string(kind)};
  auto raw = from_json(object, *type, /*skip_type_meta=*/true);
  if (!raw) return api::Unexpected{raw.error()};
  WireWriter type_meta;
  type_meta.bytes(1, api_version);
  type_meta.bytes(2, kind);
  WireWriter unknown;
  unknown.bytes(1, type_meta.data());
  unknown.bytes(2, *raw);
  // Go writes the two empty strings as well.
  unknown.bytes(3, "");
  unknown.bytes(4, "");
  return std::string(kMagic) + unknown.data();
}

api::Expected<json> decode_object(const Schema& schema, std::string_view body,
                                  const fastjson::MemberFilter* filter) {
  auto e = open(body);
  if (!e) return api::Unexpected{e.error()};
  const Message* type = message_for(schema, e->api_version, e->kind);
  if (type == nullptr)
    return api::Unexpected{"protobuf: no message for " + e->api_version + " " + e->kind};
  auto object = to_json(e->raw, *type, filter);
  if (!object) return object;
  if (!object->is_object()) return api::Unexpected{"protobuf: " + e->kind + " is not an object"};
  (*object)["apiVersion"] = e->api_version;
  (*object)["kind"] = e->kind;
  return object;
}

api::Expected<json> decode_list(const Schema& schema, std::string_view body,
                                const std::function<void(json&&)>& on_item) {
  auto e = open(body);
  if (!e) return api::Unexpected{e.error()};
  const Message* type = message_for(schema, e->api_version, e->kind);
  if (type == nullptr)
    return api::Unexpected{"protobuf: no message for " + e->api_version + " " + e->kind};
  const Field* items = type->by_name("items");
  if (items == nullptr || !items->repeated || items->message == nullptr)
    return api::Unexpected{"protobuf: " + e->kind + " is not a list"};
  // Everything but the items is re-encoded as it came and decoded as the list.
  WireWriter rest;
  WireReader r(e->raw);
  while (auto w = r.next()) {
    if (w->number == items->number && w->type == WireType::Bytes) {
      auto item = to_json(w->bytes, *items->message);
      if (!item) return item;
      on_item(std::move(*item));
    } else if (w->type == WireType::Bytes) {
      rest.bytes(w->number, w->bytes);
    } else if (w->type == WireType::Varint) {
      rest.varint(w->number, w->value);
    } else if (w->type == WireType::Fixed64) {
      rest.fixed64(w->number, w->value);
    } else {
      rest.fixed32(w->number, static_cast<uint32_t>(w->value));
    }
  }
  if (r.error() != nullptr) return api::Unexpected{"protobuf: " + e->kind + ": " + r.error()};
  auto list = to_json(rest.data(), *type);
  if (!list) return list;
  (*list)["apiVersion"] = e->api_version;
  (*list)["kind"] = e->kind;
  (*list)["items"] = json::array();
  return list;
}

api::Expected<json> decode_watch_event(const Schema& schema, std::string_view frame,
                                       const fastjson::MemberFilter* object_filter) {
  std::string type;
  std::string_view raw;
  WireReader r(frame);
  while (auto w = r.next()) {
    if (w->type != WireType::Bytes) continue;
    if (w->number == 1) type = std::string(w->bytes);
    if (w->number == 2) {
      WireReader ext(w->bytes);
      while (auto ew = ext.next())
        if (ew->number == 1 && ew->type == WireType::Bytes) raw = ew->bytes;
      if (ext.error() != nullptr)
        return api::Unexpected{std::string("protobuf: watch event object: ") + ext.error()};
    }
  }
  if (r.error() != nullptr)
    return api::Unexpected{std::string("protobuf: watch event: ") + r.error()};
  if (type.empty()) return api::Unexpected{"protobuf: watch event without a type"};
  auto object = decode_object(schema, raw, type == "ERROR" ? nullptr : object_filter);
  if (!object) return object;
  return json{{"type", std::move(type)}, {"object", std::move(*object)}};
}

std::optional<std::string> WatchFrames::next() {
  if (error_ != nullptr || buffer_.size() - pos_ < 4) return std::nullopt;
  uint32_t len = 0;
  for (int i = 0; i < 4; ++i) len = (len << 8) | static_cast<uint8_t>(buffer_[pos_ + i]);
  if (len > kMaxFrame) {
    error_ = "protobuf watch frame larger than 64 MiB";
    return std::nullopt;
  }
  if (buffer_.size() - pos_ - 4 < len) return std::nullopt;
  std::string frame = buffer_.substr(pos_ + 4, len);
  pos_ += 4 + len;
  if (pos_ * 2 > buffer_.size()) {  // drop what was read once it is most of the buffer
    buffer_.erase(0, pos_);
    pos_ = 0;
  }
  return frame;
}

}  // namespace vc::kube::proto

// Protobuf bytes to Kubernetes JSON (json_codec.h).

#include <bit>
#include <chrono>
#include <cstdint>
#include <string>

#include "common/api/time.h"
#include "common/go/base64.h"
#include "common/go/duration.h"
#include "common/go/utf8.h"
#include "common/kube/proto/json_codec.h"
#include "common/kube/proto/wire.h"

namespace vc::kube::proto {
namespace {

using nlohmann::json;

// Go's zero time.Time (0001-01-01T00:00:00Z) as Unix seconds: metav1.Time's JSON for it is null.
constexpr int64_t kGoZeroTimeSeconds = -62135596800;

class Decoder {
 public:
  std::string error;

  bool message(std::string_view bytes, const Message& type, json& out,
               const fastjson::MemberFilter* filter = nullptr) {
    switch (type.shape) {
      case JsonShape::Object:
        out = json::object();
        return object(bytes, type, out, filter);
      case JsonShape::Time:
      case JsonShape::MicroTime:
        return time(bytes, type, out);
      case JsonShape::Duration: {
        int64_t ns = 0;
        if (!scalar_field(bytes, 1, ns, type)) return false;
        out = go::format_duration(std::chrono::nanoseconds(ns));
        return true;
      }
      case JsonShape::Quantity: {
        std::string s = "0";  // Go's zero Quantity
        if (!string_field(bytes, 1, s, type)) return false;
        out = std::move(s);
        return true;
      }
      case JsonShape::IntOrString:
        return int_or_string(bytes, type, out);
      case JsonShape::RawJson: {
        std::string raw;
        if (!string_field(bytes, 1, raw, type)) return false;
        if (raw.empty()) {
          out = nullptr;
          return true;
        }
        out = json::parse(raw, nullptr, false);
        if (out.is_discarded()) return fail(type.full_name + ": raw bytes are not JSON");
        return true;
      }
    }
    return fail(type.full_name + ": unknown shape");
  }

 private:
  bool fail(std::string what) {
    if (error.empty()) error = std::move(what);
    return false;
  }

  bool object(std::string_view bytes, const Message& type, json& obj,
              const fastjson::MemberFilter* filter) {
    if (filter != nullptr && filter->keeps_all()) filter = nullptr;
    WireReader r(bytes);
    while (auto w = r.next()) {
      const Field* f = type.by_number(w->number);
      if (f == nullptr) continue;  // a field this schema does not know
      if (f->inline_json) {        // its members are the parent's: the same filter applies
        if (w->type != WireType::Bytes) return wire_mismatch(type, *f);
        if (!object(w->bytes, *f->message, obj, filter)) return false;
        continue;
      }
      const fastjson::MemberFilter* sub = filter == nullptr ? nullptr : filter->find(f->name);
      if (filter != nullptr && sub == nullptr) continue;  // left out
      if (f->is_map()) {
        if (w->type != WireType::Bytes) return wire_mismatch(type, *f);
        if (!map_entry(w->bytes, *f, obj[f->name], sub)) return false;
      } else if (f->repeated) {
        json& arr = obj[f->name];
        if (!arr.is_array()) arr = json::array();
        if (!repeated(*w, type, *f, arr, sub)) return false;
      } else if (!value(*w, type, *f, obj[f->name], sub)) {
        return false;
      }
    }
    if (r.error() != nullptr) return fail(type.full_name + ": " + r.error());
    return true;
  }

  bool wire_mismatch(const Message& type, const Field& f) {
    return fail(type.full_name + "." + f.name + ": wire type does not match the field's type");
  }

  bool repeated(const WireField& w, const Message& type, const Field& f, json& arr,
                const fastjson::MemberFilter* filter) {
    bool numeric =
        f.type != FieldType::String && f.type != FieldType::Bytes && f.type != FieldType::Message;
    if (numeric && w.type == WireType::Bytes) {  // packed
      WireReader packed(w.bytes);
      if (f.type == FieldType::Double || f.type == FieldType::Fixed64 ||
          f.type == FieldType::Sfixed64 || f.type == FieldType::Float ||
          f.type == FieldType::Fixed32 || f.type == FieldType::Sfixed32) {
        return fail(type.full_name + "." + f.name +
                    ": packed fixed-width values are not supported");
      }
      uint64_t v = 0;
      while (packed.next_varint(v)) {
        WireField one{f.number, WireType::Varint, v, {}};
        if (!value(one, type, f, arr.emplace_back())) return false;
      }
      if (packed.error() != nullptr)
        return fail(type.full_name + "." + f.name + ": " + packed.error());
      return true;
    }
    return value(w, type, f, arr.emplace_back(), filter);
  }

  // A map is a JSON object: a filter names the keys to keep.
  bool map_entry(std::string_view bytes, const Field& f, json& map,
                 const fastjson::MemberFilter* filter) {
    if (filter != nullptr && filter->keeps_all()) filter = nullptr;
    if (!map.is_object()) map = json::object();
    const Field* key_field = f.message->by_number(1);
    const Field* value_field = f.message->by_number(2);
    if (key_field == nullptr || value_field == nullptr)
      return fail(f.message->full_name + ": not a map entry");
    json key = "", val;
    bool has_value = false;
    WireReader r(bytes);
    while (auto w = r.next()) {
      if (w->number == 1 && !value(*w, *f.message, *key_field, key)) return false;
      if (w->number == 2) {
        if (!value(*w, *f.message, *value_field, val)) return false;
        has_value = true;
      }
    }
    if (r.error() != nullptr) return fail(f.message->full_name + ": " + r.error());
    if (!has_value) {  // the value type's zero
      WireField empty{2, WireType::Bytes, 0, {}};
      if (value_field->type == FieldType::Message || value_field->type == FieldType::String ||
          value_field->type == FieldType::Bytes) {
        if (!value(empty, *f.message, *value_field, val)) return false;
      } else {
        val = 0;
      }
    }
    std::string name = key.is_string() ? key.get<std::string>() : key.dump();
    if (filter != nullptr && filter->find(name) == nullptr) return true;
    map[std::move(name)] = std::move(val);
    return true;
  }

  bool value(const WireField& w, const Message& type, const Field& f, json& out,
             const fastjson::MemberFilter* filter = nullptr) {
    switch (f.type) {
      case FieldType::Message:
        if (w.type != WireType::Bytes) return wire_mismatch(type, f);
        return message(w.bytes, *f.message, out, filter);
      case FieldType::String:
        if (w.type != WireType::Bytes) return wire_mismatch(type, f);
        // Go's encoding/json writes invalid UTF-8 as U+FFFD; nlohmann's dump() would throw.
        out = go::valid_utf8(w.bytes) ? std::string(w.bytes) : go::replace_invalid_utf8(w.bytes);
        return true;
      case FieldType::Bytes:
        if (w.type != WireType::Bytes) return wire_mismatch(type, f);
        out = go::base64_encode(w.bytes);
        return true;
      case FieldType::Double:
        if (w.type != WireType::Fixed64) return wire_mismatch(type, f);
        out = std::bit_cast<double>(w.value);
        return true;
      case FieldType::Float:
        if (w.type != WireType::Fixed32) return wire_mismatch(type, f);
        out = static_cast<double>(std::bit_cast<float>(static_cast<uint32_t>(w.value)));
        return true;
      case FieldType::Fixed64:
        if (w.type != WireType::Fixed64) return wire_mismatch(type, f);
        out = w.value;
        return true;
      case FieldType::Sfixed64:
        if (w.type != WireType::Fixed64) return wire_mismatch(type, f);
        out = static_cast<int64_t>(w.value);
        return true;
      case FieldType::Fixed32:
        if (w.type != WireType::Fixed32) return wire_mismatch(type, f);
        out = static_cast<uint32_t>(w.value);
        return true;
      case FieldType::Sfixed32:
        if (w.type != WireType::Fixed32) return wire_mismatch(type, f);
        out = static_cast<int32_t>(static_cast<uint32_t>(w.value));
        return true;
      default:
        break;
    }
    if (w.type != WireType::Varint) return wire_mismatch(type, f);
    switch (f.type) {
      case FieldType::Bool:
        out = w.value != 0;
        return true;
      case FieldType::Int64:
        out = static_cast<int64_t>(w.value);
        return true;
      case FieldType::Uint64:
        out = w.value;
        return true;
      case FieldType::Int32:
      case FieldType::Enum:
        out = static_cast<int32_t>(static_cast<uint32_t>(w.value));
        return true;
      case FieldType::Uint32:
        out = static_cast<uint32_t>(w.value);
        return true;
      case FieldType::Sint32:
        out = static_cast<int32_t>(zigzag_decode(w.value));
        return true;
      case FieldType::Sint64:
        out = zigzag_decode(w.value);
        return true;
      default:
        return fail(type.full_name + "." + f.name + ": unsupported field type");
    }
  }

  // The integer in field `number` of a small message (Duration, Time); 0 when absent.
  bool scalar_field(std::string_view bytes, uint32_t number, int64_t& out, const Message& type) {
    WireReader r(bytes);
    while (auto w = r.next())
      if (w->number == number && w->type == WireType::Varint) out = static_cast<int64_t>(w->value);
    if (r.error() != nullptr) return fail(type.full_name + ": " + r.error());
    return true;
  }

  bool string_field(std::string_view bytes, uint32_t number, std::string& out,
                    const Message& type) {
    WireReader r(bytes);
    while (auto w = r.next())
      if (w->number == number && w->type == WireType::Bytes) out = std::string(w->bytes);
    if (r.error() != nullptr) return fail(type.full_name + ": " + r.error());
    return true;
  }

  bool time(std::string_view bytes, const Message& type, json& out) {
    int64_t seconds = 0, nanos = 0;
    if (!scalar_field(bytes, 1, seconds, type) || !scalar_field(bytes, 2, nanos, type))
      return false;
    nanos = static_cast<int32_t>(nanos);
    if (seconds == kGoZeroTimeSeconds && nanos == 0) {
      out = nullptr;
      return true;
    }
    // system_clock (nanoseconds) reaches about 292 years either side of 1970.
    constexpr int64_t kLimit = 9'000'000'000;
    if (seconds > kLimit || seconds < -kLimit || nanos < 0 || nanos > 999'999'999)
      return fail(type.full_name + ": time out of range");
    api::TimePoint t{std::chrono::duration_cast<api::TimePoint::duration>(
        std::chrono::seconds(seconds) + std::chrono::nanoseconds(nanos))};
    out = type.shape == JsonShape::Time ? api::format_rfc3339(t) : api::format_micro_time(t);
    return true;
  }

  bool int_or_string(std::string_view bytes, const Message& type, json& out) {
    int64_t kind = 0, int_val = 0;
    std::string str_val;
    if (!scalar_field(bytes, 1, kind, type) || !scalar_field(bytes, 2, int_val, type) ||
        !string_field(bytes, 3, str_val, type))
      return false;
    if (kind == 1)
      out = std::move(str_val);
    else
      out = static_cast<int32_t>(int_val);
    return true;
  }
};

}  // namespace

api::Expected<nlohmann::json> to_json(std::string_view bytes, const Message& type,
                                      const fastjson::MemberFilter* filter) {
  Decoder d;
  json out;
  if (!d.message(bytes, type, out, filter)) return api::Unexpected{"protobuf: " + d.error};
  return out;
}

}  // namespace vc::kube::proto

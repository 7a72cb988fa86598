// Kubernetes JSON to protobuf bytes (json_codec.h).

#include <bit>
#include <chrono>
#include <cstdint>
#include <limits>
#include <map>
#include <string>

#include "common/api/time.h"
#include "common/go/base64.h"
#include "common/go/duration.h"
#include "common/go/json_float.h"
#include "common/kube/proto/json_codec.h"
#include "common/kube/proto/wire.h"

namespace vc::kube::proto {
namespace {

using nlohmann::json;

// Whether `name` is a member of type's JSON object, directly or through an inline field.
bool knows(const Message& type, std::string_view name) {
  for (const auto& f : type.fields) {
    if (f.inline_json ? knows(*f.message, name) : f.name == name) return true;
  }
  return false;
}

class Encoder {
 public:
  std::string error;
  bool skip_type_meta = false;

  bool message(const json& v, const Message& type, std::string& out, const std::string& path) {
    WireWriter w;
    switch (type.shape) {
      case JsonShape::Object:
        if (!v.is_object()) return fail(path, "expected an object");
        if (!object(v, type, w, path)) return false;
        break;
      case JsonShape::Time:
      case JsonShape::MicroTime: {
        if (!v.is_string()) return fail(path, "expected an RFC 3339 time string");
        auto t = api::parse_time(v.get_ref<const std::string&>());
        if (!t) return fail(path, "not an RFC 3339 time");
        auto since = t->time_since_epoch();
        auto seconds = std::chrono::floor<std::chrono::seconds>(since);
        auto nanos = std::chrono::duration_cast<std::chrono::nanoseconds>(since - seconds);
        w.varint(1, static_cast<uint64_t>(seconds.count()));
        w.varint(2, static_cast<uint64_t>(nanos.count()));
        break;
      }
      case JsonShape::Duration: {
        if (!v.is_string()) return fail(path, "expected a duration string");
        auto d = go::parse_duration(v.get_ref<const std::string&>());
        if (!d) return fail(path, d.error());
        w.varint(1, static_cast<uint64_t>(d->count()));
        break;
      }
      case JsonShape::Quantity:
        if (v.is_string()) {
          w.bytes(1, v.get_ref<const std::string&>());
        } else if (v.is_number_integer()) {
          w.bytes(1, v.dump());
        } else if (v.is_number_float()) {
          w.bytes(1, go::format_json_float(v.get<double>()));
        } else {
          return fail(path, "expected a quantity");
        }
        break;
      case JsonShape::IntOrString:
        // Go writes all three fields of an IntOrString.
        if (v.is_string()) {
          w.varint(1, 1);
          w.varint(2, 0);
          w.bytes(3, v.get_ref<const std::string&>());
        } else if (v.is_number_integer() && fits<int32_t>(v)) {
          w.varint(1, 0);
          w.varint(2, static_cast<uint64_t>(v.get<int64_t>()));
          w.bytes(3, "");
        } else {
          return fail(path, "expected an int32 or a string");
        }
        break;
      case JsonShape::RawJson:
        w.bytes(1, v.dump());
        break;
    }
    out = w.take();
    return true;
  }

 private:
  bool fail(const std::string& path, std::string_view what) {
    if (error.empty()) error = path.empty() ? std::string(what) : path + ": " + std::string(what);
    return false;
  }

  template <class T>
  static bool fits(const json& v) {
    if (v.is_number_unsigned())
      return v.get<uint64_t>() <= static_cast<uint64_t>(std::numeric_limits<T>::max());
    if (!v.is_number_integer()) return false;
    auto i = v.get<int64_t>();
    return i >= static_cast<int64_t>(std::numeric_limits<T>::min()) &&
           (i < 0 ||
            static_cast<uint64_t>(i) <= static_cast<uint64_t>(std::numeric_limits<T>::max()));
  }

  bool object(const json& obj, const Message& type, WireWriter& w, const std::string& path) {
    // Members of inline fields, gathered per field and written as that field's message.
    std::map<const Field*, json> inlined;
    for (const auto& [key, v] : obj.items()) {
      if (v.is_null()) continue;
      if (skip_type_meta && path.empty() && (key == "apiVersion" || key == "kind")) continue;
      const Field* f = type.by_name(key);
      if (f != nullptr && f->inline_json) f = nullptr;  // the Go field, not a JSON member
      if (f != nullptr) {
        if (!field(*f, v, w, path + "." + key)) return false;
        continue;
      }
      const Field* holder = nullptr;
      for (const auto& candidate : type.fields)
        if (candidate.inline_json && knows(*candidate.message, key)) holder = &candidate;
      if (holder == nullptr) return fail(path + "." + key, "unknown field");
      inlined[holder][key] = v;
    }
    for (const auto& [f, members] : inlined) {
      std::string bytes;
      if (!message(members, *f->message, bytes, path)) return false;
      w.bytes(f->number, bytes);
    }
    return true;
  }

  bool field(const Field& f, const json& v, WireWriter& w, const std::string& path) {
    if (f.is_map()) {
      if (!v.is_object()) return fail(path, "expected an object");
      const Field* key_field = f.message->by_number(1);
      const Field* value_field = f.message->by_number(2);
      if (key_field == nullptr || value_field == nullptr || key_field->type != FieldType::String)
        return fail(path, "unsupported map type");
      for (const auto& [key, item] : v.items()) {
        WireWriter entry;
        entry.bytes(1, key);
        if (!single(*value_field, item, entry, path + "." + key)) return false;
        w.bytes(f.number, entry.data());
      }
      return true;
    }
    if (f.repeated) {
      if (!v.is_array()) return fail(path, "expected an array");
      for (size_t i = 0; i < v.size(); ++i)
        if (!single(f, v[i], w, path + "[" + std::to_string(i) + "]")) return false;
      return true;
    }
    return single(f, v, w, path);
  }

  bool single(const Field& f, const json& v, WireWriter& w, const std::string& path) {
    switch (f.type) {
      case FieldType::Message: {
        std::string bytes;
        if (!message(v, *f.message, bytes, path)) return false;
        w.bytes(f.number, bytes);
        return true;
      }
      case FieldType::String:
        if (!v.is_string()) return fail(path, "expected a string");
        w.bytes(f.number, v.get_ref<const std::string&>());
        return true;
      case FieldType::Bytes: {
        if (!v.is_string()) return fail(path, "expected a base64 string");
        auto raw = go::base64_decode(v.get_ref<const std::string&>());
        if (!raw) return fail(path, "not base64");
        w.bytes(f.number, *raw);
        return true;
      }
      case FieldType::Bool:
        if (!v.is_boolean()) return fail(path, "expected a boolean");
        w.varint(f.number, v.get<bool>() ? 1 : 0);
        return true;
      case FieldType::Double:
        if (!v.is_number()) return fail(path, "expected a number");
        w.fixed64(f.number, std::bit_cast<uint64_t>(v.get<double>()));
        return true;
      case FieldType::Float:
        if (!v.is_number()) return fail(path, "expected a number");
        w.fixed32(f.number, std::bit_cast<uint32_t>(v.get<float>()));
        return true;
      case FieldType::Int32:
      case FieldType::Enum:
        if (!fits<int32_t>(v)) return fail(path, "expected an int32");
        w.varint(f.number, static_cast<uint64_t>(v.get<int64_t>()));
        return true;
      case FieldType::Sint32:
        if (!fits<int32_t>(v)) return fail(path, "expected an int32");
        w.varint(f.number, zigzag_encode(v.get<int64_t>()));
        return true;
      case FieldType::Uint32:
        if (!fits<uint32_t>(v)) return fail(path, "expected a uint32");
        w.varint(f.number, v.get<uint64_t>());
        return true;
      case FieldType::Fixed32:
        if (!fits<uint32_t>(v)) return fail(path, "expected a uint32");
        w.fixed32(f.number, static_cast<uint32_t>(v.get<uint64_t>()));
        return true;
      case FieldType::Sfixed32:
        if (!fits<int32_t>(v)) return fail(path, "expected an int32");
        w.fixed32(f.number, static_cast<uint32_t>(static_cast<int32_t>(v.get<int64_t>())));
        return true;
      case FieldType::Int64:
      case FieldType::Sint64:
      case FieldType::Sfixed64:
        if (!fits<int64_t>(v)) return fail(path, "expected an int64");
        if (f.type == FieldType::Sint64)
          w.varint(f.number, zigzag_encode(v.get<int64_t>()));
        else if (f.type == FieldType::Sfixed64)
          w.fixed64(f.number, static_cast<uint64_t>(v.get<int64_t>()));
        else
          w.varint(f.number, static_cast<uint64_t>(v.get<int64_t>()));
        return true;
      case FieldType::Uint64:
      case FieldType::Fixed64:
        if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<int64_t>() >= 0))
          return fail(path, "expected a uint64");
        if (f.type == FieldType::Fixed64)
          w.fixed64(f.number, v.get<uint64_t>());
        else
          w.varint(f.number, v.get<uint64_t>());
        return true;
      case FieldType::Group:
        break;
    }
    return fail(path, "unsupported field type");
  }
};

}  // namespace

api::Expected<std::string> from_json(const nlohmann::json& object, const Message& type,
                                     bool skip_type_meta) {
  Encoder e;
  e.skip_type_meta = skip_type_meta;
  std::string out;
  if (!e.message(object, type, out, "")) {
    std::string_view what = e.error;
    if (what.starts_with('.')) what.remove_prefix(1);  // paths start at the object: ".spec.x"
    return api::Unexpected{"protobuf: " + std::string(what)};
  }
  return out;
}

}  // namespace vc::kube::proto

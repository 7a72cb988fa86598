#pragma once
// The message types of the Kubernetes API as protobuf describes them, read from a
// FileDescriptorSet (what `protoc --include_imports -o` writes), and how each one appears in
// Kubernetes' JSON, which is not always protobuf's own JSON mapping:
//
//   - metav1.Time / MicroTime are RFC 3339 strings, metav1.Duration a Go duration string,
//     resource.Quantity its string, intstr.IntOrString a number or a string, and
//     runtime.RawExtension / metav1.FieldsV1 carry JSON text as bytes (JsonShape);
//   - five Go structs are embedded with `json:",inline"`, so their members appear in the parent's
//     JSON object while protobuf nests them in one field (Field::inline_json): Volume's
//     volumeSource, PersistentVolumeSpec's persistentVolumeSource, Probe's handler,
//     EphemeralContainer's ephemeralContainerCommon and the localObjectReference of the
//     Secret/ConfigMap references.
//
// k8s_schema() is the one our binaries carry: the .proto files of k8s.io/api (core/v1,
// coordination/v1, events/v1) and the apimachinery types they import, at the version of the API
// server we test against, compiled by protoc at build time (k8s-protos.sh).
//
// Thread-safety: a Schema is immutable once built; k8s_schema() builds it once, on first use.

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/api/expected.h"

namespace vc::kube::proto {

// FieldDescriptorProto.Type.
enum class FieldType : uint8_t {
  Double = 1,
  Float = 2,
  Int64 = 3,
  Uint64 = 4,
  Int32 = 5,
  Fixed64 = 6,
  Fixed32 = 7,
  Bool = 8,
  String = 9,
  Group = 10,
  Message = 11,
  Bytes = 12,
  Uint32 = 13,
  Enum = 14,
  Sfixed32 = 15,
  Sfixed64 = 16,
  Sint32 = 17,
  Sint64 = 18,
};

enum class JsonShape : uint8_t {
  Object,       // a JSON object of its fields
  Time,         // "2024-01-02T03:04:05Z" (seconds = 1, nanos = 2); the zero time is null
  MicroTime,    // "2024-01-02T03:04:05.123456Z"
  Duration,     // "1m30s" (duration = 1, nanoseconds)
  Quantity,     // "100m" (string = 1)
  IntOrString,  // 8080 or "http" (type = 1: 0 int, 1 string; intVal = 2; strVal = 3)
  RawJson,      // any JSON value, as its text in bytes field 1
};

struct Message;

struct Field {
  std::string name;
  uint32_t number = 0;
  FieldType type = FieldType::String;
  bool repeated = false;
  const Message* message = nullptr;  // Message fields: its type
  bool inline_json = false;          // see the file comment
  // A map<K, V>: a repeated message of the map-entry type (key = 1, value = 2).
  bool is_map() const;
};

struct Message {
  std::string full_name;  // "k8s.io.api.core.v1.Pod"
  JsonShape shape = JsonShape::Object;
  bool map_entry = false;
  std::vector<Field> fields;  // in declaration order
  // fields' index by field number (-1: none), for numbers up to its size: decoding looks up
  // every field it reads.
  std::vector<int16_t> number_index;
  const Field* by_number(uint32_t number) const;
  const Field* by_name(std::string_view name) const;
};

class Schema {
 public:
  // Reads a serialized FileDescriptorSet; an error names what is malformed or unresolved.
  static api::Expected<Schema> parse(std::string_view descriptor_set);
  Schema(Schema&&) = default;
  Schema& operator=(Schema&&) = default;

  // "k8s.io.api.core.v1.Pod" (no leading dot); nullptr when unknown.
  const Message* find(std::string_view full_name) const;
  size_t size() const { return messages_.size(); }

 private:
  Schema() = default;
  std::deque<Message> messages_;  // stable addresses for Field::message
  std::unordered_map<std::string_view, const Message*> by_name_;
};

// The schema compiled into this binary (see the file comment). Throws std::logic_error if the
// embedded descriptor set does not parse, which a unit test rules out for every build.
const Schema& k8s_schema();

}  // namespace vc::kube::proto

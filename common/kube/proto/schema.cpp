#include "common/kube/proto/schema.h"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <utility>

#include "common/kube/proto/wire.h"

// The FileDescriptorSet protoc wrote at build time, embedded by embed.cmake.
extern "C" const unsigned char vc_k8s_descriptor_set[];
extern "C" const unsigned long vc_k8s_descriptor_set_size;

namespace vc::kube::proto {
namespace {

// The Kubernetes types whose JSON is not an object of their fields.
constexpr std::array<std::pair<std::string_view, JsonShape>, 7> kShapes = {{
    {"k8s.io.apimachinery.pkg.apis.meta.v1.Time", JsonShape::Time},
    {"k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime", JsonShape::MicroTime},
    {"k8s.io.apimachinery.pkg.apis.meta.v1.Duration", JsonShape::Duration},
    {"k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1", JsonShape::RawJson},
    {"k8s.io.apimachinery.pkg.api.resource.Quantity", JsonShape::Quantity},
    {"k8s.io.apimachinery.pkg.util.intstr.IntOrString", JsonShape::IntOrString},
    {"k8s.io.apimachinery.pkg.runtime.RawExtension", JsonShape::RawJson},
}};

// Embedded Go structs (`json:",inline"`): the protobuf field name and its type's short name.
constexpr std::array<std::pair<std::string_view, std::string_view>, 5> kInline = {{
    {"volumeSource", "VolumeSource"},
    {"persistentVolumeSource", "PersistentVolumeSource"},
    {"handler", "ProbeHandler"},
    {"ephemeralContainerCommon", "EphemeralContainerCommon"},
    {"localObjectReference", "LocalObjectReference"},
}};

struct PendingField {
  Message* owner;
  size_t index;
  std::string type_name;
};

struct Reader {
  std::deque<Message>& messages;
  std::vector<PendingField>& pending;
  std::string error;

  bool fail(std::string what) {
    if (error.empty()) error = std::move(what);
    return false;
  }

  bool field(std::string_view data, Message& owner) {
    Field f;
    std::string type_name;
    WireReader r(data);
    while (auto w = r.next()) {
      switch (w->number) {
        case 1:
          f.name = std::string(w->bytes);
          break;
        case 3:
          f.number = static_cast<uint32_t>(w->value);
          break;
        case 4:
          f.repeated = w->value == 3;
          break;  // LABEL_REPEATED
        case 5:
          f.type = static_cast<FieldType>(w->value);
          break;
        case 6:
          type_name = std::string(w->bytes);
          break;
        default:
          break;
      }
    }
    if (r.error() != nullptr) return fail(std::string("field: ") + r.error());
    if (f.name.empty() || f.number == 0)
      return fail("a field of " + owner.full_name + " has no name or number");
    if (f.type == FieldType::Group)
      return fail("field " + owner.full_name + "." + f.name + " is a group");
    owner.fields.push_back(std::move(f));
    if (!type_name.empty())
      pending.push_back({&owner, owner.fields.size() - 1, std::move(type_name)});
    return true;
  }

  bool message(std::string_view data, const std::string& scope) {
    Message& m = messages.emplace_back();
    std::vector<std::string_view> fields, nested;
    WireReader r(data);
    while (auto w = r.next()) {
      if (w->number == 1) m.full_name = scope + "." + std::string(w->bytes);
      if (w->number == 2) fields.push_back(w->bytes);
      if (w->number == 3) nested.push_back(w->bytes);
      if (w->number == 7) {  // MessageOptions: map_entry = 7
        WireReader o(w->bytes);
        while (auto ow = o.next())
          if (ow->number == 7) m.map_entry = ow->value != 0;
      }
    }
    if (r.error() != nullptr) return fail(std::string("message: ") + r.error());
    if (m.full_name.empty() || m.full_name == scope + ".")
      return fail("a message in " + scope + " has no name");
    for (auto f : fields)
      if (!field(f, m)) return false;
    // Nested types join the deque behind m: a deque's push_back leaves m where it is.
    for (auto n : nested)
      if (!message(n, m.full_name)) return false;
    return true;
  }

  bool file(std::string_view data) {
    std::string package;
    std::vector<std::string_view> types;
    WireReader r(data);
    while (auto w = r.next()) {
      if (w->number == 2) package = std::string(w->bytes);
      if (w->number == 4) types.push_back(w->bytes);
    }
    if (r.error() != nullptr) return fail(std::string("file: ") + r.error());
    for (auto t : types)
      if (!message(t, package)) return false;
    return true;
  }
};

std::string_view short_name(std::string_view full) {
  auto dot = full.rfind('.');
  return dot == std::string_view::npos ? full : full.substr(dot + 1);
}

}  // namespace

bool Field::is_map() const {
  return repeated && message != nullptr && message->map_entry;
}

const Field* Message::by_number(uint32_t number) const {
  if (number < number_index.size()) {
    int16_t i = number_index[number];
    return i < 0 ? nullptr : &fields[static_cast<size_t>(i)];
  }
  for (const auto& f : fields)
    if (f.number == number) return &f;
  return nullptr;
}

const Field* Message::by_name(std::string_view name) const {
  for (const auto& f : fields)
    if (f.name == name) return &f;
  return nullptr;
}

api::Expected<Schema> Schema::parse(std::string_view descriptor_set) {
  Schema s;
  std::vector<PendingField> pending;
  Reader reader{s.messages_, pending, {}};
  WireReader r(descriptor_set);
  while (auto w = r.next()) {
    if (w->number == 1 && !reader.file(w->bytes)) break;
  }
  if (r.error() != nullptr) return api::Unexpected{std::string("descriptor set: ") + r.error()};
  if (!reader.error.empty()) return api::Unexpected{"descriptor set: " + reader.error};
  for (const auto& m : s.messages_) s.by_name_.emplace(m.full_name, &m);
  for (auto& p : pending) {
    Field& f = p.owner->fields[p.index];
    if (f.type != FieldType::Message) continue;  // enums need no resolution
    std::string_view name = p.type_name;
    if (!name.empty() && name.front() == '.') name.remove_prefix(1);
    const Message* target = s.find(name);
    if (target == nullptr)
      return api::Unexpected{"descriptor set: field " + p.owner->full_name + "." + f.name +
                             " has the unknown type " + p.type_name};
    f.message = target;
    for (const auto& [field_name, type] : kInline)
      if (f.name == field_name && short_name(target->full_name) == type) f.inline_json = true;
  }
  for (auto& m : s.messages_) {
    for (const auto& [name, shape] : kShapes)
      if (m.full_name == name) m.shape = shape;
    constexpr uint32_t kIndexed = 512;  // Kubernetes' field numbers stay far below
    uint32_t top = 0;
    for (const auto& f : m.fields) top = std::max(top, f.number < kIndexed ? f.number : 0);
    m.number_index.assign(top + 1, -1);
    for (size_t i = 0; i < m.fields.size(); ++i)
      if (m.fields[i].number <= top) m.number_index[m.fields[i].number] = static_cast<int16_t>(i);
  }
  return s;
}

const Message* Schema::find(std::string_view full_name) const {
  auto it = by_name_.find(full_name);
  return it == by_name_.end() ? nullptr : it->second;
}

const Schema& k8s_schema() {
  static const Schema schema = [] {
    auto parsed = Schema::parse(std::string_view(
        reinterpret_cast<const char*>(vc_k8s_descriptor_set), vc_k8s_descriptor_set_size));
    if (!parsed) throw std::logic_error("embedded Kubernetes protobuf schema: " + parsed.error());
    return std::move(*parsed);
  }();
  return schema;
}

}  // namespace vc::kube::proto

#include "controllers/colocation/configuration.h"

#include <stdexcept>

#include "common/go/json_types/json_types.h"

namespace vc::controllers::colocation {

namespace {

using nlohmann::json;

// Go's encoding/json matches a member name to a field exactly or, failing that, after folding
// case. Its fold maps ASCII letters to upper case and U+017F (long s) to 'S'; the Kelvin sign
// folds to 'K', which none of these names contains.
bool go_field_name_matches(std::string_view member, std::string_view field) {
  std::size_t i = 0;
  for (const char f : field) {
    if (i >= member.size()) return false;
    const auto c = static_cast<unsigned char>(member[i]);
    const char upper_f = (f >= 'a' && f <= 'z') ? static_cast<char>(f - 'a' + 'A') : f;
    if (c == 0xC5 && i + 1 < member.size() && static_cast<unsigned char>(member[i + 1]) == 0xBF) {
      if (upper_f != 'S') return false;
      i += 2;
      continue;
    }
    const char upper_c =
        (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : static_cast<char>(c);
    if (upper_c != upper_f) return false;
    ++i;
  }
  return i == member.size();
}

// One int field: null leaves it, an integer within int64 sets it, anything else is Go's
// UnmarshalTypeError (false).
bool decode_ratio(const json& value, std::int64_t& out) {
  if (value.is_null()) return true;
  if (!go::scalar_fits(value, go::GoKind::Int)) return false;
  out = value.is_number_unsigned() ? static_cast<std::int64_t>(value.get<std::uint64_t>())
                                   : value.get<std::int64_t>();
  return true;
}

// Go decodes into an existing *MemoryQos in place, allocating it only when nil.
bool decode_memory_qos(const json& value, std::optional<MemoryQos>& out) {
  if (value.is_null()) {
    out.reset();
    return true;
  }
  if (!value.is_object()) return false;
  if (!out) out = MemoryQos{};
  bool ok = true;  // Go goes on after a type error and reports it at the end
  for (const auto& [key, member] : value.items()) {
    if (go_field_name_matches(key, "highRatio")) {
      ok = decode_ratio(member, out->high_ratio) && ok;
    } else if (go_field_name_matches(key, "lowRatio")) {
      ok = decode_ratio(member, out->low_ratio) && ok;
    } else if (go_field_name_matches(key, "minRatio")) {
      ok = decode_ratio(member, out->min_ratio) && ok;
    }
  }
  return ok;
}

std::int64_t spec_ratio(const json& memory_qos, const char* name) {
  const auto it = memory_qos.find(name);
  if (it == memory_qos.end() || it->is_null()) return 0;
  if (!it->is_number_integer()) {
    throw std::invalid_argument(std::string("spec.memoryQos.") + name + ": expected an integer");
  }
  return it->get<std::int64_t>();
}

}  // namespace

std::string encode_configuration(const Configuration& configuration) {
  if (!configuration.memory_qos) return "{}";
  const MemoryQos& m = *configuration.memory_qos;
  std::string out = "{\"memoryQos\":{";
  bool first = true;
  for (const auto& [name, value] : {std::pair<const char*, std::int64_t>{"highRatio", m.high_ratio},
                                    {"lowRatio", m.low_ratio},
                                    {"minRatio", m.min_ratio}}) {
    if (value == 0) continue;
    if (!first) out += ',';
    first = false;
    out += '"';
    out += name;
    out += "\":";
    out += std::to_string(value);
  }
  out += "}}";
  return out;
}

std::optional<Configuration> decode_configuration(std::string_view text) {
  const json value = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (value.is_discarded()) return std::nullopt;
  Configuration out;
  if (value.is_null()) return out;
  if (!value.is_object()) return std::nullopt;
  bool ok = true;
  for (const auto& [key, member] : value.items()) {
    if (go_field_name_matches(key, "memoryQos"))
      ok = decode_memory_qos(member, out.memory_qos) && ok;
  }
  if (!ok) return std::nullopt;
  return out;
}

Configuration configuration_from_spec(const json& spec) {
  Configuration out;
  if (!spec.is_object()) return out;
  const auto it = spec.find("memoryQos");
  if (it == spec.end() || it->is_null()) return out;
  if (!it->is_object()) throw std::invalid_argument("spec.memoryQos: expected an object");
  out.memory_qos = MemoryQos{.high_ratio = spec_ratio(*it, "highRatio"),
                             .low_ratio = spec_ratio(*it, "lowRatio"),
                             .min_ratio = spec_ratio(*it, "minRatio")};
  return out;
}

}  // namespace vc::controllers::colocation

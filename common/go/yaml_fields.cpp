#include "common/go/yaml_fields.h"

#include <cmath>
#include <cstdint>

#include "common/go/duration.h"
#include "common/go/unicode.h"

namespace vc::go {
namespace {

using Kind = ResolvedScalar::Kind;

// A float an int64 field takes: finite and within its range (then truncated).
std::optional<std::int64_t> truncated(double f) {
  if (!std::isfinite(f) || std::fabs(f) >= 9.2e18) return std::nullopt;
  return static_cast<std::int64_t>(f);
}

}  // namespace

const char* yaml_kind_name(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Sequence:
      return "sequence";
    case YAML::NodeType::Map:
      return "mapping";
    case YAML::NodeType::Scalar:
      return "scalar";
    default:
      return "null";
  }
}

bool yaml_absent(const YAML::Node& node) {
  return !node.IsDefined() || node.IsNull();
}

YAML::Node yaml_child(const YAML::Node& m, std::string_view key, bool fold_case) {
  if (!m.IsMap()) return YAML::Node(YAML::NodeType::Undefined);
  for (const auto& entry : m) {
    if (entry.first.IsScalar() && entry.first.Scalar() == key) return entry.second;
  }
  if (fold_case) {
    for (const auto& entry : m) {
      if (entry.first.IsScalar() && ascii_equal_fold(entry.first.Scalar(), key)) {
        return entry.second;
      }
    }
  }
  return YAML::Node(YAML::NodeType::Undefined);
}

ResolvedScalar yaml_resolve(const YAML::Node& scalar) {
  if (scalar.Tag() == "!") return {.kind = Kind::String, .text = scalar.Scalar()};
  return resolve_plain(scalar.Scalar());
}

bool YamlFieldReader::fail(const YAML::Node& n, const std::string& path, const std::string& what) {
  if (error_.empty()) {
    error_ = path + ": " + what;
    if (n.Mark().line >= 0) error_ += " (line " + std::to_string(n.Mark().line + 1) + ")";
  }
  return false;
}

bool YamlFieldReader::map_or_null(const YAML::Node& n, const std::string& path) {
  return yaml_absent(n) || n.IsMap() ||
         fail(n, path, std::string("expected a mapping, got a ") + yaml_kind_name(n));
}

bool YamlFieldReader::sequence_or_null(const YAML::Node& n, const std::string& path) {
  return yaml_absent(n) || n.IsSequence() ||
         fail(n, path, std::string("expected a sequence, got a ") + yaml_kind_name(n));
}

std::string YamlFieldReader::text(const YAML::Node& n, const std::string& path) {
  if (yaml_absent(n)) return {};
  if (n.IsScalar()) return n.Scalar();
  fail(n, path, std::string("expected a string, got a ") + yaml_kind_name(n));
  return {};
}

bool YamlFieldReader::boolean(const YAML::Node& n, const std::string& path) {
  if (yaml_absent(n)) return false;
  if (n.IsScalar()) {
    const ResolvedScalar r = yaml_resolve(n);
    if (r.kind == Kind::Bool) return r.boolean;
  }
  fail(n, path, "cannot read " + shown(n) + " as a bool");
  return false;
}

std::optional<long long> YamlFieldReader::int64_value(const YAML::Node& n,
                                                      const std::string& path) {
  if (yaml_absent(n)) return std::nullopt;
  if (n.IsScalar()) {
    const ResolvedScalar r = yaml_resolve(n);
    if (r.kind == Kind::Int) return r.integer;
    if (r.kind == Kind::Float) {
      if (auto t = truncated(r.floating)) return *t;
    }
  }
  fail(n, path, "cannot read " + shown(n) + " as an int64");
  return std::nullopt;
}

std::chrono::nanoseconds YamlFieldReader::duration(const YAML::Node& n, const std::string& path) {
  if (yaml_absent(n)) return {};
  if (n.IsScalar()) {
    const ResolvedScalar r = yaml_resolve(n);
    if (r.kind == Kind::Int) return std::chrono::nanoseconds(r.integer);
    if (r.kind == Kind::Float) {
      if (auto t = truncated(r.floating)) return std::chrono::nanoseconds(*t);
    }
    if (r.kind == Kind::String) {
      if (auto d = parse_duration(n.Scalar())) return *d;
    }
  }
  fail(n, path, "cannot read " + shown(n) + " as a time.Duration");
  return {};
}

std::string YamlFieldReader::shown(const YAML::Node& n) {
  return n.IsScalar() ? "\"" + n.Scalar() + "\"" : std::string("a ") + yaml_kind_name(n);
}

}  // namespace vc::go

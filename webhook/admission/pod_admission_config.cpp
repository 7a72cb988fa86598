// PodAdmissionConfig::parse: the --admission-conf file, read as Volcano reads it with
// gopkg.in/yaml.v2 (spec webhook.md §2.7):
//   - keys are case-sensitive and unknown keys are ignored; null leaves a field empty;
//   - scalars of any kind read as their text where a string is expected;
//   - tolerations use the lower-cased Go field names (key, operator, value, effect,
//     tolerationseconds), so "tolerationSeconds" is silently ignored, as in Volcano;
//   - an integer field takes yaml.v2's integer forms (0x.., 0o.., 0b.., "_" separators) and
//     truncates a float, but refuses quoted text.
// Errors name the field and its line: "resourceGroups[0].tolerations[1].tolerationseconds:
// cannot read "soon" as an int64 (line 7)".

#include "webhook/admission/pod_admission_config.h"

#include <cmath>
#include <optional>

#include <yaml-cpp/yaml.h>

#include "common/go/yaml_scalar.h"

namespace vc::webhook {
namespace {

const char* kind_name(const YAML::Node& node) {
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

// Reads one document into the config; the first problem found is kept in error_.
class ConfigReader {
 public:
  const std::string& error() const { return error_; }

  void read(const YAML::Node& root, PodAdmissionConfig& config) {
    if (!map_or_null(root, "the admission configuration")) return;
    const YAML::Node groups = child(root, "resourceGroups");
    if (!sequence_or_null(groups, "resourceGroups")) return;
    for (std::size_t i = 0; i < groups.size() && error_.empty(); ++i) {
      config.resource_groups.push_back(
          group(groups[i], "resourceGroups[" + std::to_string(i) + "]"));
    }
  }

 private:
  // m[key] if m is a mapping that has key, else an undefined node.
  static YAML::Node child(const YAML::Node& m, const char* key) {
    if (!m.IsMap()) return YAML::Node(YAML::NodeType::Undefined);
    for (const auto& entry : m) {
      if (entry.first.IsScalar() && entry.first.Scalar() == key) return entry.second;
    }
    return YAML::Node(YAML::NodeType::Undefined);
  }

  static bool absent(const YAML::Node& n) { return !n.IsDefined() || n.IsNull(); }

  bool fail(const YAML::Node& n, const std::string& path, const std::string& what) {
    if (error_.empty()) {
      error_ = path + ": " + what;
      if (n.Mark().line >= 0) error_ += " (line " + std::to_string(n.Mark().line + 1) + ")";
    }
    return false;
  }
  bool map_or_null(const YAML::Node& n, const std::string& path) {
    return absent(n) || n.IsMap() ||
           fail(n, path, std::string("expected a mapping, got a ") + kind_name(n));
  }
  bool sequence_or_null(const YAML::Node& n, const std::string& path) {
    return absent(n) || n.IsSequence() ||
           fail(n, path, std::string("expected a sequence, got a ") + kind_name(n));
  }

  std::string text(const YAML::Node& n, const std::string& path) {
    if (absent(n)) return {};
    if (n.IsScalar()) return n.Scalar();
    fail(n, path, std::string("expected a string, got a ") + kind_name(n));
    return {};
  }

  // yaml.v2's reading of a plain scalar into an int64.
  std::optional<long long> int64_value(const YAML::Node& n, const std::string& path) {
    if (absent(n)) return std::nullopt;
    const std::string shown = n.IsScalar() ? "\"" + n.Scalar() + "\"" : kind_name(n);
    if (!n.IsScalar() || n.Tag() == "!") {
      fail(n, path, "cannot read " + shown + " as an int64");
      return std::nullopt;
    }
    // go-yaml resolves the scalar first; an int64 target then takes an integer, or a float
    // that fits, truncated.
    const go::ResolvedScalar r = go::resolve_plain(n.Scalar());
    if (r.kind == go::ResolvedScalar::Kind::Int) return r.integer;
    if (r.kind == go::ResolvedScalar::Kind::Float && std::isfinite(r.floating) &&
        std::fabs(r.floating) < 9.2e18) {
      return static_cast<long long>(r.floating);
    }
    fail(n, path, "cannot read " + shown + " as an int64");
    return std::nullopt;
  }

  nlohmann::json toleration(const YAML::Node& n, const std::string& path) {
    nlohmann::json t = nlohmann::json::object();
    if (!map_or_null(n, path)) return t;
    for (const char* key : {"key", "operator", "value", "effect"}) {
      const std::string v = text(child(n, key), path + "." + key);
      if (!v.empty()) t[key] = v;  // omitempty, as the Go type marshals
    }
    if (auto seconds = int64_value(child(n, "tolerationseconds"), path + ".tolerationseconds")) {
      t["tolerationSeconds"] = *seconds;
    }
    return t;
  }

  ResourceGroup group(const YAML::Node& n, const std::string& path) {
    ResourceGroup g;
    if (!map_or_null(n, path)) return g;
    g.resource_group = text(child(n, "resourceGroup"), path + ".resourceGroup");
    const YAML::Node object = child(n, "object");
    if (map_or_null(object, path + ".object")) {
      g.object_key = text(child(object, "key"), path + ".object.key");
      const YAML::Node values = child(object, "value");
      if (sequence_or_null(values, path + ".object.value")) {
        for (std::size_t i = 0; i < values.size(); ++i) {
          g.object_values.push_back(
              text(values[i], path + ".object.value[" + std::to_string(i) + "]"));
        }
      }
    }
    g.scheduler_name = text(child(n, "schedulerName"), path + ".schedulerName");
    const YAML::Node tolerations = child(n, "tolerations");
    if (sequence_or_null(tolerations, path + ".tolerations")) {
      for (std::size_t i = 0; i < tolerations.size(); ++i) {
        g.tolerations.push_back(
            toleration(tolerations[i], path + ".tolerations[" + std::to_string(i) + "]"));
      }
    }
    const YAML::Node labels = child(n, "labels");
    if (map_or_null(labels, path + ".labels") && labels.IsMap()) {
      for (const auto& entry : labels) {
        const std::string key = text(entry.first, path + ".labels");
        g.labels[key] = text(entry.second, path + ".labels[" + key + "]");
      }
    }
    g.affinity = text(child(n, "affinity"), path + ".affinity");
    return g;
  }

  std::string error_;
};

}  // namespace

api::Expected<PodAdmissionConfig> PodAdmissionConfig::parse(const std::string& yaml) {
  YAML::Node root;
  try {
    root = YAML::Load(yaml);
  } catch (const YAML::Exception& e) {
    return api::Unexpected{std::string("the admission configuration is not valid YAML: ") +
                           e.what()};
  }
  PodAdmissionConfig config;
  ConfigReader reader;
  reader.read(root, config);
  if (!reader.error().empty()) return api::Unexpected{reader.error()};
  return config;
}

}  // namespace vc::webhook

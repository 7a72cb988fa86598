#pragma once
// Reading a yaml-cpp tree the way gopkg.in/yaml.v2 fills typed Go struct fields: keys match
// exactly (or, for mapstructure's weak decoding, ignoring ASCII case after an exact miss), null
// and absent leave a field empty, and a plain scalar resolves as go-yaml resolves it while a
// quoted one is always a string. YamlFieldReader keeps the first problem found, naming the field
// path and the line: "resourceGroups[0].tolerations: expected a sequence, got a mapping (line 4)".
// The configuration readers of both binaries (the webhook's --admission-conf, the
// hyperNode-controller's discovery configuration) derive from it.
//
// Threads: plain functions; a reader is used by one thread.

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include <yaml-cpp/yaml.h>

#include "common/go/yaml_scalar.h"

namespace vc::go {

// "sequence", "mapping", "scalar" or "null".
const char* yaml_kind_name(const YAML::Node& node);
// Undefined (no such key) or null.
bool yaml_absent(const YAML::Node& node);
// m[key] if m is a mapping with that key, else an undefined node; with fold_case, a key equal to
// it ignoring ASCII case is taken when no key is equal.
YAML::Node yaml_child(const YAML::Node& m, std::string_view key, bool fold_case = false);
// A plain scalar as go-yaml v2 resolves it; a quoted or block scalar is a string.
ResolvedScalar yaml_resolve(const YAML::Node& scalar);

class YamlFieldReader {
 public:
  const std::string& error() const { return error_; }

  // Records "<path>: <what> (line N)" unless a problem is already recorded; returns false.
  bool fail(const YAML::Node& n, const std::string& path, const std::string& what);
  // True for a mapping (sequence) or nothing; else records the problem.
  bool map_or_null(const YAML::Node& n, const std::string& path);
  bool sequence_or_null(const YAML::Node& n, const std::string& path);

  // Into a string: any scalar as its text; "" when absent.
  std::string text(const YAML::Node& n, const std::string& path);
  // Into a bool: a plain scalar that resolves to a bool; false when absent.
  bool boolean(const YAML::Node& n, const std::string& path);
  // Into an int64: an integer, or a finite float that fits, truncated; quoted text is refused.
  std::optional<long long> int64_value(const YAML::Node& n, const std::string& path);
  // Into a time.Duration: an integer is nanoseconds (a float truncated), text goes through
  // time.ParseDuration; zero when absent.
  std::chrono::nanoseconds duration(const YAML::Node& n, const std::string& path);

  // The node as messages show it: "\"text\"" for a scalar, else "a mapping" and so on.
  static std::string shown(const YAML::Node& n);

 private:
  std::string error_;
};

}  // namespace vc::go

#pragma once
// One YAML document to JSON, the way kubectl converts it (sigs.k8s.io/yaml over go-yaml v2):
// scalars resolve as described in common/go/yaml_scalar.h; anchors and aliases expand; "<<" merge
// keys merge (later keys win, and in a merge sequence earlier maps win); a key given twice keeps
// its last value; non-string keys become strings (1 -> "1", true -> "true"); null and
// collection keys are errors. Nesting deeper than kMaxDepth and documents that expand to more
// than kMaxValues values (alias bombs) are errors too.
//
// Threads: pure function.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace vc::webhook::check {

inline constexpr int kMaxDepth = 2000;
inline constexpr std::size_t kMaxValues = 1'000'000;

// Where a document went wrong; line and column are 1-based and relative to the parsed text.
struct TextError {
  int line = 0;
  int column = 0;
  std::string message;
};

struct YamlDocument {
  bool present = false;     // false: the text holds no document (only blanks and comments)
  nlohmann::json value;     // the first document; null for an empty one
  bool more_after = false;  // the text holds more after the first document (kubectl drops it)
  std::optional<TextError> error;
};

// Reads the first YAML document of text.
YamlDocument yaml_to_json(std::string_view text);

// The position of the first byte of text that is not valid UTF-8, if any.
std::optional<TextError> find_invalid_utf8(std::string_view text);

}  // namespace vc::webhook::check

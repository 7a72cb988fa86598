#include "webhook/check/manifest_reader.h"

#include <algorithm>
#include <utility>

#include "common/go/json_types/json_types.h"
#include "webhook/check/yaml_document.h"

namespace vc::webhook::check {
namespace {

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

int count_lines(std::string_view text, std::size_t end) {
  return static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(end), '\n'));
}

int column_at(std::string_view text, std::size_t pos) {
  const std::size_t start = text.rfind('\n', pos == 0 ? 0 : pos - 1);
  const std::size_t line_start = start == std::string_view::npos || pos == 0 ? 0 : start + 1;
  return static_cast<int>(pos - line_start) + 1;
}

std::string json_type(const nlohmann::json& v) {
  if (v.is_array()) return "a list";
  if (v.is_string()) return "a string";
  if (v.is_boolean()) return "a boolean";
  if (v.is_number()) return "a number";
  return "null";
}

ManifestEntry failure(std::string doc, int line, int column, std::string message) {
  ManifestEntry e;
  e.doc = std::move(doc);
  e.line = line;
  e.column = column;
  e.error = std::move(message);
  return e;
}

// Adds a document's object (or, for a list, its items) to out.
void add_object(nlohmann::json value, const std::string& doc, int line,
                const std::vector<std::string>& warnings, std::vector<ManifestEntry>& out) {
  if (!value.is_object()) {
    out.push_back(
        failure(doc, line, 0, "expected a Kubernetes object (a mapping), got " + json_type(value)));
    return;
  }
  // Like kubectl (unstructured decoding), any object with a non-null "items" is a list.
  if (auto items = value.find("items"); items != value.end() && !items->is_null()) {
    if (!items->is_array()) {
      out.push_back(failure(doc, line, 0, "items of a list must be a list of objects"));
      return;
    }
    for (std::size_t i = 0; i < items->size(); ++i) {
      add_object(std::move((*items)[i]), doc + ".items[" + std::to_string(i) + "]", line, warnings,
                 out);
    }
    return;
  }
  for (const char* field : {"apiVersion", "kind"}) {
    auto it = value.find(field);
    if (it == value.end() || !it->is_string() || it->get_ref<const std::string&>().empty()) {
      out.push_back(failure(doc, line, 0, std::string("object has no ") + field));
      return;
    }
  }
  ManifestEntry e;
  e.doc = doc;
  e.line = line;
  e.object = std::move(value);
  e.warnings = warnings;
  out.push_back(std::move(e));
}

// nlohmann's message without its "[json.exception...] parse error at line L, column C: " prefix;
// the caller reports the position relative to the whole file.
std::string parse_error_text(const std::string& what) {
  const std::size_t column = what.find("column ");
  if (column == std::string::npos) return what;
  const std::size_t colon = what.find(": ", column);
  return colon == std::string::npos ? what : what.substr(colon + 2);
}

void read_json(std::string_view text, std::vector<ManifestEntry>& out) {
  int number = 0;
  for (const Chunk& chunk : split_json_stream(text)) {
    nlohmann::json value;
    try {
      value = nlohmann::json::parse(chunk.text);
    } catch (const nlohmann::json::parse_error& e) {
      const std::size_t at = std::min(e.byte == 0 ? 0 : e.byte - 1, chunk.text.size());
      out.push_back(failure(std::to_string(++number),
                            chunk.first_line + count_lines(chunk.text, at),
                            column_at(chunk.text, at), parse_error_text(e.what())));
      continue;
    } catch (const nlohmann::json::out_of_range& e) {
      // A number beyond double range (1e309): nlohmann throws out_of_range, not parse_error.
      out.push_back(failure(std::to_string(++number), chunk.first_line, 1,
                            std::string("JSON number out of range: ") + e.what()));
      continue;
    }
    if (value.is_null()) continue;  // an empty document, as in YAML
    const std::string doc = std::to_string(++number);
    if (go::json_depth(value) > static_cast<std::size_t>(kMaxDepth)) {
      out.push_back(
          failure(doc, chunk.first_line, 1, "nesting deeper than " + std::to_string(kMaxDepth)));
      continue;
    }
    add_object(std::move(value), doc, chunk.first_line, {}, out);
  }
}

void read_yaml(std::string_view text, std::vector<ManifestEntry>& out) {
  int number = 0;
  for (const Chunk& chunk : split_yaml_stream(text)) {
    YamlDocument parsed = yaml_to_json(chunk.text);
    if (parsed.error) {
      out.push_back(failure(std::to_string(++number), chunk.first_line + parsed.error->line - 1,
                            parsed.error->column, parsed.error->message));
      continue;
    }
    if (!parsed.present || parsed.value.is_null()) continue;
    std::vector<std::string> warnings;
    if (parsed.more_after) {
      warnings.push_back(
          "text after the first YAML document of this section is ignored, as kubectl does; "
          "separate documents with a line that holds only ---");
    }
    add_object(std::move(parsed.value), std::to_string(++number), chunk.first_line, warnings, out);
  }
}

}  // namespace

std::vector<Chunk> split_yaml_stream(std::string_view text) {
  std::vector<Chunk> chunks;
  std::size_t start = 0;
  int start_line = 1;
  std::size_t pos = 0;
  int line = 1;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    const std::size_t next = end == std::string_view::npos ? text.size() : end + 1;
    std::string_view content = text.substr(pos, next - pos);
    bool separator = content.starts_with("---");
    for (std::size_t i = 3; separator && i < content.size(); ++i) separator = is_blank(content[i]);
    if (separator) {
      chunks.push_back({text.substr(start, pos - start), start_line});
      start = next;
      start_line = line + 1;
    }
    pos = next;
    ++line;
  }
  chunks.push_back({text.substr(start), start_line});
  return chunks;
}

std::vector<Chunk> split_json_stream(std::string_view text) {
  std::vector<Chunk> chunks;
  std::size_t pos = 0;
  while (true) {
    while (pos < text.size() && is_blank(text[pos])) ++pos;
    if (pos >= text.size()) break;
    const std::size_t start = pos;
    if (text[pos] == '{' || text[pos] == '[') {
      int depth = 0;
      bool in_string = false;
      bool escaped = false;
      for (; pos < text.size(); ++pos) {
        const char c = text[pos];
        if (in_string) {
          if (escaped) {
            escaped = false;
          } else if (c == '\\') {
            escaped = true;
          } else if (c == '"') {
            in_string = false;
          }
        } else if (c == '"') {
          in_string = true;
        } else if (c == '{' || c == '[') {
          ++depth;
        } else if (c == '}' || c == ']') {
          if (--depth == 0) {
            ++pos;
            break;
          }
        }
      }
    } else {
      while (pos < text.size() && !is_blank(text[pos]) && text[pos] != '{' && text[pos] != '[') {
        ++pos;
      }
    }
    chunks.push_back({text.substr(start, pos - start), 1 + count_lines(text, start)});
  }
  return chunks;
}

std::vector<ManifestEntry> read_manifests(std::string_view text) {
  std::vector<ManifestEntry> out;
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);  // a UTF-8 byte order mark
  std::size_t first = 0;
  while (first < text.size() && is_blank(text[first])) ++first;
  if (first < text.size() && text[first] == '{') {
    read_json(text, out);
  } else {
    read_yaml(text, out);
  }
  return out;
}

}  // namespace vc::webhook::check

#pragma once
// Splits the text of one manifest file into Kubernetes objects, the way `kubectl apply -f` reads
// it:
//   - text whose first non-blank character is "{" is a stream of JSON objects;
//   - anything else is YAML, split into documents on lines that hold only "---" (plus trailing
//     blanks), each converted to JSON as in yaml_document.h;
//   - empty documents (blank, comments only, or null) are skipped and not numbered;
//   - an object with an "items" field is a list (kind: List, JobList, ...): its items are the
//     objects, numbered "<doc>.items[<i>]";
//   - every object needs a string apiVersion and kind.
// A document that cannot be read becomes an entry with an error and its line; the others are
// still returned, so one bad document does not hide the rest.
//
// Threads: pure functions.

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace vc::webhook::check {

struct ManifestEntry {
  std::string doc;        // 1-based number among the file's non-empty documents: "2", "2.items[0]"
  int line = 0;           // 1-based line of the document start, or of the error
  int column = 0;         // 1-based column of the error; 0 when not an error
  nlohmann::json object;  // the object, when error is empty
  std::string error;      // why the document could not be read
  std::vector<std::string> warnings;  // reading notes, e.g. text that kubectl would drop
};

std::vector<ManifestEntry> read_manifests(std::string_view text);

// One piece of a stream and the 1-based line it starts on.
struct Chunk {
  std::string_view text;
  int first_line = 1;
};

// kubectl's YAML document split: on lines that start with "---" followed only by blanks.
std::vector<Chunk> split_yaml_stream(std::string_view text);

// A stream of concatenated JSON values ("{..}{..}" or one per line): each top-level object or
// array is one chunk; an unterminated value runs to the end of the text, a stray character is
// its own chunk (both then fail to parse with a located error).
std::vector<Chunk> split_json_stream(std::string_view text);

}  // namespace vc::webhook::check

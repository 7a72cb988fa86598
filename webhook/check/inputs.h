#pragma once
// The -f/--filename arguments of `check`, resolved the way kubectl resolves them: "-" is standard
// input, a directory contributes its *.yaml, *.yml and *.json files (not recursively, sorted by
// name), anything else is read as a file whatever its extension.
//
// Threads: functions touch the file system (and read_source the given stream); no shared state.

#include <istream>
#include <string>
#include <vector>

#include "common/api/expected.h"

namespace vc::webhook::check {

struct Source {
  std::string label;  // how result lines name it: the path, or "stdin"
  std::string path;   // empty for stdin
  bool is_stdin = false;
  std::string error;  // set when the argument itself is unusable (e.g. an empty directory)
};

std::vector<Source> expand_sources(const std::vector<std::string>& arguments);

// The whole text of the source; the error names why it could not be read.
api::Expected<std::string> read_source(const Source& source, std::istream& stdin_stream);

}  // namespace vc::webhook::check

#pragma once
// Reads a whole file; the error reads like Go's os.ReadFile ("open <path>: no such file or
// directory", "read <path>: is a directory"), because Volcano's start-up messages embed it.
//
// Thread-safety: a function.

#include <string>

#include "common/api/expected.h"

namespace vc::webhook::app {

api::Expected<std::string> read_file(const std::string& path);

}  // namespace vc::webhook::app

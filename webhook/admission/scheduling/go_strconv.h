#pragma once
// Go's strconv.ParseFloat(s, 64), which queues/validate applies to hierarchy weights: the same
// accepted syntax (decimal and hexadecimal floats, "_" digit separators, "inf"/"infinity"/"nan"
// in any case) and the same error texts:
//   strconv.ParseFloat: parsing "a": invalid syntax
//   strconv.ParseFloat: parsing "1e400": value out of range
//
// Threads: pure function.

#include <string_view>

#include "common/api/expected.h"

namespace vc::webhook::scheduling {

api::Expected<double> go_parse_float(std::string_view s);

}  // namespace vc::webhook::scheduling

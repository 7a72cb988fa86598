#pragma once
// A float64 as Go's encoding/json writes it: the shortest digits that read back as the value,
// fixed notation for magnitudes in [1e-6, 1e21) ("0.000001", "18446744073709552000"), exponent
// notation outside it with a one-digit negative exponent where Go shortens it ("1e-7",
// "1e+21"). NaN and infinities have no JSON form: the caller rejects them first.
//
// Thread-safety: pure function.

#include <string>

namespace vc::go {

std::string format_json_float(double value);

}  // namespace vc::go

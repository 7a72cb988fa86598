#pragma once
// marshal_json(): a value as Go's encoding/json.Marshal writes it, the text of every patch the
// webhook returns and of the values quoted in denial messages. Compact, object keys sorted,
// strings with <, > and & escaped as \u003c, \u003e, \u0026, U+2028/U+2029 as \u2028/\u2029,
// other control characters as \u00XX (but \b \f \n \r \t), and each byte of invalid UTF-8 as
// \ufffd; floats in encoding/json's form (json_float.h). Checked against Go itself by the golden
// tables (golden_test.cpp).
//
// Written straight into one string: nlohmann's dump() goes through an output adapter one
// character at a time and was, with the escaping pass that followed it, a quarter of the CPU of a
// job mutation (whose patch carries the job's task templates).
//
// Thread-safety: pure functions.

#include <string>

#include <nlohmann/json.hpp>

namespace vc::go {

std::string marshal_json(const nlohmann::json& v);

}  // namespace vc::go

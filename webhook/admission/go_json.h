#pragma once
// go_json(): a value as Go's encoding/json writes it, the text of every patch and of the values
// quoted in denial messages.
//
// Written straight into one string. nlohmann's dump() goes through an output adapter one
// character at a time and was, with the escaping pass that followed it, a quarter of the CPU of a
// job mutation (whose patch carries the job's task templates). The result is byte for byte what
// go_json_via_dump() gives; a document with a string that is not valid UTF-8 takes that path
// instead, since nlohmann's replacement of bad bytes is its own.
//
// Thread-safety: pure functions.

#include <string>

#include <nlohmann/json.hpp>

namespace vc::webhook {

// Go encoding/json of a value: compact, keys sorted, with <, > and & escaped as \u003c, \u003e,
// \u0026 and U+2028/U+2029 as \u2028/\u2029.
std::string go_json(const nlohmann::json& v);

// The same through nlohmann's dump() and an escaping pass: the reference the fast writer is
// tested against, and its path for invalid UTF-8.
std::string go_json_via_dump(const nlohmann::json& v);

}  // namespace vc::webhook

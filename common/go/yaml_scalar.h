#pragma once
// YAML scalars as kubectl reads them. kubectl turns YAML into JSON with sigs.k8s.io/yaml, which
// decodes through go-yaml v2 into untyped Go values and then marshals those with encoding/json.
// So a plain (unquoted) scalar follows YAML 1.1-style resolution, not YAML 1.2:
//   - y Y yes Yes YES true True TRUE on On ON           -> true
//   - n N no No NO false False FALSE off Off OFF        -> false
//   - ~ null Null NULL and the empty scalar             -> null
//   - integers as Go's strconv.ParseInt(s, 0, 64) after removing every "_": decimal, 0x.., 0o..,
//     0b.., and a leading 0 means octal ("010" is 8); too big for int64 but fitting uint64 stays
//     an integer; anything bigger that looks like a decimal number becomes a float
//   - decimal floats ("1.5", "1e3", ".5"); a float that overflows double stays a string ("1e400")
//   - .inf/.nan resolve to floats that JSON cannot carry: an error, as with kubectl
//   - everything else, including timestamps ("2024-01-02"), is a string
// Quoted and block scalars are always strings.
//
// Threads: pure functions.

#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/api/expected.h"

namespace vc::go {

struct ResolvedScalar {
  enum class Kind { Null, Bool, Int, Uint, Float, String };
  Kind kind = Kind::String;
  bool boolean = false;
  std::int64_t integer = 0;
  std::uint64_t unsigned_integer = 0;  // only for values above INT64_MAX
  double floating = 0;
  std::string text;  // the input, for strings
};

// Resolves a plain scalar as go-yaml v2 does. (A plain "<<" map key is a merge key; that is
// decided by the caller from the node, not here.)
ResolvedScalar resolve_plain(std::string_view in);

// Resolves a scalar with its yaml-cpp tag: "?" plain, "!" quoted or block (always a string),
// "tag:yaml.org,2002:<t>" for !!t, anything else a local tag (the value stays a string, as in
// go-yaml). An explicit type tag whose value does not fit fails like go-yaml
// ("cannot decode !!str `abc` as a !!int").
api::Expected<ResolvedScalar> resolve_tagged(std::string_view tag, std::string_view value);

// The JSON value encoding/json would write for the scalar and nlohmann would read back: integral
// values become JSON integers ("1.0" -> 1), NaN and infinities are an error
// ("json: unsupported value: +Inf").
api::Expected<nlohmann::json> scalar_to_json(const ResolvedScalar& scalar);

// A map key as sigs.k8s.io/yaml turns it into a JSON object key: strings as they are, integers
// in decimal, booleans as "true"/"false", floats with Go's FormatFloat(f, 'g', -1, 32). Null
// and integers above INT64_MAX are not valid keys: an error naming the key.
api::Expected<std::string> scalar_key(const ResolvedScalar& scalar);

}  // namespace vc::go

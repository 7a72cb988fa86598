#pragma once
// Go's json.Unmarshal into a typed value followed by json.Marshal of it, for JSON text that
// Volcano decodes with the standard library (the affinity string of a resource group):
//   - keys match struct fields exactly or, failing that, case-insensitively (ASCII);
//   - unknown keys are dropped, null leaves the zero value;
//   - re-encoding writes every field that is not `omitempty` (zero values included, nil slices,
//     maps and pointers as null) and drops empty `omitempty` fields;
//   - a value of the wrong JSON type fails with Go's "json: cannot unmarshal ..." text
//     (common/go/json_types writes it).
//
// Threads: pure function.

#include <nlohmann/json.hpp>

#include "common/api/expected.h"
#include "common/go/json_types/json_types.h"

namespace vc::webhook::pods {

api::Expected<nlohmann::json> go_roundtrip(const nlohmann::json& value, const go::GoType& type);

}  // namespace vc::webhook::pods

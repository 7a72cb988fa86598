#pragma once
// A Kubernetes object between its protobuf bytes and its JSON, by the rules of schema.h. The API
// server speaks protobuf for built-in types (pods, events, leases, nodes); our code reads and
// writes JSON, so the client converts at the wire (envelope.h) and nothing above it changes.
//
// Decoding keeps every field the bytes hold, as Go's JSON encoder would write it, with one
// difference: protobuf carries non-pointer Go fields even when empty, so an empty string, false
// or 0 that Go's JSON would omit (omitempty) appears here as "", false or 0. Unknown field
// numbers (a newer server's fields) are skipped.
//
// Encoding is strict: a member the schema does not know, or a value of the wrong JSON type, is an
// error naming its path, so that a caller can send that object as JSON instead and let the API
// server judge it (it knows fields we do not). A null member is left out, as Go's decoder does.
//
// Thread-safety: pure functions.

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/api/expected.h"
#include "common/json/member_filter.h"
#include "common/kube/proto/schema.h"

namespace vc::kube::proto {

// filter: the members to build (common/json/member_filter.h; arrays transparent, an inline
// field's members filtered as its parent's); null builds everything.
api::Expected<nlohmann::json> to_json(std::string_view bytes, const Message& type,
                                      const fastjson::MemberFilter* filter = nullptr);
// skip_type_meta: leave out the object's own apiVersion and kind (Go's inline TypeMeta, which the
// envelope carries instead).
api::Expected<std::string> from_json(const nlohmann::json& object, const Message& type,
                                     bool skip_type_meta = false);

}  // namespace vc::kube::proto

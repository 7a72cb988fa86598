#pragma once
// The fields a Volcano CRD declares, read from its OpenAPI v3 schema: the ground truth the typed
// model of common/volcano is checked against (a field the schema has and the model does not
// know is a test failure, not a silent drop). The CRDs are Volcano's own YAML, copied from the
// pinned Go module at build time (e2e/cluster/volcano-crds.sh), never committed.
//
// Paths: "spec.tasks[].replicas" — a dot per object property, "[]" for array items, "{}" for
// the values of a map (additionalProperties). A schema that keeps unknown fields
// (x-kubernetes-preserve-unknown-fields) is listed and marked open: what lies below it is not
// declared.
//
// Threads: pure functions.

#include <string>
#include <vector>

#include "common/api/expected.h"

namespace vc::volcano {

struct SchemaField {
  std::string path;
  std::string type;   // the schema's "type" ("object", "array", "string", ...); "" when absent
  bool open = false;  // x-kubernetes-preserve-unknown-fields: fields below are not declared
  friend bool operator==(const SchemaField&, const SchemaField&) = default;
};

struct CrdSchema {
  std::string group;
  std::string kind;
  std::string version;              // the storage version, whose schema is read
  std::vector<SchemaField> fields;  // in schema order, depth first
};

// Reads a CustomResourceDefinition (YAML or JSON text). Errors name what is missing, e.g.
// "spec.versions: no storage version".
api::Expected<CrdSchema> read_crd_schema(const std::string& text);

}  // namespace vc::volcano

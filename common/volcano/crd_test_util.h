#pragma once
// Test-only: a CRD of the pinned Volcano release, read as a schema. The YAML files are copied
// from the Go module at build time into VC_VOLCANO_CRDS (common/CMakeLists.txt).

#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "common/volcano/crd_schema.h"

namespace vc::volcano::test {

// The schema of `file` (e.g. "batch.volcano.sh_jobs.yaml"); a test failure and an empty schema
// when it cannot be read.
inline CrdSchema pinned_crd(const char* file) {
  std::ifstream in(std::filesystem::path(VC_VOLCANO_CRDS) / file);
  std::stringstream text;
  text << in.rdbuf();
  auto schema = read_crd_schema(text.str());
  if (!schema) ADD_FAILURE() << file << ": " << schema.error();
  return schema ? *schema : CrdSchema{};
}

}  // namespace vc::volcano::test

// read_crd_schema on hand-written CRDs, and on every CRD of the pinned Volcano release (copied
// from its Go module by the build, VC_VOLCANO_CRDS).

#include "common/volcano/crd_schema.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

namespace vc::volcano {
namespace {

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

const SchemaField* find(const CrdSchema& crd, const std::string& path) {
  auto it = std::find_if(crd.fields.begin(), crd.fields.end(),
                         [&](const SchemaField& f) { return f.path == path; });
  return it == crd.fields.end() ? nullptr : &*it;
}

TEST(CrdSchema, PathsNameObjectsArraysAndMaps) {
  const auto crd = read_crd_schema(R"(
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
spec:
  group: example.com
  names: {kind: Widget}
  versions:
  - name: v1beta1
    storage: false
  - name: v1
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              parts:
                type: array
                items:
                  type: object
                  properties:
                    name: {type: string}
              labels:
                type: object
                additionalProperties: {type: string}
              extra:
                type: object
                x-kubernetes-preserve-unknown-fields: true
)");
  ASSERT_TRUE(crd.ok()) << crd.error();
  EXPECT_EQ(crd->group, "example.com");
  EXPECT_EQ(crd->kind, "Widget");
  EXPECT_EQ(crd->version, "v1");
  const std::vector<SchemaField> want{
      {"spec", "object", false},         {"spec.parts", "array", false},
      {"spec.parts[]", "object", false}, {"spec.parts[].name", "string", false},
      {"spec.labels", "object", false},  {"spec.labels{}", "string", false},
      {"spec.extra", "object", true}};
  EXPECT_EQ(crd->fields, want);
}

TEST(CrdSchema, ErrorsNameWhatIsMissing) {
  EXPECT_EQ(read_crd_schema("kind: Pod").error(), "kind: not a CustomResourceDefinition");
  EXPECT_EQ(read_crd_schema("kind: CustomResourceDefinition\nspec: {versions: []}").error(),
            "spec.versions: no storage version");
  EXPECT_EQ(read_crd_schema("kind: CustomResourceDefinition\nspec:\n  versions:\n"
                            "  - {name: v1, storage: true}\n")
                .error(),
            "spec.versions[v1].schema.openAPIV3Schema: missing");
  EXPECT_FALSE(read_crd_schema("{unclosed").ok());
}

TEST(CrdSchema, EveryPinnedVolcanoCrdReads) {
  std::size_t read = 0;
  for (const auto& entry : std::filesystem::directory_iterator(VC_VOLCANO_CRDS)) {
    const auto crd = read_crd_schema(read_file(entry.path()));
    ASSERT_TRUE(crd.ok()) << entry.path() << ": " << crd.error();
    EXPECT_FALSE(crd->kind.empty()) << entry.path();
    EXPECT_FALSE(crd->fields.empty()) << entry.path();
    ++read;
  }
  EXPECT_EQ(read, 11u) << "Volcano v1.15 ships 11 CRDs in the two folders the build copies";
}

TEST(CrdSchema, TheJobCrdDeclaresTheFieldsTheControllersRead) {
  const auto crd = read_crd_schema(
      read_file(std::filesystem::path(VC_VOLCANO_CRDS) / "batch.volcano.sh_jobs.yaml"));
  ASSERT_TRUE(crd.ok()) << crd.error();
  EXPECT_EQ(crd->kind, "Job");
  EXPECT_EQ(crd->version, "v1alpha1");
  for (const char* path :
       {"spec.minAvailable", "spec.tasks[].replicas", "spec.tasks[].policies[].event",
        "spec.tasks[].template.spec.containers[].image", "spec.plugins{}[]", "status.state.phase",
        "status.taskStatusCount{}.phase{}"}) {
    EXPECT_NE(find(*crd, path), nullptr) << path;
  }
  ASSERT_NE(find(*crd, "spec.tasks[].replicas"), nullptr);
  EXPECT_EQ(find(*crd, "spec.tasks[].replicas")->type, "integer");
}

}  // namespace
}  // namespace vc::volcano

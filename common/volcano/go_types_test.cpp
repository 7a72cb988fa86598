// The Go type tables (go_types.h) against the CRDs of the pinned Volcano release: the webhook
// checks every object against these tables, so a field they lack is a field whose wrong JSON type
// Volcano denies and we would let through, and a misspelt field is checked under a name no client
// sends. Walked from each kind's root with the CRD's path notation ("spec.tasks[].replicas",
// "{}" for map values):
//   - every field a table lists must be declared by the CRD, with a compatible schema type;
//   - a Volcano struct (v1alpha1.*, v1beta1.*) must list every field the CRD declares below it.
// Kubernetes structs (PodSpec, ...) list only what the endpoints check, so they are held to the
// first rule only. ObjectMeta is skipped wherever it appears: the CRDs declare the top-level
// metadata as a bare object and an embedded one (a pod template's) with a trimmed field list,
// while Go decodes every ObjectMeta field in both.

#include "common/volcano/go_types.h"

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "common/volcano/crd_test_util.h"

namespace vc::volcano {
namespace {

using go::GoKind;
using go::GoType;
using test::pinned_crd;

struct Findings {
  std::vector<std::string> not_declared;  // listed by the table, unknown to the CRD
  std::vector<std::string> not_listed;    // declared below a Volcano struct the table lists
  std::vector<std::string> wrong_type;    // "path: Go int32, schema string"
};

// The schema types a Go kind may be declared as ("" for int-or-string, as quantities are).
bool compatible(GoKind kind, const std::string& schema_type) {
  switch (kind) {
    case GoKind::String:
    case GoKind::Duration:
    case GoKind::Time:
      return schema_type == "string";
    case GoKind::Bool:
      return schema_type == "boolean";
    case GoKind::Int32:
    case GoKind::Int64:
    case GoKind::Int:
      return schema_type == "integer";
    case GoKind::Float64:
      return schema_type == "number";
    case GoKind::Quantity:
      return schema_type.empty() || schema_type == "string";
    case GoKind::Struct:
    case GoKind::Map:
      return schema_type == "object";
    case GoKind::Slice:
      return schema_type == "array";
    case GoKind::Any:
      return true;
  }
  return false;
}

bool is_volcano_struct(const GoType& type) {
  return type.type_name.starts_with("v1alpha1.") || type.type_name.starts_with("v1beta1.");
}

class Walk {
 public:
  explicit Walk(const CrdSchema& crd) {
    for (const SchemaField& f : crd.fields) {
      types_[f.path] = f.type;
      if (f.open) open_.insert(f.path);
    }
  }

  Findings run(const GoType& root) {
    visit(root, "");
    return std::move(out_);
  }

 private:
  static std::string join(std::string_view path, std::string_view name) {
    return path.empty() ? std::string(name) : std::string(path) + "." + std::string(name);
  }

  // The CRD's properties directly below `path`.
  std::set<std::string> declared_children(const std::string& path) const {
    std::set<std::string> names;
    const std::string prefix = path.empty() ? "" : path + ".";
    for (const auto& [p, type] : types_) {
      if (!p.starts_with(prefix)) continue;
      const std::string_view rest = std::string_view(p).substr(prefix.size());
      if (!rest.empty() && rest.find_first_of(".[{") == std::string_view::npos) {
        names.emplace(rest);
      }
    }
    return names;
  }

  void visit(const GoType& type, const std::string& path) {
    if (path == "metadata" || path.ends_with(".metadata") || open_.contains(path)) return;
    switch (type.kind) {
      case GoKind::Struct:
        visit_struct(type, path);
        break;
      case GoKind::Slice:
        visit_element(*type.elem, path + "[]");
        break;
      case GoKind::Map:
        visit_element(*type.elem, path + "{}");
        break;
      default:
        break;
    }
  }

  void visit_element(const GoType& elem, const std::string& path) {
    const auto it = types_.find(path);
    if (it == types_.end()) {
      out_.not_declared.push_back(path);
      return;
    }
    check_type(elem, path, it->second);
    visit(elem, path);
  }

  void visit_struct(const GoType& type, const std::string& path) {
    std::set<std::string> listed;
    for (const go::GoField& f : type.fields) {
      const std::string p = join(path, f.json_name);
      listed.insert(f.json_name);
      const auto it = types_.find(p);
      if (it == types_.end()) {
        out_.not_declared.push_back(p);
        continue;
      }
      check_type(*f.type, p, it->second);
      visit(*f.type, p);
    }
    if (!is_volcano_struct(type)) return;
    for (const std::string& name : declared_children(path)) {
      if (!listed.contains(name)) out_.not_listed.push_back(join(path, name));
    }
  }

  void check_type(const GoType& type, const std::string& path, const std::string& schema_type) {
    if (!compatible(type.kind, schema_type)) {
      out_.wrong_type.push_back(path + ": Go " + type.type_name + ", schema " +
                                (schema_type.empty() ? "(none)" : schema_type));
    }
  }

  std::map<std::string, std::string> types_;  // declared path -> schema type
  std::set<std::string> open_;                // preserve-unknown-fields: nothing declared below
  Findings out_;
};

std::string lines(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& i : items) out += "\n  " + i;
  return out;
}

void expect_matches(const char* file, const GoType& root) {
  const CrdSchema crd = pinned_crd(file);
  ASSERT_FALSE(crd.fields.empty()) << file;
  const Findings f = Walk(crd).run(root);
  EXPECT_TRUE(f.not_declared.empty())
      << root.type_name
      << ": fields the table lists that the CRD does not declare:" << lines(f.not_declared);
  EXPECT_TRUE(f.not_listed.empty())
      << root.type_name
      << ": CRD fields missing from a Volcano struct of the table:" << lines(f.not_listed);
  EXPECT_TRUE(f.wrong_type.empty())
      << root.type_name << ": types that disagree with the CRD:" << lines(f.wrong_type);
}

TEST(GoTypesAgainstCrds, Job) {
  expect_matches("batch.volcano.sh_jobs.yaml", go_types::job());
}

TEST(GoTypesAgainstCrds, CronJob) {
  expect_matches("batch.volcano.sh_cronjobs.yaml", go_types::cron_job());
}

TEST(GoTypesAgainstCrds, JobFlow) {
  expect_matches("flow.volcano.sh_jobflows.yaml", go_types::job_flow());
}

TEST(GoTypesAgainstCrds, Queue) {
  expect_matches("scheduling.volcano.sh_queues.yaml", go_types::queue());
}

TEST(GoTypesAgainstCrds, PodGroup) {
  expect_matches("scheduling.volcano.sh_podgroups.yaml", go_types::podgroup());
}

TEST(GoTypesAgainstCrds, HyperNode) {
  expect_matches("topology.volcano.sh_hypernodes.yaml", go_types::hyper_node());
}

// The check itself: a Volcano struct with a misspelt field, a missing one and a wrong type fails
// all three ways; a Kubernetes struct may leave fields out.
TEST(GoTypesAgainstCrds, AMisspeltMissingOrMistypedFieldFails) {
  go::GoTypes t;
  const GoType* str = t.scalar(GoKind::String, "string");
  const GoType* i32 = t.scalar(GoKind::Int32, "int32");
  const GoType* command = t.structure(
      "v1alpha1.Command", {{"kind", str},
                           {"apiVersion", str},
                           {"acton", str},   // misspelt
                           {"reason", i32},  // a string in the CRD
                           {"message", str},
                           {"target", t.structure("v1.OwnerReference", {{"name", str}}, true)}});
  const Findings f = Walk(pinned_crd("bus.volcano.sh_commands.yaml")).run(*command);
  EXPECT_EQ(f.not_declared, std::vector<std::string>{"acton"});
  EXPECT_EQ(f.not_listed, (std::vector<std::string>{"action", "metadata"}));
  EXPECT_EQ(f.wrong_type, std::vector<std::string>{"reason: Go int32, schema string"});
}

}  // namespace
}  // namespace vc::volcano

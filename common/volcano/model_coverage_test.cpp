// The typed model against the CRDs of the pinned Volcano release (VC_VOLCANO_CRDS): a traced
// decode of {} walks every field a decoder knows (json_read.h), and each kind's CRD must list
// exactly those fields. A CRD field no decoder reads is a field the model would silently drop;
// a traced field the CRD does not declare is a misspelt name, which would always read as zero.
// Fields below a member kept as JSON whole (read::opaque_at: a pod template, a PVC spec) are
// covered by it.

#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include "common/volcano/command.h"
#include "common/volcano/crd_schema.h"
#include "common/volcano/crd_test_util.h"
#include "common/volcano/cron_job.h"
#include "common/volcano/hyper_node.h"
#include "common/volcano/job_decode.h"
#include "common/volcano/job_flow.h"
#include "common/volcano/job_template.h"
#include "common/volcano/podgroup.h"
#include "common/volcano/queue.h"

namespace vc::volcano {
namespace {

using nlohmann::json;
using test::pinned_crd;
using Decode = std::function<void(const json&, const FieldPath&)>;

// Paths the kinds' decoders do not read, and why: apiVersion and kind are the type meta every
// object carries (the informer's resource already fixes them). The CRDs declare `metadata` as a
// bare object, so the ObjectMeta members decode_object_meta reads ("metadata.name", ...) are
// excluded from the other direction by is_object_meta below.
const std::set<std::string> kNotDecoded = {"apiVersion", "kind"};

bool is_object_meta(std::string_view path) {
  return path.starts_with("metadata.");
}

// path is prefix itself or lies below it.
bool below(std::string_view path, std::string_view prefix) {
  if (!path.starts_with(prefix)) return false;
  if (path.size() == prefix.size()) return true;
  const char next = path[prefix.size()];
  return next == '.' || next == '[' || next == '{';
}

bool below_any(std::string_view path, const std::set<std::string>& prefixes) {
  for (const std::string& p : prefixes) {
    if (below(path, p)) return true;
  }
  return false;
}

struct Coverage {
  std::vector<std::string> not_read;      // in the CRD, never looked up
  std::vector<std::string> not_declared;  // looked up, not in the CRD
};

Coverage coverage(const CrdSchema& crd, const Decode& decode) {
  FieldTrace trace;
  decode(json::object(), FieldPath(&trace));
  std::set<std::string> declared;
  Coverage out;
  for (const SchemaField& f : crd.fields) {
    declared.insert(f.path);
    if (kNotDecoded.contains(f.path) || trace.read.contains(f.path) ||
        below_any(f.path, trace.opaque)) {
      continue;
    }
    out.not_read.push_back(f.path);
  }
  for (const std::string& path : trace.read) {
    if (declared.contains(path) || is_object_meta(path) || below_any(path, trace.opaque)) {
      continue;
    }
    out.not_declared.push_back(path);
  }
  return out;
}

std::string lines(const std::vector<std::string>& paths) {
  std::string out;
  for (const std::string& p : paths) out += "\n  " + p;
  return out;
}

void expect_covered(const char* file, const char* kind, const Decode& decode) {
  const CrdSchema schema = pinned_crd(file);
  ASSERT_EQ(schema.kind, kind) << file;
  ASSERT_FALSE(schema.fields.empty()) << file;
  const Coverage c = coverage(schema, decode);
  EXPECT_TRUE(c.not_read.empty()) << kind
                                  << ": CRD fields the decoder never reads:" << lines(c.not_read);
  EXPECT_TRUE(c.not_declared.empty()) << kind << ": fields the decoder reads that the CRD "
                                      << "does not declare:" << lines(c.not_declared);
}

// The decoder of a whole object of the kind (its optional parameters left at their defaults).
template <class Kind, class DecodeKind>
Decode whole(DecodeKind decode) {
  return [decode](const json& doc, const FieldPath& root) {
    Kind out;
    // A function pointer drops default arguments: pass the defaults the header gives.
    if constexpr (std::is_invocable_v<DecodeKind, const json&, Kind&, const FieldPath&>) {
      decode(doc, out, root);
    } else {
      decode(doc, out, root, TemplateMode::kIntern);
    }
  };
}

TEST(ModelCoverage, JobDecoderReadsEveryCrdField) {
  expect_covered("batch.volcano.sh_jobs.yaml", "Job", [](const json& doc, const FieldPath& root) {
    Job out;
    decode_job(doc, out, TemplateMode::kIntern, root);
  });
}

TEST(ModelCoverage, CronJobDecoderReadsEveryCrdField) {
  expect_covered("batch.volcano.sh_cronjobs.yaml", "CronJob", whole<CronJob>(decode_cron_job));
}

TEST(ModelCoverage, JobFlowDecoderReadsEveryCrdField) {
  expect_covered("flow.volcano.sh_jobflows.yaml", "JobFlow", whole<JobFlow>(decode_job_flow));
}

TEST(ModelCoverage, JobTemplateDecoderReadsEveryCrdField) {
  expect_covered("flow.volcano.sh_jobtemplates.yaml", "JobTemplate",
                 whole<JobTemplate>(decode_job_template));
}

TEST(ModelCoverage, HyperNodeDecoderReadsEveryCrdField) {
  expect_covered("topology.volcano.sh_hypernodes.yaml", "HyperNode",
                 whole<HyperNode>(decode_hyper_node));
}

TEST(ModelCoverage, QueueDecoderReadsEveryCrdField) {
  expect_covered("scheduling.volcano.sh_queues.yaml", "Queue",
                 [](const json& doc, const FieldPath& root) {
                   Queue out;
                   decode_queue(doc, out, root);
                 });
}

TEST(ModelCoverage, PodGroupDecoderReadsEveryCrdField) {
  expect_covered("scheduling.volcano.sh_podgroups.yaml", "PodGroup",
                 [](const json& doc, const FieldPath& root) {
                   PodGroup out;
                   decode_podgroup(doc, out, root);
                 });
}

TEST(ModelCoverage, CommandDecoderReadsEveryCrdField) {
  expect_covered("bus.volcano.sh_commands.yaml", "Command", whole<Command>(decode_command));
}

// The check itself: a decoder that misspells a member and skips another fails both ways.
TEST(ModelCoverage, AMisspeltFieldFailsBothWays) {
  const Coverage c = coverage(pinned_crd("bus.volcano.sh_commands.yaml"),
                              [](const json& doc, const FieldPath& root) {
                                Command out;
                                decode_command(doc, out, root);
                                read::string_at(doc, "acton", root);
                              });
  EXPECT_TRUE(c.not_read.empty()) << lines(c.not_read);
  EXPECT_EQ(c.not_declared, std::vector<std::string>{"acton"});

  const Coverage partial = coverage(pinned_crd("bus.volcano.sh_commands.yaml"),
                                    [](const json& doc, const FieldPath& root) {
                                      read::string_at(doc, "action", root);
                                      owner_ref_at(doc, "target", root);
                                    });
  EXPECT_EQ(partial.not_read, (std::vector<std::string>{"message", "metadata", "reason"}));
}

// Members kept whole cover what lies below them, in both directions; list elements and map
// values are traced as "[]" and "{}".
TEST(ModelCoverage, OpaqueMembersCoverTheirSubtreeAndElementsAreTraced) {
  FieldTrace trace;
  Job job;
  decode_job(json::object(), job, TemplateMode::kIntern, FieldPath(&trace));
  EXPECT_TRUE(trace.opaque.contains("spec.tasks[].template"));
  EXPECT_TRUE(trace.opaque.contains("spec.volumes[].volumeClaim"));
  EXPECT_TRUE(below_any("spec.tasks[].template.spec.containers[].image", trace.opaque));
  EXPECT_FALSE(below_any("spec.tasks[].templateX", trace.opaque));
  for (const char* element : {"spec.tasks[]", "spec.tasks[].dependsOn.name[]",
                              "status.controlledResources{}", "status.taskStatusCount{}.phase{}"}) {
    EXPECT_TRUE(trace.read.contains(element)) << element;
  }
}

}  // namespace
}  // namespace vc::volcano

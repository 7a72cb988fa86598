#include "common/go/json_types/json_types.h"

#include <gtest/gtest.h>

#include "common/go/json_types/object_meta.h"

namespace vc::go {
namespace {

using nlohmann::json;

// Parts of Volcano's Job and Queue types, enough for every path the messages below name. The
// full tables live with their endpoints (webhook/admission/*/schema*).
struct Tables {
  GoTypes types;
  const GoType* job = nullptr;
  const GoType* queue = nullptr;
  const GoType* hypernode = nullptr;

  Tables() {
    const GoType* str = types.scalar(GoKind::String, "string");
    const GoType* i32 = types.scalar(GoKind::Int32, "int32");
    const GoType* resource_list =
        types.map(types.scalar(GoKind::Quantity, "resource.Quantity"), "v1.ResourceList");

    const GoType* resources = types.structure(
        "v1.ResourceRequirements", {{"limits", resource_list}, {"requests", resource_list}}, true);
    const GoType* container =
        types.structure("v1.Container", {{"name", str}, {"resources", resources}}, true);
    const GoType* pod_spec =
        types.structure("v1.PodSpec", {{"containers", types.slice(container)}}, true);
    const GoType* pod_template = types.structure(
        "v1.PodTemplateSpec", {{"metadata", object_meta(types, true)}, {"spec", pod_spec}}, true);
    const GoType* policy =
        types.structure("v1alpha1.LifecyclePolicy",
                        {{"event", types.scalar(GoKind::String, "v1alpha1.Event")},
                         {"timeout", types.scalar(GoKind::Duration, "v1.Duration"), true}});
    const GoType* task = types.structure("v1alpha1.TaskSpec", {{"name", str},
                                                               {"replicas", i32},
                                                               {"minAvailable", i32, true},
                                                               {"template", pod_template},
                                                               {"policies", types.slice(policy)}});
    const GoType* job_spec =
        types.structure("v1alpha1.JobSpec", {{"minAvailable", i32},
                                             {"queue", str},
                                             {"tasks", types.slice(task)},
                                             {"policies", types.slice(policy)},
                                             {"plugins", types.map(types.slice(str))}});
    job = types.structure("v1alpha1.Job",
                          {{"metadata", object_meta(types, true)}, {"spec", job_spec}}, true);

    const GoType* cluster = types.structure(
        "v1beta1.Cluster", {{"name", str}, {"weight", i32}, {"capacity", resource_list}});
    const GoType* queue_spec =
        types.structure("v1beta1.QueueSpec", {{"weight", i32},
                                              {"capability", resource_list},
                                              {"reclaimable", types.scalar(GoKind::Bool, "bool")},
                                              {"extendClusters", types.slice(cluster)}});
    queue = types.structure("v1beta1.Queue",
                            {{"metadata", object_meta(types, false)}, {"spec", queue_spec}});
    hypernode = types.structure("v1alpha1.HyperNode",
                                {{"spec", types.scalar(GoKind::Any, "interface {}")}});
  }
};

const Tables& tables() {
  static const Tables t;
  return t;
}

json valid_job() {
  return json::parse(R"({
    "metadata": {"name": "j", "namespace": "ns", "creationTimestamp": "2024-01-02T03:04:05Z"},
    "spec": {"minAvailable": 1, "queue": "default", "plugins": {"ssh": []},
             "tasks": [{"name": "t", "replicas": 1, "template": {"spec": {"containers": [
               {"name": "c", "resources": {"requests": {"cpu": "1"}}}]}}}]}})");
}

// ParseQuantity's error for text that is not a quantity, as Go gives it.
const std::string kBadQuantity =
    "quantities must match the regular expression "
    "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

std::string job_error(const json& object) {
  return check_go_types(object, *tables().job).value_or("");
}

std::string queue_error(const char* text, CheckOptions options = {}) {
  return check_go_types(json::parse(text), *tables().queue, options).value_or("");
}

TEST(GoJsonTypes, NullAndValidObjectsHaveNoErrors) {
  EXPECT_EQ(job_error(valid_job()), "");
  EXPECT_EQ(job_error(json()), "");
  EXPECT_EQ(queue_error(R"({"spec":{"weight":3,"reclaimable":null,"capability":{"cpu":"1"}},
                             "unknownField":[1,2]})"),
            "");
}

TEST(GoJsonTypes, NullsAndUnknownFieldsAreAccepted) {
  json job = valid_job();
  job["spec"]["tasks"][0]["minAvailable"] = nullptr;
  job["spec"]["unknown"] = {{"deep", json::array({1, "x"})}};
  job["spec"]["Queue"] = 5;  // field names are case-sensitive
  job["spec"]["plugins"] = {{"ssh", nullptr}};
  EXPECT_EQ(job_error(job), "");
}

TEST(GoJsonTypes, WrongTypeNamesInnermostStructAndFieldPath) {
  json job = valid_job();
  job["spec"]["minAvailable"] = "x";
  EXPECT_EQ(job_error(job),
            "json: cannot unmarshal string into Go struct field JobSpec.spec.minAvailable of type "
            "int32");
  EXPECT_EQ(queue_error(R"({"spec":{"weight":"x"}})"),
            "json: cannot unmarshal string into Go struct field QueueSpec.spec.weight of type "
            "int32");
  EXPECT_EQ(queue_error(R"({"spec":"x"})"),
            "json: cannot unmarshal string into Go struct field Queue.spec of type "
            "v1beta1.QueueSpec");
  EXPECT_EQ(queue_error(R"({"spec":{"reclaimable":"yes"}})"),
            "json: cannot unmarshal string into Go struct field QueueSpec.spec.reclaimable of "
            "type bool");
  EXPECT_EQ(queue_error(R"({"spec":{"extendClusters":[{"weight":true}]}})"),
            "json: cannot unmarshal bool into Go struct field Cluster.spec.extendClusters.weight "
            "of type int32");
}

TEST(GoJsonTypes, NestedFieldUsesInnermostStruct) {
  json job = valid_job();
  job["spec"]["tasks"][0]["template"]["spec"]["containers"][0]["name"] = 5;
  EXPECT_EQ(job_error(job),
            "json: cannot unmarshal number into Go struct field "
            "Container.spec.tasks.template.spec.containers.name of type string");
}

TEST(GoJsonTypes, ContainersOfTheWrongKindPrintGoTypeNames) {
  json job = valid_job();
  job["spec"]["tasks"] = json::object();
  EXPECT_EQ(job_error(job),
            "json: cannot unmarshal object into Go struct field JobSpec.spec.tasks of type "
            "[]v1alpha1.TaskSpec");
  EXPECT_EQ(queue_error(R"({"spec":{"extendClusters":{}}})"),
            "json: cannot unmarshal object into Go struct field QueueSpec.spec.extendClusters of "
            "type []v1beta1.Cluster");
}

TEST(GoJsonTypes, NamedTypesAndMapsPrintGoTypeNames) {
  json job = valid_job();
  job["spec"]["tasks"][0]["policies"] = json::array({{{"event", true}}});
  EXPECT_EQ(job_error(job),
            "json: cannot unmarshal bool into Go struct field "
            "LifecyclePolicy.spec.tasks.policies.event of type v1alpha1.Event");
  job = valid_job();
  job["spec"]["plugins"] = {{"ssh", "x"}};
  EXPECT_EQ(job_error(job),
            "json: cannot unmarshal string into Go struct field JobSpec.spec.plugins of type "
            "[]string");
  job["spec"]["plugins"] = {{"ssh", {1}}};  // an element names the struct field holding it
  EXPECT_EQ(job_error(job),
            "json: cannot unmarshal number into Go struct field JobSpec.spec.plugins of type "
            "string");
  EXPECT_EQ(queue_error(R"({"metadata":{"labels":{"a":1}}})"),
            "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of "
            "type string");
}

TEST(GoJsonTypes, NumbersThatDoNotFitShowGoText) {
  json job = valid_job();
  job["spec"]["tasks"][0]["replicas"] = 1.5;
  EXPECT_EQ(job_error(job),
            "json: cannot unmarshal number 1.5 into Go struct field TaskSpec.spec.tasks.replicas "
            "of type int32");
  job["spec"]["tasks"][0]["replicas"] = 3000000000LL;
  EXPECT_EQ(job_error(job),
            "json: cannot unmarshal number 3000000000 into Go struct field "
            "TaskSpec.spec.tasks.replicas of type int32");
  EXPECT_EQ(queue_error(R"({"spec":{"weight":1.5}})"),
            "json: cannot unmarshal number 1.5 into Go struct field QueueSpec.spec.weight of type "
            "int32");
  EXPECT_EQ(queue_error(R"({"spec":{"weight":99999999999}})"),
            "json: cannot unmarshal number 99999999999 into Go struct field QueueSpec.spec.weight "
            "of type int32");
  EXPECT_EQ(queue_error(R"({"spec":{"weight":18446744073709551615}})"),
            "json: cannot unmarshal number 18446744073709551615 into Go struct field "
            "QueueSpec.spec.weight of type int32");
  EXPECT_EQ(queue_error(R"({"metadata":{"generation":9223372036854775808}})"),
            "json: cannot unmarshal number 9223372036854775808 into Go struct field "
            "ObjectMeta.metadata.generation of type int64");
  EXPECT_EQ(queue_error(R"({"metadata":{"generation":-9223372036854775808}})"), "");
  EXPECT_EQ(queue_error(R"({"spec":{"weight":1e100}})"),
            "json: cannot unmarshal number 1e100 into Go struct field QueueSpec.spec.weight of "
            "type int32");
}

TEST(GoJsonTypes, TopLevelMismatchHasNoStructField) {
  EXPECT_EQ(job_error(json::array()),
            "json: cannot unmarshal array into Go value of type v1alpha1.Job");
  EXPECT_EQ(check_go_types(json::array({1}), *tables().queue),
            "json: cannot unmarshal array into Go value of type v1beta1.Queue");
  EXPECT_EQ(check_go_types(json("x"), *tables().hypernode),
            "json: cannot unmarshal string into Go value of type v1alpha1.HyperNode");
}

TEST(GoJsonTypes, FirstMismatchInKeyOrder) {
  // "reclaimable" sorts before "weight", whatever the struct's field order.
  EXPECT_EQ(queue_error(R"({"spec":{"weight":"x","reclaimable":"yes"}})"),
            "json: cannot unmarshal string into Go struct field QueueSpec.spec.reclaimable of "
            "type bool");
}

TEST(GoJsonTypes, QuantityErrorsWinOverEarlierTypeMismatches) {
  json job = valid_job();
  job["metadata"]["name"] = 5;
  job["spec"]["tasks"][0]["template"]["spec"]["containers"][0]["resources"] = {
      {"requests", {{"cpu", "abc"}}}};
  EXPECT_EQ(job_error(job), kBadQuantity);
  // Go hands the raw text of a value that is not a string or number to ParseQuantity.
  job["spec"]["tasks"][0]["template"]["spec"]["containers"][0]["resources"] = {
      {"limits", {{"cpu", true}}}};
  EXPECT_EQ(job_error(job), kBadQuantity);
}

TEST(GoJsonTypes, BadQuantityNamesTheEntryWhenAsked) {
  const CheckOptions named{.name_quantity_field = true};
  EXPECT_EQ(queue_error(R"({"spec":{"capability":{"cpu":"1 core"}}})", named),
            "spec.capability[cpu]: " + kBadQuantity);
  EXPECT_EQ(queue_error(R"({"spec":{"capability":{"cpu":"1 core"}}})"), kBadQuantity);
  // A quantity error stops decoding and wins over an earlier type mismatch, as in Go.
  EXPECT_EQ(queue_error(R"({"spec":{"capability":{"cpu":[]},"weight":"x"}})", named),
            "spec.capability[cpu]: " + kBadQuantity);
  EXPECT_EQ(queue_error(R"({"spec":{"extendClusters":[{},{"capacity":{"memory":"1ki"}}]}})", named),
            "spec.extendClusters[1].capacity[memory]: unable to parse quantity's suffix");
}

TEST(GoJsonTypes, DurationsAreParsedLikeGo) {
  json job = valid_job();
  job["spec"]["policies"] = json::array({{{"event", "PodFailed"}, {"timeout", "5x"}}});
  EXPECT_EQ(job_error(job), "time: unknown unit \"x\" in duration \"5x\"");
  job["spec"]["policies"][0]["timeout"] = 5;
  EXPECT_EQ(job_error(job), "json: cannot unmarshal number into Go value of type string");
}

TEST(GoJsonTypes, TimesAreParsedAsRfc3339) {
  json job = valid_job();
  job["metadata"]["creationTimestamp"] = "yesterday";
  EXPECT_EQ(job_error(job),
            "parsing time \"yesterday\" as \"2006-01-02T15:04:05Z07:00\": cannot parse");
  job["metadata"]["creationTimestamp"] = 1;
  EXPECT_EQ(job_error(job), "json: cannot unmarshal number into Go value of type string");
}

TEST(GoJsonTypes, ScalarMismatchNamesTheValueAsGoDoes) {
  EXPECT_EQ(scalar_mismatch(json(1), GoKind::Float64), std::nullopt);
  EXPECT_EQ(scalar_mismatch(json("1"), GoKind::Float64), "string");
  EXPECT_EQ(scalar_mismatch(json(1.5), GoKind::String), "number");
  EXPECT_EQ(scalar_mismatch(json(-2147483648), GoKind::Int32), std::nullopt);
  EXPECT_EQ(scalar_mismatch(json(-2147483649LL), GoKind::Int32), "number -2147483649");
  EXPECT_EQ(scalar_mismatch(json(1e21), GoKind::Int), "number 1e21");
  EXPECT_EQ(json_number_text(json(1e100)), "1e100");
}

TEST(GoJsonTypes, DepthCountsScalarsAndEmptyContainersAsOneLevel) {
  EXPECT_EQ(json_depth(json(5)), 1u);
  EXPECT_EQ(json_depth(json::object()), 1u);
  EXPECT_EQ(json_depth(json::array()), 1u);
  EXPECT_EQ(json_depth(json{{"a", 1}}), 2u);
  EXPECT_EQ(json_depth(json{{"a", json::array()}}), 2u);
  EXPECT_EQ(json_depth(json::parse(R"({"a":[1,{"b":[[]]}],"c":{"d":"x"}})")), 5u);
  EXPECT_EQ(json_depth(json::parse(R"([[], [[3]], {}])")), 4u);
}

TEST(GoJsonTypes, DepthIsMeasuredWithoutRecursion) {
  json deep = json::array();
  json* cur = &deep;
  for (int i = 0; i < 10001; ++i) {
    cur->push_back(json::array());
    cur = &(*cur)[0];
  }
  EXPECT_EQ(json_depth(deep), 10002u);
}

}  // namespace
}  // namespace vc::go

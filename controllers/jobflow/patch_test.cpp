// apply_flow_patch on plain JSON (patch.h): each merge rule, appends, replacements, nulls, odd
// shapes, and plan_sync using it only with the flag on.
#include "controllers/jobflow/patch.h"

#include <gtest/gtest.h>

#include "controllers/jobflow/plan.h"

namespace vc::controllers::jobflow {
namespace {

using nlohmann::json;

json template_spec() {
  return json::parse(R"({
    "minAvailable": 1, "queue": "default", "maxRetry": 3,
    "plugins": {"svc": [], "env": []},
    "volumes": [{"mountPath": "/data", "volumeClaimName": "a"}],
    "tasks": [{
      "name": "work", "replicas": 1,
      "policies": [{"event": "PodFailed", "action": "RestartJob"}],
      "template": {
        "metadata": {"labels": {"app": "ml"}, "annotations": {"a": "1"}},
        "spec": {
          "restartPolicy": "Never",
          "nodeSelector": {"disk": "ssd"},
          "tolerations": [{"key": "gpu", "operator": "Exists", "effect": "NoSchedule"}],
          "volumes": [{"name": "scratch", "emptyDir": {}}],
          "containers": [{
            "name": "main", "image": "train:1", "command": ["python", "train.py"],
            "env": [{"name": "EPOCHS", "value": "3"}, {"name": "LR", "value": "0.1"}],
            "ports": [{"containerPort": 8080, "name": "http"}],
            "volumeMounts": [{"name": "scratch", "mountPath": "/scratch"}],
            "resources": {"requests": {"cpu": "1", "memory": "1Gi"}, "limits": {"cpu": "2"}}
          }]
        }
      }
    }, {
      "name": "ps", "replicas": 1,
      "template": {"spec": {"containers": [{"name": "ps", "image": "ps:1"}]}}
    }]
  })");
}

TEST(JobFlowPatch, JobFieldsReplaceAndNamedListsMerge) {
  const json out = apply_flow_patch(template_spec(), json::parse(R"({
    "minAvailable": 2, "queue": "fast",
    "plugins": {"ssh": []},
    "volumes": [{"mountPath": "/data", "volumeClaimName": "b"}, {"mountPath": "/out", "volumeClaimName": "c"}]
  })"));
  EXPECT_EQ(out["minAvailable"], 2);
  EXPECT_EQ(out["queue"], "fast");
  EXPECT_EQ(out["maxRetry"], 3);  // untouched
  EXPECT_EQ(out["plugins"], json::parse(R"({"svc": [], "env": [], "ssh": []})"));
  EXPECT_EQ(out["volumes"], json::parse(R"([{"mountPath": "/data", "volumeClaimName": "b"},
                                             {"mountPath": "/out", "volumeClaimName": "c"}])"));
  EXPECT_EQ(out["tasks"], template_spec()["tasks"]);
}

TEST(JobFlowPatch, ATaskByNameMergesItsPodTemplateAndContainer) {
  const json out = apply_flow_patch(template_spec(), json::parse(R"({"tasks": [{
    "name": "work", "replicas": 4,
    "template": {
      "metadata": {"labels": {"variant": "fast"}},
      "spec": {
        "nodeSelector": {"zone": "a"},
        "tolerations": [{"key": "gpu", "operator": "Equal", "value": "a100", "effect": "NoSchedule"}],
        "volumes": [{"name": "scratch", "hostPath": {"path": "/mnt"}}],
        "containers": [{
          "name": "main", "image": "train:2",
          "env": [{"name": "LR", "value": "0.01"}, {"name": "MODE", "value": "fast"}],
          "ports": [{"containerPort": 8080, "name": "web"}],
          "volumeMounts": [{"name": "data", "mountPath": "/data"}],
          "resources": {"requests": {"cpu": "4"}}
        }, {"name": "sidecar", "image": "log:1"}]
      }
    }
  }]})"));
  const json& work = out["tasks"][0];
  EXPECT_EQ(work["replicas"], 4);
  EXPECT_EQ(work["policies"], template_spec()["tasks"][0]["policies"]);
  EXPECT_EQ(work["template"]["metadata"]["labels"],
            json::parse(R"({"app": "ml", "variant": "fast"})"));
  EXPECT_EQ(work["template"]["metadata"]["annotations"], json::parse(R"({"a": "1"})"));
  const json& spec = work["template"]["spec"];
  EXPECT_EQ(spec["restartPolicy"], "Never");
  EXPECT_EQ(spec["nodeSelector"], json::parse(R"({"disk": "ssd", "zone": "a"})"));
  EXPECT_EQ(spec["tolerations"].size(), 1u);
  EXPECT_EQ(spec["tolerations"][0]["value"], "a100");
  EXPECT_EQ(spec["volumes"], json::parse(R"([{"name": "scratch", "hostPath": {"path": "/mnt"}}])"));
  ASSERT_EQ(spec["containers"].size(), 2u);
  const json& main = spec["containers"][0];
  EXPECT_EQ(main["image"], "train:2");
  EXPECT_EQ(main["command"], json::parse(R"(["python", "train.py"])"));
  EXPECT_EQ(main["env"],
            json::parse(R"([{"name": "EPOCHS", "value": "3"}, {"name": "LR", "value": "0.01"},
                                         {"name": "MODE", "value": "fast"}])"));
  EXPECT_EQ(main["ports"], json::parse(R"([{"containerPort": 8080, "name": "web"}])"));
  EXPECT_EQ(main["volumeMounts"], json::parse(R"([{"name": "scratch", "mountPath": "/scratch"},
                                                  {"name": "data", "mountPath": "/data"}])"));
  EXPECT_EQ(main["resources"],
            json::parse(R"({"requests": {"cpu": "4", "memory": "1Gi"}, "limits": {"cpu": "2"}})"));
  EXPECT_EQ(spec["containers"][1], json::parse(R"({"name": "sidecar", "image": "log:1"})"));
  EXPECT_EQ(out["tasks"][1], template_spec()["tasks"][1]);  // ps untouched
}

TEST(JobFlowPatch, AnUnnamedTaskPatchesEveryTaskAndANewNameIsAdded) {
  const json out = apply_flow_patch(template_spec(), json::parse(R"({"tasks": [
    {"template": {"metadata": {"annotations": {"team": "x"}}}},
    {"name": "eval", "replicas": 1, "template": {"spec": {"containers": [{"name": "e", "image": "e:1"}]}}}
  ]})"));
  ASSERT_EQ(out["tasks"].size(), 3u);
  EXPECT_EQ(out["tasks"][0]["template"]["metadata"]["annotations"],
            json::parse(R"({"a": "1", "team": "x"})"));
  EXPECT_EQ(out["tasks"][1]["template"]["metadata"]["annotations"],
            json::parse(R"({"team": "x"})"));
  EXPECT_EQ(out["tasks"][2]["name"], "eval");
  // With no task in the template, an unnamed one is added as it is.
  const json none =
      apply_flow_patch(json::object(), json::parse(R"({"tasks": [{"replicas": 2}]})"));
  EXPECT_EQ(none["tasks"], json::parse(R"([{"replicas": 2}])"));
}

TEST(JobFlowPatch, NullsChangeNothingAndOddShapesReplace) {
  const json spec = template_spec();
  EXPECT_EQ(apply_flow_patch(spec, json::parse(R"({"queue": null, "tasks": null})")), spec);
  EXPECT_EQ(apply_flow_patch(spec, json::object()), spec);
  EXPECT_EQ(apply_flow_patch(spec, json("not an object")), spec);
  // A list given as something else replaces it (the API server judges the result).
  EXPECT_EQ(apply_flow_patch(spec, json::parse(R"({"tasks": {"x": 1}})"))["tasks"],
            json::parse(R"({"x": 1})"));
  // A container entry without a name is appended, not merged into the first.
  const json out = apply_flow_patch(spec, json::parse(R"({"tasks": [{"name": "ps",
    "template": {"spec": {"containers": [{"image": "other"}]}}}]})"));
  EXPECT_EQ(out["tasks"][1]["template"]["spec"]["containers"].size(), 2u);
  // A template spec that is not an object starts from {}.
  EXPECT_EQ(apply_flow_patch(json(), json::parse(R"({"queue": "q"})")),
            json::parse(R"({"queue": "q"})"));
}

TEST(JobFlowPatch, PlanAppliesThePatchOnlyWithTheFlag) {
  volcano::JobFlow jf;
  volcano::decode_job_flow(json::parse(R"({
    "metadata": {"name": "f", "namespace": "ml", "uid": "u"},
    "spec": {"flows": [{"name": "a", "patch": {"jobSpec": {"queue": "fast"}}}]}})"),
                           jf);
  ASSERT_EQ(jf.spec.flows[0].patch_spec, json::parse(R"({"queue": "fast"})"));
  JobTemplateView t;
  t.name = "a";
  t.spec = json::parse(R"({"queue": "default", "minAvailable": 1})");
  Snapshot s;
  s.flow = &jf;
  s.templates["a"] = &t;
  const Plan off = plan_sync(s);
  ASSERT_EQ(off.creates.size(), 1u);
  EXPECT_EQ(off.creates[0].job["spec"]["queue"], "default");
  s.patches = true;
  const Plan on = plan_sync(s);
  ASSERT_EQ(on.creates.size(), 1u);
  EXPECT_EQ(on.creates[0].job["spec"], json::parse(R"({"queue": "fast", "minAvailable": 1})"));
}

}  // namespace
}  // namespace vc::controllers::jobflow

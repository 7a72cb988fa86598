// The batch.volcano.sh and flow.volcano.sh tables of go_types.h, with the core/v1 types a pod
// template embeds.
#include "common/volcano/go_types.h"

#include <string>
#include <utility>

#include "common/go/json_types/object_meta.h"

namespace vc::volcano::go_types {
namespace {

using go::GoKind;
using go::GoType;

// The types, built once; types_ owns them.
class Registry {
 public:
  Registry() { build(); }

  const GoType* job = nullptr;
  const GoType* job_spec = nullptr;
  const GoType* cron_job = nullptr;
  const GoType* job_flow = nullptr;

 private:
  void build();

  go::GoTypes types_;
};

void Registry::build() {
  auto& t = types_;
  const GoType* str = t.scalar(GoKind::String, "string");
  const GoType* boolean = t.scalar(GoKind::Bool, "bool");
  const GoType* i32 = t.scalar(GoKind::Int32, "int32");
  const GoType* i64 = t.scalar(GoKind::Int64, "int64");
  const GoType* go_int = t.scalar(GoKind::Int, "int");
  const GoType* quantity = t.scalar(GoKind::Quantity, "resource.Quantity");
  const GoType* duration = t.scalar(GoKind::Duration, "v1.Duration");
  const GoType* any = t.scalar(GoKind::Any, "interface {}");
  const GoType* time = t.scalar(GoKind::Time, "v1.Time");
  const GoType* strings = t.slice(str);
  const GoType* string_map = t.map(str);
  auto named = [&](std::string name) { return t.scalar(GoKind::String, std::move(name)); };
  const GoType* resource_list = t.map(quantity, "v1.ResourceList");

  const GoType* object_meta = go::object_meta(t, true);

  // core/v1 types embedded in a pod template.
  const GoType* resources = t.structure(
      "v1.ResourceRequirements", {{"limits", resource_list}, {"requests", resource_list}}, true);
  const GoType* port = t.structure("v1.ContainerPort", {{"name", str},
                                                        {"hostPort", i32},
                                                        {"containerPort", i32},
                                                        {"protocol", named("v1.Protocol")},
                                                        {"hostIP", str}});
  const GoType* env =
      t.structure("v1.EnvVar", {{"name", str}, {"value", str}, {"valueFrom", any, true}}, true);
  const GoType* mount =
      t.structure("v1.VolumeMount", {{"name", str},
                                     {"readOnly", boolean},
                                     {"recursiveReadOnly", named("v1.RecursiveReadOnlyMode"), true},
                                     {"mountPath", str},
                                     {"subPath", str},
                                     {"mountPropagation", named("v1.MountPropagationMode"), true},
                                     {"subPathExpr", str}});
  const GoType* container =
      t.structure("v1.Container",
                  {{"name", str},
                   {"image", str},
                   {"command", strings},
                   {"args", strings},
                   {"workingDir", str},
                   {"ports", t.slice(port)},
                   {"env", t.slice(env)},
                   {"resources", resources},
                   {"restartPolicy", named("v1.ContainerRestartPolicy"), true},
                   {"volumeMounts", t.slice(mount)},
                   {"livenessProbe", any, true},
                   {"readinessProbe", any, true},
                   {"startupProbe", any, true},
                   {"lifecycle", any, true},
                   {"terminationMessagePath", str},
                   {"terminationMessagePolicy", named("v1.TerminationMessagePolicy")},
                   {"imagePullPolicy", named("v1.PullPolicy")},
                   {"stdin", boolean},
                   {"stdinOnce", boolean},
                   {"tty", boolean}},
                  true);
  const GoType* ephemeral =
      t.structure("v1.EphemeralContainer", {{"name", str}, {"image", str}}, true);
  const GoType* volume = t.structure("v1.Volume", {{"name", str}}, true);
  const GoType* toleration =
      t.structure("v1.Toleration", {{"key", str},
                                    {"operator", named("v1.TolerationOperator")},
                                    {"value", str},
                                    {"effect", named("v1.TaintEffect")},
                                    {"tolerationSeconds", i64, true}});
  const GoType* local_ref = t.structure("v1.LocalObjectReference", {{"name", str}});
  const GoType* gate = t.structure("v1.PodSchedulingGate", {{"name", str}});
  const GoType* pod_os = t.structure("v1.PodOS", {{"name", named("v1.OSName")}});
  const GoType* pod_spec = t.structure("v1.PodSpec",
                                       {{"volumes", t.slice(volume)},
                                        {"initContainers", t.slice(container)},
                                        {"containers", t.slice(container)},
                                        {"ephemeralContainers", t.slice(ephemeral)},
                                        {"restartPolicy", named("v1.RestartPolicy")},
                                        {"terminationGracePeriodSeconds", i64, true},
                                        {"activeDeadlineSeconds", i64, true},
                                        {"dnsPolicy", named("v1.DNSPolicy")},
                                        {"nodeSelector", string_map},
                                        {"serviceAccountName", str},
                                        {"serviceAccount", str},
                                        {"automountServiceAccountToken", boolean, true},
                                        {"nodeName", str},
                                        {"hostNetwork", boolean},
                                        {"hostPID", boolean},
                                        {"hostIPC", boolean},
                                        {"shareProcessNamespace", boolean, true},
                                        {"imagePullSecrets", t.slice(local_ref)},
                                        {"hostname", str},
                                        {"subdomain", str},
                                        {"schedulerName", str},
                                        {"tolerations", t.slice(toleration)},
                                        {"priorityClassName", str},
                                        {"priority", i32, true},
                                        {"runtimeClassName", str, true},
                                        {"enableServiceLinks", boolean, true},
                                        {"preemptionPolicy", named("v1.PreemptionPolicy"), true},
                                        {"overhead", resource_list},
                                        {"setHostnameAsFQDN", boolean, true},
                                        {"os", pod_os, true},
                                        {"hostUsers", boolean, true},
                                        {"schedulingGates", t.slice(gate)},
                                        {"resources", resources, true}},
                                       true);
  const GoType* pod_template =
      t.structure("v1.PodTemplateSpec", {{"metadata", object_meta}, {"spec", pod_spec}}, true);

  const GoType* volume_resources =
      t.structure("v1.VolumeResourceRequirements",
                  {{"limits", resource_list}, {"requests", resource_list}}, true);
  const GoType* pvc_spec =
      t.structure("v1.PersistentVolumeClaimSpec",
                  {{"accessModes", t.slice(named("v1.PersistentVolumeAccessMode"))},
                   {"resources", volume_resources},
                   {"volumeName", str},
                   {"storageClassName", str, true},
                   {"volumeMode", named("v1.PersistentVolumeMode"), true},
                   {"volumeAttributesClassName", str, true}},
                  true);

  // Volcano batch/v1alpha1 and bus/v1alpha1: complete.
  const GoType* topology =
      t.structure("v1alpha1.NetworkTopologySpec", {{"mode", named("v1alpha1.NetworkTopologyMode")},
                                                   {"highestTierAllowed", go_int, true},
                                                   {"highestTierName", str}});
  const GoType* volume_spec =
      t.structure("v1alpha1.VolumeSpec",
                  {{"mountPath", str}, {"volumeClaimName", str}, {"volumeClaim", pvc_spec, true}});
  const GoType* event = named("v1alpha1.Event");
  const GoType* policy =
      t.structure("v1alpha1.LifecyclePolicy", {{"action", named("v1alpha1.Action")},
                                               {"event", event},
                                               {"events", t.slice(event)},
                                               {"exitCode", i32, true},
                                               {"timeout", duration, true}});
  const GoType* depends_on = t.structure(
      "v1alpha1.DependsOn", {{"name", strings}, {"iteration", named("v1alpha1.Iteration")}});
  const GoType* partition =
      t.structure("v1alpha1.PartitionPolicySpec", {{"totalPartitions", i32},
                                                   {"partitionSize", i32},
                                                   {"networkTopology", topology, true},
                                                   {"minPartitions", i32}});
  const GoType* task =
      t.structure("v1alpha1.TaskSpec", {{"name", str},
                                        {"replicas", i32},
                                        {"minAvailable", i32, true},
                                        {"template", pod_template},
                                        {"policies", t.slice(policy)},
                                        {"topologyPolicy", named("v1alpha1.NumaPolicy")},
                                        {"maxRetry", i32},
                                        {"dependsOn", depends_on, true},
                                        {"partitionPolicy", partition, true}});
  const GoType* spec = t.structure("v1alpha1.JobSpec", {{"schedulerName", str},
                                                        {"minAvailable", i32},
                                                        {"volumes", t.slice(volume_spec)},
                                                        {"tasks", t.slice(task)},
                                                        {"policies", t.slice(policy)},
                                                        {"plugins", t.map(strings)},
                                                        {"runningEstimate", duration, true},
                                                        {"queue", str},
                                                        {"maxRetry", i32},
                                                        {"ttlSecondsAfterFinished", i32, true},
                                                        {"priorityClassName", str},
                                                        {"minSuccess", i32, true},
                                                        {"networkTopology", topology, true}});
  const GoType* job_phase = named("v1alpha1.JobPhase");
  const GoType* task_state =
      t.structure("v1alpha1.TaskState", {{"phase", t.map(i32, "map[v1.PodPhase]int32")}});
  const GoType* task_status_count = t.map(task_state);
  const GoType* job_status = t.structure(
      "v1alpha1.JobStatus",
      {{"state", t.structure("v1alpha1.JobState", {{"phase", job_phase},
                                                   {"reason", str},
                                                   {"message", str},
                                                   {"lastTransitionTime", time}})},
       {"minAvailable", i32},
       {"taskStatusCount", task_status_count},
       {"pending", i32},
       {"running", i32},
       {"succeeded", i32},
       {"failed", i32},
       {"terminating", i32},
       {"unknown", i32},
       {"version", i32},
       {"retryCount", i32},
       {"runningDuration", duration, true},
       {"controlledResources", string_map},
       {"conditions",
        t.slice(t.structure("v1alpha1.JobCondition",
                            {{"status", job_phase}, {"lastTransitionTime", time, true}}))}});
  job = t.structure("v1alpha1.Job", {{"kind", str},
                                     {"apiVersion", str},
                                     {"metadata", object_meta},
                                     {"spec", spec},
                                     {"status", job_status}});
  job_spec = spec;

  const GoType* job_template =
      t.structure("v1alpha1.JobTemplateSpec", {{"metadata", object_meta}, {"spec", spec}});
  const GoType* cron_spec = t.structure("v1alpha1.CronJobSpec",
                                        {{"schedule", str},
                                         {"timeZone", str, true},
                                         {"startingDeadlineSeconds", i64, true},
                                         {"concurrencyPolicy", named("v1alpha1.ConcurrencyPolicy")},
                                         {"suspend", boolean, true},
                                         {"jobTemplate", job_template},
                                         {"successfulJobsHistoryLimit", i32, true},
                                         {"failedJobsHistoryLimit", i32, true}});
  const GoType* object_reference = t.structure("v1.ObjectReference", {{"kind", str},
                                                                      {"namespace", str},
                                                                      {"name", str},
                                                                      {"uid", named("types.UID")},
                                                                      {"apiVersion", str},
                                                                      {"resourceVersion", str},
                                                                      {"fieldPath", str}});
  const GoType* cron_status =
      t.structure("v1alpha1.CronJobStatus", {{"active", t.slice(object_reference)},
                                             {"lastScheduleTime", time, true},
                                             {"lastSuccessfulTime", time, true}});
  cron_job = t.structure("v1alpha1.CronJob", {{"kind", str},
                                              {"apiVersion", str},
                                              {"metadata", object_meta},
                                              {"spec", cron_spec},
                                              {"status", cron_status}});

  // flow.volcano.sh/v1alpha1 (a package of its own: its DependsOn is not batch's DependsOn).
  const GoType* http_header = t.structure("v1.HTTPHeader", {{"name", str}, {"value", str}});
  const GoType* probe = t.structure(
      "v1alpha1.Probe",
      {{"httpGetList",
        t.slice(t.structure(
            "v1alpha1.HttpGet",
            {{"taskName", str}, {"path", str}, {"port", go_int}, {"httpHeader", http_header}}))},
       {"tcpSocketList",
        t.slice(t.structure("v1alpha1.TcpSocket", {{"taskName", str}, {"port", go_int}}))},
       {"taskStatusList",
        t.slice(t.structure("v1alpha1.TaskStatus", {{"taskName", str}, {"phase", str}}))}});
  const GoType* flow_depends =
      t.structure("v1alpha1.DependsOn", {{"targets", strings}, {"probe", probe, true}});
  // Patch embeds batch's JobSpec under the key "jobSpec".
  const GoType* patch = t.structure("v1alpha1.Patch", {{"jobSpec", spec}});
  const GoType* flow = t.structure(
      "v1alpha1.Flow", {{"name", str}, {"dependsOn", flow_depends, true}, {"patch", patch, true}});
  const GoType* flow_spec =
      t.structure("v1alpha1.JobFlowSpec",
                  {{"flows", t.slice(flow)}, {"jobRetainPolicy", named("v1alpha1.RetainPolicy")}});
  const GoType* flow_job_status = t.structure(
      "v1alpha1.JobStatus",
      {{"name", str},
       {"state", job_phase},
       {"startTimestamp", time},
       {"endTimestamp", time},
       {"restartCount", i32},
       {"runningHistories",
        t.slice(t.structure(
            "v1alpha1.JobRunningHistory",
            {{"startTimestamp", time}, {"endTimestamp", time}, {"state", job_phase}}))}});
  const GoType* flow_condition =
      t.structure("v1alpha1.Condition", {{"phase", job_phase},
                                         {"createTime", time},
                                         {"runningDuration", duration, true},
                                         {"taskStatusCount", task_status_count}});
  const GoType* flow_status =
      t.structure("v1alpha1.JobFlowStatus",
                  {{"pendingJobs", strings},
                   {"runningJobs", strings},
                   {"failedJobs", strings},
                   {"completedJobs", strings},
                   {"terminatedJobs", strings},
                   {"unKnowJobs", strings},
                   {"jobStatusList", t.slice(flow_job_status)},
                   {"conditions", t.map(flow_condition)},
                   {"state", t.structure("v1alpha1.State", {{"phase", named("v1alpha1.Phase")}})}});
  job_flow = t.structure("v1alpha1.JobFlow", {{"kind", str},
                                              {"apiVersion", str},
                                              {"metadata", object_meta},
                                              {"spec", flow_spec},
                                              {"status", flow_status}});
}

const Registry& registry() {
  static const Registry r;
  return r;
}

}  // namespace

const GoType& job() {
  return *registry().job;
}
const GoType& job_spec() {
  return *registry().job_spec;
}
const GoType& cron_job() {
  return *registry().cron_job;
}
const GoType& job_flow() {
  return *registry().job_flow;
}

}  // namespace vc::volcano::go_types

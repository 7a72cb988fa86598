#include "webhook/admission/jobs/schema.h"

#include <deque>
#include <initializer_list>

namespace vc::webhook::jobs::schema {
namespace {

// Owns every GoType; a deque keeps the addresses stable while types refer to each other.
class Registry {
 public:
  Registry() { build(); }

  const GoType* job = nullptr;
  const GoType* job_spec = nullptr;
  const GoType* cron_job = nullptr;
  const GoType* job_flow = nullptr;

 private:
  GoType* scalar(GoKind kind, std::string name) {
    auto& t = types_.emplace_back();
    t.kind = kind;
    t.type_name = std::move(name);
    return &t;
  }
  GoType* slice(const GoType* elem) {
    auto* t = scalar(GoKind::Slice, "[]" + elem->type_name);
    t->elem = elem;
    return t;
  }
  GoType* map(const GoType* elem, std::string name = "") {
    auto* t = scalar(GoKind::Map, name.empty() ? "map[string]" + elem->type_name : name);
    t->elem = elem;
    return t;
  }
  // pkg is the Go package name ("v1", "v1alpha1"), name the type name.
  GoType* structure(std::string pkg, std::string name, bool open) {
    auto* t = scalar(GoKind::Struct, pkg + "." + name);
    t->struct_name = std::move(name);
    t->open = open;
    return t;
  }
  static void fields(GoType* t, std::initializer_list<GoField> list) { t->fields = list; }

  void build();

  std::deque<GoType> types_;
};

void Registry::build() {
  const GoType* str = scalar(GoKind::String, "string");
  const GoType* boolean = scalar(GoKind::Bool, "bool");
  const GoType* i32 = scalar(GoKind::Int32, "int32");
  const GoType* i64 = scalar(GoKind::Int64, "int64");
  const GoType* go_int = scalar(GoKind::Int, "int");
  const GoType* quantity = scalar(GoKind::Quantity, "resource.Quantity");
  const GoType* duration = scalar(GoKind::Duration, "v1.Duration");
  const GoType* time = scalar(GoKind::Time, "v1.Time");
  const GoType* any = scalar(GoKind::Any, "interface {}");
  const GoType* strings = slice(str);
  const GoType* string_map = map(str);
  auto named = [&](std::string name) { return scalar(GoKind::String, std::move(name)); };
  const GoType* resource_list = map(quantity, "v1.ResourceList");

  // metav1.ObjectMeta: the fields that matter for validation and comparison.
  auto* object_meta = structure("v1", "ObjectMeta", true);
  fields(object_meta, {{"name", str},
                       {"generateName", str},
                       {"namespace", str},
                       {"uid", named("types.UID")},
                       {"resourceVersion", str},
                       {"generation", i64},
                       {"creationTimestamp", time},
                       {"deletionTimestamp", time, true},
                       {"labels", string_map},
                       {"annotations", string_map},
                       {"finalizers", strings}});

  // core/v1 types embedded in a pod template.
  auto* resources = structure("v1", "ResourceRequirements", true);
  fields(resources, {{"limits", resource_list}, {"requests", resource_list}});
  auto* port = structure("v1", "ContainerPort", false);
  fields(port, {{"name", str},
                {"hostPort", i32},
                {"containerPort", i32},
                {"protocol", named("v1.Protocol")},
                {"hostIP", str}});
  auto* env = structure("v1", "EnvVar", true);
  fields(env, {{"name", str}, {"value", str}, {"valueFrom", any, true}});
  auto* mount = structure("v1", "VolumeMount", false);
  fields(mount, {{"name", str},
                 {"readOnly", boolean},
                 {"recursiveReadOnly", named("v1.RecursiveReadOnlyMode"), true},
                 {"mountPath", str},
                 {"subPath", str},
                 {"mountPropagation", named("v1.MountPropagationMode"), true},
                 {"subPathExpr", str}});
  auto* container = structure("v1", "Container", true);
  fields(container, {{"name", str},
                     {"image", str},
                     {"command", strings},
                     {"args", strings},
                     {"workingDir", str},
                     {"ports", slice(port)},
                     {"env", slice(env)},
                     {"resources", resources},
                     {"restartPolicy", named("v1.ContainerRestartPolicy"), true},
                     {"volumeMounts", slice(mount)},
                     {"livenessProbe", any, true},
                     {"readinessProbe", any, true},
                     {"startupProbe", any, true},
                     {"lifecycle", any, true},
                     {"terminationMessagePath", str},
                     {"terminationMessagePolicy", named("v1.TerminationMessagePolicy")},
                     {"imagePullPolicy", named("v1.PullPolicy")},
                     {"stdin", boolean},
                     {"stdinOnce", boolean},
                     {"tty", boolean}});
  auto* ephemeral = structure("v1", "EphemeralContainer", true);
  fields(ephemeral, {{"name", str}, {"image", str}});
  auto* volume = structure("v1", "Volume", true);
  fields(volume, {{"name", str}});
  auto* toleration = structure("v1", "Toleration", false);
  fields(toleration, {{"key", str},
                      {"operator", named("v1.TolerationOperator")},
                      {"value", str},
                      {"effect", named("v1.TaintEffect")},
                      {"tolerationSeconds", i64, true}});
  auto* local_ref = structure("v1", "LocalObjectReference", false);
  fields(local_ref, {{"name", str}});
  auto* gate = structure("v1", "PodSchedulingGate", false);
  fields(gate, {{"name", str}});
  auto* pod_os = structure("v1", "PodOS", false);
  fields(pod_os, {{"name", named("v1.OSName")}});
  auto* pod_spec = structure("v1", "PodSpec", true);
  fields(pod_spec, {{"volumes", slice(volume)},
                    {"initContainers", slice(container)},
                    {"containers", slice(container)},
                    {"ephemeralContainers", slice(ephemeral)},
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
                    {"imagePullSecrets", slice(local_ref)},
                    {"hostname", str},
                    {"subdomain", str},
                    {"schedulerName", str},
                    {"tolerations", slice(toleration)},
                    {"priorityClassName", str},
                    {"priority", i32, true},
                    {"runtimeClassName", str, true},
                    {"enableServiceLinks", boolean, true},
                    {"preemptionPolicy", named("v1.PreemptionPolicy"), true},
                    {"overhead", resource_list},
                    {"setHostnameAsFQDN", boolean, true},
                    {"os", pod_os, true},
                    {"hostUsers", boolean, true},
                    {"schedulingGates", slice(gate)},
                    {"resources", resources, true}});
  auto* pod_template = structure("v1", "PodTemplateSpec", true);
  fields(pod_template, {{"metadata", object_meta}, {"spec", pod_spec}});

  auto* volume_resources = structure("v1", "VolumeResourceRequirements", true);
  fields(volume_resources, {{"limits", resource_list}, {"requests", resource_list}});
  auto* pvc_spec = structure("v1", "PersistentVolumeClaimSpec", true);
  fields(pvc_spec, {{"accessModes", slice(named("v1.PersistentVolumeAccessMode"))},
                    {"resources", volume_resources},
                    {"volumeName", str},
                    {"storageClassName", str, true},
                    {"volumeMode", named("v1.PersistentVolumeMode"), true},
                    {"volumeAttributesClassName", str, true}});

  // Volcano batch/v1alpha1 and bus/v1alpha1: complete.
  auto* topology = structure("v1alpha1", "NetworkTopologySpec", false);
  fields(topology, {{"mode", named("v1alpha1.NetworkTopologyMode")},
                    {"highestTierAllowed", go_int, true},
                    {"highestTierName", str}});
  auto* volume_spec = structure("v1alpha1", "VolumeSpec", false);
  fields(volume_spec,
         {{"mountPath", str}, {"volumeClaimName", str}, {"volumeClaim", pvc_spec, true}});
  const GoType* event = named("v1alpha1.Event");
  auto* policy = structure("v1alpha1", "LifecyclePolicy", false);
  fields(policy, {{"action", named("v1alpha1.Action")},
                  {"event", event},
                  {"events", slice(event)},
                  {"exitCode", i32, true},
                  {"timeout", duration, true}});
  auto* depends_on = structure("v1alpha1", "DependsOn", false);
  fields(depends_on, {{"name", strings}, {"iteration", named("v1alpha1.Iteration")}});
  auto* partition = structure("v1alpha1", "PartitionPolicySpec", false);
  fields(partition, {{"totalPartitions", i32},
                     {"partitionSize", i32},
                     {"networkTopology", topology, true},
                     {"minPartitions", i32}});
  auto* task = structure("v1alpha1", "TaskSpec", false);
  fields(task, {{"name", str},
                {"replicas", i32},
                {"minAvailable", i32, true},
                {"template", pod_template},
                {"policies", slice(policy)},
                {"topologyPolicy", named("v1alpha1.NumaPolicy")},
                {"maxRetry", i32},
                {"dependsOn", depends_on, true},
                {"partitionPolicy", partition, true}});
  auto* spec = structure("v1alpha1", "JobSpec", false);
  fields(spec, {{"schedulerName", str},
                {"minAvailable", i32},
                {"volumes", slice(volume_spec)},
                {"tasks", slice(task)},
                {"policies", slice(policy)},
                {"plugins", map(strings)},
                {"runningEstimate", duration, true},
                {"queue", str},
                {"maxRetry", i32},
                {"ttlSecondsAfterFinished", i32, true},
                {"priorityClassName", str},
                {"minSuccess", i32, true},
                {"networkTopology", topology, true}});
  auto* job_type = structure("v1alpha1", "Job", true);
  fields(job_type, {{"kind", str}, {"apiVersion", str}, {"metadata", object_meta}, {"spec", spec}});
  job = job_type;
  job_spec = spec;

  auto* job_template = structure("v1alpha1", "JobTemplateSpec", false);
  fields(job_template, {{"metadata", object_meta}, {"spec", spec}});
  auto* cron_spec = structure("v1alpha1", "CronJobSpec", false);
  fields(cron_spec, {{"schedule", str},
                     {"timeZone", str, true},
                     {"startingDeadlineSeconds", i64, true},
                     {"concurrencyPolicy", named("v1alpha1.ConcurrencyPolicy")},
                     {"suspend", boolean, true},
                     {"jobTemplate", job_template},
                     {"successfulJobsHistoryLimit", i32, true},
                     {"failedJobsHistoryLimit", i32, true}});
  auto* cron = structure("v1alpha1", "CronJob", true);
  fields(cron,
         {{"kind", str}, {"apiVersion", str}, {"metadata", object_meta}, {"spec", cron_spec}});
  cron_job = cron;

  auto* flow_depends = structure("v1alpha1", "DependsOn", true);
  fields(flow_depends, {{"targets", strings}, {"probe", any, true}});
  auto* flow = structure("v1alpha1", "Flow", true);
  fields(flow, {{"name", str}, {"dependsOn", flow_depends, true}, {"patch", any, true}});
  auto* flow_spec = structure("v1alpha1", "JobFlowSpec", true);
  fields(flow_spec, {{"flows", slice(flow)}, {"jobRetainPolicy", named("v1alpha1.RetainPolicy")}});
  auto* flow_type = structure("v1alpha1", "JobFlow", true);
  fields(flow_type,
         {{"kind", str}, {"apiVersion", str}, {"metadata", object_meta}, {"spec", flow_spec}});
  job_flow = flow_type;
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

}  // namespace vc::webhook::jobs::schema

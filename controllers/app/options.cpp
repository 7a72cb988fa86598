#include "controllers/app/options.h"

#include <algorithm>
#include <set>

#include "common/go/duration.h"
#include "common/go/strconv.h"
#include "controllers/framework/gates.h"
#include "controllers/framework/registry.h"

namespace vc::controllers::app {
namespace {

using std::chrono::nanoseconds;

std::string go_slice(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? " " : "") + items[i];
  return out + "]";
}

void add_volcano_flags(flags::FlagSet& fs, ControllerManagerOptions& o) {
  ControllerOptions& c = o.controller;
  flags::add_base_flags(
      fs, o,
      {.ca_cert_file = "PEM CA certificate for the HTTPS health server.",
       .version = "Show version and quit",
       .enable_healthz = "Enable the health check; it is false by default",
       .healthz_address = "The address to listen on for the health check server.",
       .feature_gates =
           "A set of key=value pairs that describe feature gates for alpha/experimental "
           "features. Volcano's: CSIStorage=false, CronVolcanoJobSupport=true, "
           "PodDisruptionBudgetsSupport=true, PriorityClass=true, QueueCommandSync=true, "
           "ResourceTopology=true, SchedulingGatesQueueAdmission=false, VolcanoJobSupport=true, "
           "WorkLoadSupport=true; also AllAlpha, AllBeta and the Kubernetes v1.35 gates."});
  fs.string_var("lock-object-namespace", &o.lock_object_namespace,
                "Define the namespace of the lock object; it is volcano-system by default.");
  fs.deprecate("lock-object-namespace",
               "This flag is deprecated and will be removed in a future release. Please use "
               "--leader-elect-resource-namespace instead.");
  fs.uint32_var("worker-threads", &c.worker_threads,
                "The number of threads syncing job operations concurrently. Larger number = faster "
                "job updating, but more CPU load.");
  fs.uint32_var("worker-threads-for-cronjob", &c.worker_threads_for_cronjob,
                "The number of threads syncing cronjob operations. The larger the number, the "
                "faster the cronjob processing, but requires more CPU load.");
  fs.string_array_var(
      "scheduler-name", &c.scheduler_names,
      "Volcano will handle pods whose .spec.SchedulerName is same as scheduler-name");
  fs.int_var("max-requeue-num", &c.max_requeue_num,
             "The number of times a job, queue or command will be requeued before it is dropped "
             "out of the queue; negative means unlimited");
  fs.bool_var("enable-metrics", &o.enable_metrics,
              "Enable the metrics function; it is false by default");
  fs.string_var("listen-address", &o.listen_address, "The address to listen on for HTTP requests.");
  fs.bool_var("inherit-owner-annotations", &c.inherit_owner_annotations,
              "Enable inherit owner annotations for pods when create podgroup; it is enabled by "
              "default");
  fs.uint32_var("worker-threads-for-podgroup", &c.worker_threads_for_podgroup,
                "The number of threads syncing podgroup operations. The larger the number, the "
                "faster the podgroup processing, but requires more CPU load.");
  fs.uint32_var("worker-threads-for-gc", &c.worker_threads_for_gc,
                "The number of threads for recycling jobs. The larger the number, the faster the "
                "job recycling, but requires more CPU load.");
  fs.uint32_var("worker-threads-for-queue", &c.worker_threads_for_queue,
                "The number of threads syncing queue operations. The larger the number, the faster "
                "the queue processing, but requires more CPU load.");
  fs.string_slice_var(
      "controllers", &o.controllers,
      "Specify controller gates. Use '*' for all controllers, all knownController: " +
          go_slice(known_controller_names()) +
          " ,and we can use '-' to disable controllers, e.g. \"-job-controller,-queue-controller\" "
          "to disable job and queue controllers.");
}

// Flags of ours, not Volcano's (docs/flags.md).
void add_our_flags(flags::FlagSet& fs, ControllerOptions& c) {
  fs.duration_var("job-verdict-period", &c.job_verdict_period,
                  "How often the job controller diagnoses jobs that have not started, as "
                  "vc-cpp explain does, to record a Warning event on a job that stopped and "
                  "export vc_cpp_job_verdicts; 0 turns it off.");
  fs.uint32_var("job-verdicts-per-period", &c.job_verdicts_per_period,
                "The most jobs one verdict pass reads and diagnoses (each costs a few API "
                "requests); jobs never diagnosed go first.");
  fs.bool_var("jobflow-probes", &c.jobflow_probes,
              "Let a JobFlow step's dependsOn.probe (httpGetList, tcpSocketList, taskStatusList) "
              "start it once the probes pass on its targets' tasks, before they complete; off "
              "(the default), probes are ignored as in Volcano.");
  fs.bool_var("jobflow-patches", &c.jobflow_patches,
              "Merge a JobFlow step's patch.jobSpec into its JobTemplate's spec when creating "
              "the step's Job (tasks and containers by name, maps by key, other fields "
              "replaced); off (the default), patches are ignored as in Volcano.");
  fs.duration_var("transient-retry-max-delay", &c.transient_retry_max_delay,
                  "The longest wait before a job, queue, jobflow or jobtemplate request whose "
                  "sync failed on a transient API error (5xx, 429, timeout, connection failure) "
                  "is retried; such failures never count toward --max-requeue-num.");
}

void add_sharding_flags(flags::FlagSet& fs, ShardingOptions& s) {
  fs.string_slice_var("scheduler-configs", &s.scheduler_configs,
                      "(Deprecated) Scheduler configurations in format "
                      "name:type:minCPU:maxCPU:preferWarmup:minNodes:maxNodes. Used only when no "
                      "valid sharding ConfigMap is available.");
  fs.duration_var("shard-sync-period", &s.shard_sync_period, "Period for syncing node shards.");
  fs.bool_var("enable-node-event-trigger", &s.enable_node_event_trigger,
              "Trigger shard syncs on node events.");
  fs.string_var("sharding-configmap", &s.sharding_configmap,
                "Name of the ConfigMap holding the sharding configuration.");
  fs.string_var("sharding-configmap-namespace", &s.sharding_configmap_namespace,
                "Namespace of the sharding ConfigMap.");
}

void add_leader_election_flags(flags::FlagSet& fs, LeaderElectionOptions& l) {
  fs.bool_var("leader-elect", &l.leader_elect,
              "Start a leader election client and gain leadership before executing the main "
              "loop. Enable this when running replicated components for high availability.");
  fs.duration_var("leader-elect-lease-duration", &l.lease_duration,
                  "The duration that non-leader candidates will wait after observing a leadership "
                  "renewal until attempting to acquire leadership of a led but unrenewed leader "
                  "slot. This is effectively the maximum duration that a leader can be stopped "
                  "before it is replaced by another candidate. This is only applicable if leader "
                  "election is enabled.");
  fs.duration_var("leader-elect-renew-deadline", &l.renew_deadline,
                  "The interval between attempts by the acting master to renew a leadership slot "
                  "before it stops leading. This must be less than the lease duration. This is "
                  "only applicable if leader election is enabled.");
  fs.duration_var("leader-elect-retry-period", &l.retry_period,
                  "The duration the clients should wait between attempting acquisition and "
                  "renewal of a leadership. This is only applicable if leader election is "
                  "enabled.");
  fs.string_var("leader-elect-resource-lock", &l.resource_lock,
                "The type of resource object that is used for locking during leader election. "
                "Supported options are 'leases'.");
  fs.string_var("leader-elect-resource-name", &l.resource_name,
                "The name of resource object that is used for locking during leader election.");
  fs.string_var("leader-elect-resource-namespace", &l.resource_namespace,
                "The namespace of resource object that is used for locking during leader "
                "election.");
}

// Reads the gates the controllers consult into ControllerOptions.
void apply_feature_gates(ControllerManagerOptions& o) {
  ControllerOptions& c = o.controller;
  c.workload_support = o.feature_gates.enabled("WorkLoadSupport");
  c.queue_command_sync = o.feature_gates.enabled("QueueCommandSync");
  c.priority_class = o.feature_gates.enabled("PriorityClass");
  c.cron_volcano_job_support = o.feature_gates.enabled("CronVolcanoJobSupport");
  c.volcano_job_support = o.feature_gates.enabled("VolcanoJobSupport");
}

std::string invalid(const std::string& field, const std::string& value, const std::string& why) {
  return "leaderElection." + field + ": Invalid value: " + go::quote(value) + ": " + why;
}

void validate_leader_election(const LeaderElectionOptions& l, std::vector<std::string>& errors) {
  if (!l.leader_elect) return;
  const auto d = [](nanoseconds v) { return go::format_duration(v); };
  if (l.lease_duration.count() <= 0) {
    errors.push_back(invalid("leaseDuration", d(l.lease_duration), "must be greater than zero"));
  }
  if (l.renew_deadline.count() <= 0) {
    errors.push_back(invalid("renewDeadline", d(l.renew_deadline), "must be greater than zero"));
  }
  if (l.retry_period.count() <= 0) {
    errors.push_back(invalid("retryPeriod", d(l.retry_period), "must be greater than zero"));
  }
  if (l.lease_duration <= l.renew_deadline) {
    errors.push_back(invalid("leaseDuration", d(l.renew_deadline),
                             "LeaseDuration must be greater than RenewDeadline"));
  }
  if (l.resource_lock.empty()) {
    errors.push_back(invalid("resourceLock", l.resource_lock, "resourceLock is required"));
  }
  if (l.resource_name.empty()) {
    errors.push_back(invalid("resourceName", l.resource_name, "resourceName is required"));
  }
  if (l.resource_namespace.empty()) {
    errors.push_back(
        invalid("resourceNamespace", l.resource_namespace, "resourceNamespace is required"));
  }
  // client-go checks these when the elector is built (it panics, or fails to make the lock);
  // we report them with the other flag errors instead.
  if (l.retry_period.count() > 0 && static_cast<double>(l.renew_deadline.count()) <=
                                        1.2 * static_cast<double>(l.retry_period.count())) {
    errors.emplace_back(
        "leaderElection.renewDeadline: Invalid value: " + go::quote(d(l.renew_deadline)) +
        ": renewDeadline must be greater than retryPeriod*JitterFactor");
  }
  if (!l.resource_lock.empty() && l.resource_lock != "leases") {
    errors.push_back("Invalid lock-type " + l.resource_lock);
  }
}

}  // namespace

ControllerManagerOptions::ControllerManagerOptions()
    : BaseOptions(flags::volcano_feature_gates()), controllers(default_controller_gates()) {}

std::string ControllerManagerOptions::lease_namespace() const {
  return lock_object_namespace.empty() ? leader_election.resource_namespace : lock_object_namespace;
}

api::Expected<ParsedCommandLine> parse_command_line(const std::vector<std::string>& args) {
  auto parsed = flags::parse_command_line<ControllerManagerOptions>(
      "vc-controller-manager", args, [](flags::FlagSet& fs, ControllerManagerOptions& o) {
        add_volcano_flags(fs, o);
        add_our_flags(fs, o.controller);
        add_sharding_flags(fs, o.sharding);
        add_leader_election_flags(fs, o.leader_election);
        fs.duration_var("leader-elect-step-down-timeout", &o.leader_election.step_down_timeout,
                        "How long the controllers may take to stop when leadership ends; past "
                        "it the process exits so that it is restarted (0: wait forever).");
        fs.duration_var("worker-stuck-timeout", &o.worker_stuck_timeout,
                        "/healthz fails while one reconcile has run longer than this, so that "
                        "a stuck worker gets the container restarted (0: never).");
      });
  if (!parsed) return parsed;
  ControllerManagerOptions& o = parsed->options;
  if (o.controller.max_requeue_num < 0) o.controller.max_requeue_num = -1;
  apply_feature_gates(o);
  o.controller.sharding = o.sharding;
  return parsed;
}

std::vector<std::string> validate(const ControllerManagerOptions& o) {
  std::vector<std::string> errors = validate_controller_gates(o.controllers);
  validate_leader_election(o.leader_election, errors);
  if (o.controller.job_verdict_period < nanoseconds::zero()) {
    errors.push_back("--job-verdict-period must be 0 (off) or positive, got " +
                     go::format_duration(o.controller.job_verdict_period));
  }
  if (o.leader_election.step_down_timeout < nanoseconds::zero()) {
    errors.emplace_back("--leader-elect-step-down-timeout must not be negative");
  }
  if (o.worker_stuck_timeout < nanoseconds::zero()) {
    errors.emplace_back("--worker-stuck-timeout must not be negative");
  }
  if (o.controller.transient_retry_max_delay <= nanoseconds::zero()) {
    errors.push_back("--transient-retry-max-delay must be positive, got " +
                     go::format_duration(o.controller.transient_retry_max_delay));
  }
  flags::validate_base(o, errors);
  return errors;
}

std::string aggregate(const std::vector<std::string>& errors) {
  std::vector<std::string> unique;
  for (const auto& e : errors) {
    if (std::find(unique.begin(), unique.end(), e) == unique.end()) unique.push_back(e);
  }
  if (unique.size() == 1) return unique.front();
  std::string out = "[";
  for (size_t i = 0; i < unique.size(); ++i) out += (i ? ", " : "") + unique[i];
  return out + "]";
}

}  // namespace vc::controllers::app

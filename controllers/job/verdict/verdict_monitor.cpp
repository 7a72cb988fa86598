#include "controllers/job/verdict/verdict_monitor.h"

#include <algorithm>
#include <string>
#include <vector>

#include "common/log/log.h"
#include "common/process/thread_name.h"
#include "controllers/explain/json_read.h"
#include "controllers/explain/read_snapshot.h"
#include "controllers/job/model/job_json.h"
#include "controllers/job/verdict/bound_pods.h"
#include "controllers/job/verdict/verdict_metrics.h"

namespace vc::controllers::job::verdict {
namespace {

using log::kv;

// A pass gives up after this many failed reads in a row: the API server is in trouble, and the
// next pass will try again.
constexpr int kFailedReadsMax = 3;

std::vector<JobFacts> job_facts(const kube::cache::Store& store) {
  std::vector<JobFacts> out;
  for (const kube::cache::ObjectPtr& obj : store.list()) {
    const JobPtr job = as_job(obj);
    if (!job) continue;
    out.push_back(JobFacts{job->namespace_, job->name, job->uid,
                           job->spec.queue.empty() ? "default" : job->spec.queue, job->status.phase,
                           job->creation_timestamp});
  }
  return out;
}

kube::events::ObjectReference reference(const JobFacts& job) {
  kube::events::ObjectReference ref;
  ref.kind = "Job";
  ref.api_version = "batch.volcano.sh/v1alpha1";
  ref.namespace_ = job.namespace_;
  ref.name = job.name;
  ref.uid = job.uid;
  return ref;
}

// "<headline>; stopped at <link> (`vc-cpp explain ns/name` shows the evidence)".
std::string event_message(const JobFacts& job, const explain::Explanation& x) {
  std::string message = x.headline;
  if (x.stop >= 0) message += "; stopped at " + x.chain[static_cast<std::size_t>(x.stop)].name;
  return message + " (`vc-cpp explain " + job.namespace_ + "/" + job.name + "` shows the evidence)";
}

}  // namespace

VerdictMonitor::VerdictMonitor(kube::Client& client, kube::events::EventRecorder& recorder,
                               const kube::cache::Store& jobs, const kube::cache::Store& pods,
                               MonitorOptions options)
    : client_(client), recorder_(recorder), jobs_(jobs), pods_(pods), options_(options) {}

VerdictMonitor::~VerdictMonitor() {
  stop();
}

void VerdictMonitor::start() {
  if (options_.period <= std::chrono::nanoseconds::zero() || thread_.joinable()) return;
  thread_ = std::thread([this] {
    set_thread_name("job-verdicts");
    loop();
  });
}

void VerdictMonitor::stop() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) {
    thread_.join();
    clear_verdict_counts();
  }
}

void VerdictMonitor::loop() {
  auto next = std::chrono::steady_clock::now() + options_.period;
  while (!pause_until(next)) {
    next += options_.period;
    pass();
    // A pass that ran longer than a period is followed by the next one at once, not by a burst.
    next = std::max(next, std::chrono::steady_clock::now());
  }
}

bool VerdictMonitor::pause_until(std::chrono::steady_clock::time_point when) {
  std::unique_lock lock(mu_);
  return cv_.wait_until(lock, when, [this] { return stop_; });
}

void VerdictMonitor::pass() {
  const api::TimePoint now = std::chrono::system_clock::now();
  const std::vector<JobFacts> jobs = job_facts(jobs_);
  settle(memory_, jobs);
  explain::ClusterLists lists;
  int failed_reads = 0;
  std::size_t diagnosed = 0, announced = 0;
  const std::vector<const JobFacts*> picked = pick_diagnoses(jobs, memory_, now, options_.pass);
  // The reads of one pass are spread over its period, so they never take a burst of the
  // client's request budget from the controller's own work.
  const auto spacing = picked.empty() ? std::chrono::nanoseconds::zero()
                                      : options_.period / static_cast<long>(picked.size() + 1);
  for (std::size_t i = 0; i < picked.size(); ++i) {
    const JobFacts* job = picked[i];
    if (i > 0 && pause_until(std::chrono::steady_clock::now() + spacing)) break;
    if (failed_reads >= kFailedReadsMax) break;
    Memory& memory = memory_[job->uid];
    memory.diagnosed = now;  // a job that cannot be read waits its turn like the others
    std::vector<std::string> gaps;
    auto snapshot = explain::read_object_part(
        client_, {explain::TargetKind::Job, job->namespace_, job->name}, gaps,
        {.list_podgroups_when_not_found = false, .list_namespace_events_when_many = false});
    if (!snapshot) {
      if (snapshot.error().kind == kube::ErrorKind::NotFound) continue;  // deleted meanwhile
      ++failed_reads;
      VC_LOG_DEBUG("cannot read a job for its verdict",
                   kv("job", job->namespace_ + "/" + job->name),
                   kv("error", snapshot.error().describe()));
      continue;
    }
    if (explain::str(snapshot->job, {"metadata", "uid"}) != job->uid) continue;  // made again
    const bool room = explain::needs_room(*snapshot);
    if (room && !lists.node_pods_read) {
      lists.node_pods = bound_pods(pods_.list());
      lists.node_pods_read = true;
    }
    if (auto read = explain::read_cluster_lists(client_, lists, room, gaps); !read) {
      ++failed_reads;
      VC_LOG_DEBUG("cannot read the cluster's lists for a job's verdict",
                   kv("error", read.error().describe()));
      continue;
    }
    if (!gaps.empty()) {
      VC_LOG_WARN("a job's verdict needs reads the controller may not make; it is left as it was",
                  kv("job", job->namespace_ + "/" + job->name), kv("missing", gaps.front()));
      continue;
    }
    failed_reads = 0;
    explain::swap_cluster_lists(*snapshot, lists);
    const explain::Explanation x = explain::diagnose(*snapshot);
    explain::swap_cluster_lists(*snapshot, lists);
    ++diagnosed;
    memory.observe(x.verdict);
    if (should_announce(memory, x.verdict, now, options_.pass)) {
      ++announced;
      recorder_.event(reference(*job), kube::events::EventType::Warning,
                      std::string(explain::to_string(x.verdict)), event_message(*job, x));
    }
  }
  publish_verdict_counts(count_by_queue(jobs, memory_));
  if (diagnosed > 0) {
    VC_LOG_DEBUG("verdict pass", kv("jobs", jobs.size()), kv("diagnosed", diagnosed),
                 kv("announced", announced));
  }
}

}  // namespace vc::controllers::job::verdict

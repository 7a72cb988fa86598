#pragma once
// Executor: performs a queue Plan (plan.h) and the command decision with the client.
//
// Writes, all to scheduling.volcano.sh/v1beta1 queues:
//   * status.state by server-side apply on the status subresource: field manager queue-controller,
//     force, an apply configuration holding only kind, apiVersion, metadata.name,
//     metadata.resourceVersion and status.state. Only the field this controller owns is sent
//     (spec controller-manager.md §2.7), so the scheduler's status.allocated is never touched; the
//     resourceVersion makes the apply conditional on the snapshot the plan was computed from (a
//     stale cache yields Conflict and a retry instead of a state computed from old data; that
//     Conflict records no Warning event, other failures do).
//   * spec.parent defaulting and the closed-by-parent annotation by JSON merge patch (the
//     defaulting one guarded by resourceVersion as well).
// One read: OPEN of a queue with a parent other than root GETs the parent (RequireParentOpen).
// Commands are deleted (bus.volcano.sh/v1alpha1) before their action is enqueued.
//
// Thread-safety: execute() and execute_command() may be called from several workers at once;
// the executor holds no mutable state (the client, recorder and metrics are thread-safe, and
// enqueue must be).

#include <functional>
#include <map>
#include <string>
#include <string_view>

#include "common/kube/client.h"
#include "common/kube/events/recorder.h"
#include "controllers/queue/metrics.h"
#include "controllers/queue/plan.h"

namespace vc::controllers::queue {

// The bodies the executor sends, exposed for tests.
nlohmann::json state_apply_body(const std::string& queue, const std::string& resource_version,
                                const std::string& state);
nlohmann::json default_parent_patch(const std::string& resource_version);
nlohmann::json closed_by_parent_patch(const std::string& value);

// The text of an API error as Volcano prints a Go error: the server's message.
std::string error_text(const kube::ApiError& e);

class Executor {
 public:
  using EnqueueFn = std::function<void(const Request&)>;

  Executor(kube::Client& client, kube::events::EventRecorder& recorder, QueueMetrics& metrics,
           EnqueueFn enqueue);

  // Queue name -> the resourceVersion the API server answered the last write of it with.
  using Written = std::map<std::string, std::string>;

  // Performs plan.steps in order and returns the first failure; the steps after it are not
  // performed (the request is retried and planned again from fresh caches). Each queue written
  // (also before a failure) goes into *written, when given.
  kube::Status execute(const Plan& plan, Written* written = nullptr);

  // Deletes the command, then enqueues request. NotFound: someone else handled or removed it;
  // success and nothing is enqueued (spec controller-manager.md §2.3). Any other failure is
  // returned for a retry.
  kube::Status execute_command(std::string_view ns, std::string_view name, const Request& request);

 private:
  kube::Client& client_;
  kube::events::EventRecorder& recorder_;
  QueueMetrics& metrics_;
  const EnqueueFn enqueue_;
};

}  // namespace vc::controllers::queue

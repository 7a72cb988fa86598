#pragma once
// diagnose(): where a Volcano Job stopped, from a Snapshot (snapshot.h). The path a job takes is
// a chain of links, each of which the next one needs:
//
//   Job -> PodGroup -> Queue -> Enqueue -> Pods -> Binding -> Running
//
// (the Job controller makes the PodGroup; the scheduler's enqueue step admits it to its Queue
// when the queue and the cluster have room for the gang's minimum; the controller then creates
// the pods; the scheduler binds them, all of a gang's minimum at once; the kubelets start them:
// spec job-controller.md §1.8, §4.1, spec scheduler-diagnostics.md §2-§6, §10). The first link
// that is not through is where the job stopped; the links after it are not reached yet.
//
// The verdict classifies that stop:
//   Progressing        every link is through or moving (pods being created or started)
//   Finished           the Job completed
//   WaitingForCapacity the job is fine and waits for room (queue share, free nodes)
//   ConfigurationError it cannot go on as written (closed or missing queue, capability smaller
//                      than the gang, node selector matching no node, untolerated taint, missing
//                      PriorityClass, an image that cannot be pulled, no PodGroup)
//   Failed             the Job ended Failed, Aborted or Terminated (e.g. restarts by policy up
//                      to maxRetry)
//
// Threads: pure function of its argument.

#include <string>
#include <string_view>
#include <vector>

#include "controllers/explain/snapshot.h"

namespace vc::controllers::explain {

enum class LinkState {
  Through,     // done, the job is past it
  Moving,      // in progress, nothing wrong seen
  Waiting,     // stopped for lack of room: will go on by itself when room appears
  Broken,      // stopped by the job's or the cluster's configuration
  NotReached,  // after the first stop
};

enum class Verdict { Progressing, Finished, WaitingForCapacity, ConfigurationError, Failed };

struct Link {
  std::string name;  // "Job", "PodGroup", "Queue", "Enqueue", "Pods", "Binding", "Running"
  LinkState state = LinkState::NotReached;
  std::string summary;                // one line: what was seen
  std::string why;                    // at a stop: the reason in plain words
  std::vector<std::string> evidence;  // at a stop: conditions, events, numbers
  std::string action;                 // at a stop: what the user can do
};

struct Explanation {
  std::string kind;  // "Job" or "PodGroup"
  std::string namespace_;
  std::string name;
  Verdict verdict = Verdict::Progressing;
  std::string headline;  // the verdict in one sentence
  std::vector<Link> chain;
  int stop = -1;  // index in chain of the first link that is Waiting or Broken; -1 = none
};

Explanation diagnose(const Snapshot& snapshot);

// The links of a Job's chain, in order ("Job" ... "Running").
const std::vector<std::string>& link_names();

std::string_view to_string(LinkState state);
std::string_view to_string(Verdict verdict);

// The command's exit status for a verdict: 0 progressing or finished, 3 waiting for capacity,
// 4 configuration error, 5 failed. (1 and 2 are the command's own errors and usage.)
int exit_code(Verdict verdict);

}  // namespace vc::controllers::explain

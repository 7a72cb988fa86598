#pragma once
// TerminatingNamespaces: namespaces the API server has just said are being deleted. While a
// namespace is deleted, the namespace controller removes a job's pods (and PodGroup) before or
// after the job itself; every removal wakes the job, and each sync would create the missing
// objects again, only to be refused with 403 and cause NamespaceTerminating. In a 100-job
// namespace that was about five refused creates per job (Volcano's controller: about twenty),
// each of them work for the API server.
//
// A refused create marks the namespace for `hold`. While marked, the syncer creates nothing in
// it, and the job controller syncs the job again when the mark ends. Once the mark has ended, the
// first sync that asks may create (a probe) and the mark is renewed for everyone else, so a
// namespace that takes a minute to go costs one probe per `hold`, not one per job. A create that
// succeeds clears the mark: a deleted namespace can be created again under the same name, and a
// job in the new one waits at most `hold` for its first objects, never forever.
//
// Threads: all methods may be called from any thread.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace vc::controllers::job {

class TerminatingNamespaces {
 public:
  using Clock = std::chrono::steady_clock;

  explicit TerminatingNamespaces(Clock::duration hold = std::chrono::seconds(2)) : hold_(hold) {}

  // Whether a sync may create objects in ns now: yes when ns is not marked; no while its mark
  // lasts; after the mark, yes for the first caller (the probe; the mark is renewed for hold).
  bool may_create(std::string_view ns, Clock::time_point now = Clock::now());
  // A create in ns was refused because ns is being deleted.
  void refused(std::string_view ns, Clock::time_point now = Clock::now());
  // A create in ns succeeded: ns takes objects (again).
  void created(std::string_view ns);
  // How much longer creates in ns are held from now; zero when ns is not marked.
  Clock::duration held_for(std::string_view ns, Clock::time_point now = Clock::now()) const;
  std::size_t size() const;

 private:
  Clock::duration hold_;
  std::atomic<std::size_t> count_{0};  // lets created() skip the lock when nothing is marked
  mutable std::mutex mu_;
  std::unordered_map<std::string, Clock::time_point> until_;  // namespace -> end of its mark
};

}  // namespace vc::controllers::job

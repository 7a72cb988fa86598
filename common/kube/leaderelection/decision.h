#pragma once
// The leader-election decision as a pure function, following client-go's resourcelock semantics:
//
//  - no Lease: create one holding it;
//  - held by someone else whose lease is still valid: wait. Validity is judged by OUR clock: the
//    lease runs for leaseDurationSeconds from the moment we first saw its current record, never
//    from the renewTime written by another machine's clock;
//  - ours: renew (keep acquireTime and leaseTransitions);
//  - otherwise (expired, or released with an empty holder): take over, leaseTransitions + 1.

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "common/kube/leaderelection/lease_record.h"

namespace vc::kube::leaderelection {

using MonoTime = std::chrono::steady_clock::time_point;

// A record as we saw it, and when (on our monotonic clock) we first saw that exact record.
struct Observed {
  LeaseRecord record;
  MonoTime observed_at;
};

// The observation after reading current at mono_now: observed_at moves only if the record
// changed since previous.
Observed observe(const std::optional<Observed>& previous, const LeaseRecord& current,
                 MonoTime mono_now);

enum class Action { Create, TakeOver, Renew, Wait };
const char* to_string(Action action);

struct Decision {
  Action action = Action::Wait;
  LeaseRecord desired;  // what to write; unset for Wait
};

// lease is nullopt when no Lease exists. wall_now stamps acquireTime/renewTime.
Decision decide(const std::optional<Observed>& lease,
                std::chrono::system_clock::time_point wall_now, MonoTime mono_now,
                std::string_view identity, std::chrono::seconds lease_duration);

// True when the lease is held by another identity and still valid at mono_now.
bool held_by_other(const Observed& lease, MonoTime mono_now, std::string_view identity);

// The record a leader writes when it steps down (client-go's ReleaseOnCancel): no holder, a one
// second duration so others may take over at once, transitions unchanged.
LeaseRecord released_record(const LeaseRecord& current,
                            std::chrono::system_clock::time_point wall_now);

}  // namespace vc::kube::leaderelection

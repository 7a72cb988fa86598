#include "common/kube/leaderelection/decision.h"

namespace vc::kube::leaderelection {

Observed observe(const std::optional<Observed>& previous, const LeaseRecord& current,
                 MonoTime mono_now) {
  if (previous && previous->record == current) return *previous;
  return Observed{current, mono_now};
}

const char* to_string(Action action) {
  switch (action) {
    case Action::Create:
      return "create";
    case Action::TakeOver:
      return "take-over";
    case Action::Renew:
      return "renew";
    case Action::Wait:
      return "wait";
  }
  return "unknown";
}

bool held_by_other(const Observed& lease, MonoTime mono_now, std::string_view identity) {
  const LeaseRecord& r = lease.record;
  if (r.holder_identity.empty() || r.holder_identity == identity) return false;
  return lease.observed_at + std::chrono::seconds(r.lease_duration_seconds) > mono_now;
}

Decision decide(const std::optional<Observed>& lease,
                std::chrono::system_clock::time_point wall_now, MonoTime mono_now,
                std::string_view identity, std::chrono::seconds lease_duration) {
  const WallTime now = truncate_to_micros(wall_now);
  Decision d;
  d.desired.holder_identity = std::string(identity);
  d.desired.lease_duration_seconds = static_cast<int>(lease_duration.count());
  d.desired.acquire_time = now;
  d.desired.renew_time = now;
  if (!lease) {
    d.action = Action::Create;
    return d;
  }
  if (held_by_other(*lease, mono_now, identity)) return Decision{};
  const LeaseRecord& current = lease->record;
  if (current.holder_identity == identity) {
    d.action = Action::Renew;
    if (current.acquire_time) d.desired.acquire_time = current.acquire_time;
    d.desired.lease_transitions = current.lease_transitions;
    return d;
  }
  d.action = Action::TakeOver;
  d.desired.lease_transitions = current.lease_transitions + 1;
  return d;
}

LeaseRecord released_record(const LeaseRecord& current,
                            std::chrono::system_clock::time_point wall_now) {
  const WallTime now = truncate_to_micros(wall_now);
  LeaseRecord r;
  r.lease_duration_seconds = 1;
  r.acquire_time = now;
  r.renew_time = now;
  r.lease_transitions = current.lease_transitions;
  return r;
}

}  // namespace vc::kube::leaderelection

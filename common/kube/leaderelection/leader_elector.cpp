#include "common/kube/leaderelection/leader_elector.h"

#include <random>
#include <stdexcept>

#include <prometheus/gauge.h>

#include "common/log/log.h"
#include "common/metrics/registry.h"

namespace vc::kube::leaderelection {
namespace {

using nlohmann::json;

// client-go's wait.JitterUntil factor for campaign attempts.
constexpr double kJitterFactor = 1.2;

// The metric client-go exports, so existing dashboards and alerts keep working.
prometheus::Gauge& master_status(const std::string& lease_name) {
  static auto& family = prometheus::BuildGauge()
                            .Name("leader_election_master_status")
                            .Help(
                                "Gauge of if the reporting system is master of the relevant "
                                "lease, 0 indicates backup, 1 indicates master. 'name' is the "
                                "string used to identify the lease.")
                            .Register(vc::metrics::registry());
  return family.Add({{"name", lease_name}});
}

void validate(const LeaderElectionConfig& c) {
  auto fail = [](const std::string& why) {
    throw std::invalid_argument("leader election: " + why);
  };
  if (c.lease_namespace.empty() || c.lease_name.empty())
    fail("lease namespace and name are required");
  if (c.identity.empty()) fail("identity is required");
  if (c.retry_period <= std::chrono::milliseconds::zero()) fail("retry period must be positive");
  if (c.lease_duration <= c.renew_deadline) {
    fail("lease duration must be greater than the renew deadline");
  }
  if (c.renew_deadline.count() <= kJitterFactor * static_cast<double>(c.retry_period.count())) {
    fail("renew deadline must be greater than 1.2 x the retry period");
  }
  if (!c.clock.wall || !c.clock.mono) fail("clock functions must be set");
}

}  // namespace

LeaderElector::LeaderElector(Client& client, LeaderElectionConfig config, LeaderCallbacks callbacks)
    : client_(client), config_(std::move(config)), callbacks_(std::move(callbacks)) {
  validate(config_);
  master_status(config_.lease_name).Set(0);
}

LeaderElector::~LeaderElector() {
  stop();
}

std::string LeaderElector::observed_leader() const {
  std::lock_guard lock(leader_mu_);
  return observed_leader_;
}

bool LeaderElector::try_acquire_or_renew(kube::CallDeadline by) {
  std::lock_guard lock(attempt_mu_);
  const std::string& ns = config_.lease_namespace;
  const std::string& name = config_.lease_name;

  // While we lead, renew from the object we wrote last: one request instead of two. Not after
  // stepping down: the Lease may have changed hands since.
  if (renew_blind_ && lease_ && observed_ &&
      observed_->record.holder_identity == config_.identity) {
    const Decision d = decide(observed_, config_.clock.wall(), config_.clock.mono(),
                              config_.identity, config_.lease_duration);
    json lease = *lease_;
    put_record(lease, d.desired);
    if (write(lease, d.action, by)) return true;
    // Fall through: read the current object and decide again.
  }

  auto got = client_.get(resources::leases, ns, name, {}, by);
  if (!got.ok()) {
    if (!got.is(ErrorKind::NotFound)) {
      VC_LOG_WARN("error retrieving lease", kv("lease", ns + "/" + name),
                  kv("err", got.error().describe()));
      return false;
    }
    observed_.reset();
    lease_.reset();
    const Decision d = decide(std::nullopt, config_.clock.wall(), config_.clock.mono(),
                              config_.identity, config_.lease_duration);
    return write(make_lease(ns, name, d.desired), d.action, by);
  }

  const LeaseRecord current = record_from_lease(got.value());
  observed_ = observe(observed_, current, config_.clock.mono());
  lease_ = std::move(got).value();
  {
    std::lock_guard leader_lock(leader_mu_);
    observed_leader_ = current.holder_identity;
  }
  const Decision d = decide(observed_, config_.clock.wall(), config_.clock.mono(), config_.identity,
                            config_.lease_duration);
  if (d.action == Action::Wait) {
    VC_LOG_DEBUG("lease is held by another candidate", kv("lease", ns + "/" + name),
                 kv("holder", current.holder_identity));
    return false;
  }
  json lease = *lease_;
  put_record(lease, d.desired);
  return write(lease, d.action, by);
}

bool LeaderElector::write(const json& lease, Action action, kube::CallDeadline by) {
  const std::string& ns = config_.lease_namespace;
  auto r = action == Action::Create ? client_.create(resources::leases, ns, lease, by)
                                    : client_.update(resources::leases, ns, lease, by);
  if (!r.ok()) {
    // Conflict and AlreadyExists mean another candidate wrote first: an ordinary outcome.
    const bool race = r.is(ErrorKind::Conflict) || r.is(ErrorKind::AlreadyExists);
    VC_LOG_AT(race ? vc::log::Level::Debug : vc::log::Level::Warn, "lease write failed",
              kv("lease", ns + "/" + config_.lease_name), kv("action", to_string(action)),
              kv("err", r.error().describe()));
    return false;
  }
  const LeaseRecord written = record_from_lease(r.value());
  renew_blind_ = written.holder_identity == config_.identity;
  observed_ = Observed{written, config_.clock.mono()};
  lease_ = std::move(r).value();
  std::lock_guard leader_lock(leader_mu_);
  observed_leader_ = written.holder_identity;
  return true;
}

bool LeaderElector::release() {
  std::lock_guard lock(attempt_mu_);
  if (!lease_ || !observed_ || observed_->record.holder_identity != config_.identity) return true;
  json lease = *lease_;
  put_record(lease, released_record(observed_->record, config_.clock.wall()));
  if (!write(lease, Action::Renew)) {
    VC_LOG_ERROR("failed to release lease; successors wait for it to expire",
                 kv("lease", config_.lease_namespace + "/" + config_.lease_name));
    return false;
  }
  VC_LOG_INFO("released lease", kv("lease", config_.lease_namespace + "/" + config_.lease_name));
  return true;
}

void LeaderElector::start() {
  std::lock_guard lock(thread_mu_);
  if (started_) throw std::logic_error("LeaderElector::start called twice");
  started_ = true;
  thread_ = std::jthread([this](std::stop_token stop) { run(stop); });
}

void LeaderElector::stop() {
  std::lock_guard lock(thread_mu_);
  if (!thread_.joinable()) return;
  thread_.request_stop();
  thread_.join();
}

void LeaderElector::run(std::stop_token stop) {
  while (!stop.stop_requested() && campaign(stop)) lead(stop);
}

bool LeaderElector::campaign(std::stop_token stop) {
  const std::string lease = config_.lease_namespace + "/" + config_.lease_name;
  VC_LOG_INFO("attempting to acquire leader lease", kv("lease", lease),
              kv("identity", config_.identity));
  while (!stop.stop_requested()) {
    const bool acquired = try_acquire_or_renew();
    report_transition();
    if (acquired) {
      leading_ = true;
      master_status(config_.lease_name).Set(1);
      VC_LOG_INFO("successfully acquired lease", kv("lease", lease),
                  kv("identity", config_.identity));
      if (callbacks_.on_started_leading) callbacks_.on_started_leading();
      return true;
    }
    if (!sleep(stop, standby_wait())) break;
  }
  return false;
}

// How long a candidate waits before its next attempt. client-go waits retry_period plus up to
// 20% jitter; with 2 s that lets a takeover lag the lease's real expiry by up to two polls
// (one to notice the last renewal, one after expiry), about 19 s after a leader's death with
// the default 15 s lease. We poll at most every second without jitter, and wake exactly when the
// holder's lease runs out as we observed it, so a takeover follows expiry at once (≤ ~16 s).
std::chrono::milliseconds LeaderElector::standby_wait() {
  using std::chrono::milliseconds;
  milliseconds wait = std::min<milliseconds>(config_.retry_period, std::chrono::seconds(1));
  std::lock_guard lock(attempt_mu_);
  if (observed_ && held_by_other(*observed_, config_.clock.mono(), config_.identity)) {
    const auto expires =
        observed_->observed_at + std::chrono::seconds(observed_->record.lease_duration_seconds);
    const auto until = std::chrono::ceil<milliseconds>(expires - config_.clock.mono());
    if (until < wait) wait = std::max(until + milliseconds(5), milliseconds(5));
  }
  return wait;
}

void LeaderElector::lead(std::stop_token stop) {
  const std::string lease = config_.lease_namespace + "/" + config_.lease_name;
  for (;;) {
    if (!sleep(stop, config_.retry_period)) return stop_leading(config_.release_on_stop);
    // As client-go: one renewal round retries every retry_period for up to renew_deadline.
    const MonoTime round_start = config_.clock.mono();
    for (;;) {
      // The round's deadline on the injected clock, as an instant of the client's clock.
      const auto left = config_.renew_deadline - (config_.clock.mono() - round_start);
      const bool renewed =
          left > MonoTime::duration::zero() &&
          try_acquire_or_renew(
              std::chrono::steady_clock::now() +
              std::chrono::duration_cast<std::chrono::steady_clock::duration>(left));
      report_transition();
      if (renewed) break;
      bool taken;
      {
        std::lock_guard lock(attempt_mu_);
        taken = observed_ && held_by_other(*observed_, config_.clock.mono(), config_.identity);
      }
      // Stricter than client-go, which keeps leading until the deadline: once another live
      // holder is seen, carrying on would mean two leaders.
      if (taken) {
        VC_LOG_WARN("leadership lost: lease taken by another candidate", kv("lease", lease),
                    kv("holder", observed_leader()));
        return stop_leading(false);
      }
      if (config_.clock.mono() - round_start >= config_.renew_deadline) {
        VC_LOG_ERROR("leadership lost: lease not renewed within the renew deadline",
                     kv("lease", lease), kv("renew_deadline_ms", config_.renew_deadline.count()));
        return stop_leading(false);
      }
      if (!sleep(stop, config_.retry_period)) return stop_leading(config_.release_on_stop);
    }
  }
}

void LeaderElector::stop_leading(bool release_lease) {
  leading_ = false;
  {
    std::lock_guard lock(attempt_mu_);
    renew_blind_ = false;
  }
  master_status(config_.lease_name).Set(0);
  // Before the release (client-go releases first): our work winds down before a successor can
  // start, instead of both running for a moment.
  if (callbacks_.on_stopped_leading) callbacks_.on_stopped_leading();
  if (release_lease) release();
}

bool LeaderElector::sleep(std::stop_token stop, std::chrono::milliseconds d) {
  std::unique_lock lock(sleep_mu_);
  sleep_cv_.wait_for(lock, stop, d, [] { return false; });
  return !stop.stop_requested();
}

void LeaderElector::report_transition() {
  const std::string holder = observed_leader();
  if (holder.empty() || holder == reported_leader_) return;
  reported_leader_ = holder;
  if (holder != config_.identity) {
    VC_LOG_INFO("new leader elected",
                kv("lease", config_.lease_namespace + "/" + config_.lease_name),
                kv("leader", holder));
  }
  if (callbacks_.on_new_leader) callbacks_.on_new_leader(holder);
}

}  // namespace vc::kube::leaderelection

#include "webhook/server/refusals.h"

#include <array>
#include <cstdint>
#include <mutex>
#include <string>

#include <prometheus/counter.h>
#include <prometheus/family.h>

#include "common/log/log.h"
#include "common/metrics/registry.h"

namespace vc::webhook::server {
namespace {

constexpr std::array kReasons{RefusalReason::OverBudget, RefusalReason::PeerConnections,
                              RefusalReason::TooManyValues, RefusalReason::TooDeep};

struct ReasonState {
  prometheus::Counter* counter = nullptr;
  std::mutex mu;  // guards the two members below
  std::chrono::steady_clock::time_point last_logged{};
  std::uint64_t unlogged = 0;  // refusals since the last line
};

std::array<ReasonState, kReasons.size()>& states() {
  // Never destroyed: a refusal on an I/O thread may race the process's exit.
  static auto* all = [] {
    auto* out = new std::array<ReasonState, kReasons.size()>();
    auto& family = prometheus::BuildCounter()
                       .Name("vc_webhook_refused_total")
                       .Help(
                           "Requests and connections the webhook refused to stay within its "
                           "limits, by reason.")
                       .Register(vc::metrics::registry());
    for (const auto reason : kReasons) {
      (*out)[static_cast<std::size_t>(reason)].counter =
          &family.Add({{"reason", to_string(reason)}});
    }
    return out;
  }();
  return *all;
}

}  // namespace

const char* to_string(RefusalReason reason) {
  switch (reason) {
    case RefusalReason::OverBudget:
      return "over_budget";
    case RefusalReason::PeerConnections:
      return "peer_connections";
    case RefusalReason::TooManyValues:
      return "too_many_values";
    case RefusalReason::TooDeep:
      return "too_deep";
  }
  return "unknown";
}

void refused(RefusalReason reason, std::string_view detail) {
  ReasonState& state = states()[static_cast<std::size_t>(reason)];
  state.counter->Increment();
  const auto now = std::chrono::steady_clock::now();
  std::uint64_t count = 0;
  {
    std::lock_guard lock(state.mu);
    ++state.unlogged;
    if (state.last_logged != std::chrono::steady_clock::time_point{} &&
        now - state.last_logged < kRefusalLogInterval) {
      return;
    }
    state.last_logged = now;
    count = state.unlogged;
    state.unlogged = 0;
  }
  VC_LOG_WARN("webhook refused a request to stay within its limits",
              kv("reason", to_string(reason)), kv("detail", detail), kv("refusals", count));
}

}  // namespace vc::webhook::server

#pragma once
// What the admission server refuses to protect itself (issue: nobody can take admission down),
// counted and logged one way:
//   vc_webhook_refused_total{reason}   counter, one per refusal
// and a warning per reason at most once every kRefusalLogInterval, with how many refusals of
// that reason it stands for: an attacker sending thousands a second must not flood the log.
//
// Reasons:
//   over_budget        a request whose bytes did not fit --max-inflight-bytes (429)
//   peer_connections   a connection beyond --max-connections-per-peer with none of that peer's
//                      idle (closed after accept)
//   too_many_values    a review with more than --max-review-values JSON values (400)
//   too_deep           a review nested deeper than Go's 10000 levels (400)
//
// Thread-safety: call from any thread.

#include <chrono>
#include <string_view>

namespace vc::webhook::server {

enum class RefusalReason { OverBudget, PeerConnections, TooManyValues, TooDeep };
const char* to_string(RefusalReason reason);

inline constexpr std::chrono::seconds kRefusalLogInterval{10};

// Counts one refusal, and logs it unless this reason was logged within kRefusalLogInterval;
// detail says what was over which limit.
void refused(RefusalReason reason, std::string_view detail);

}  // namespace vc::webhook::server

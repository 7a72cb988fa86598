#pragma once
// run_load(): a closed-loop HTTPS load of AdmissionReviews. `concurrency` kept-alive TLS
// connections each send a review, wait for the answer, check it (response_check.h) and send the
// next one at once; connections rotate over the bodies, each request with a fresh uid.
//
// Timeline: connections open (and TLS-handshake) at the start of the warm-up; answers that
// arrive during the warm-up are checked but not measured. The measured window is the next
// `duration`: every answer that arrives inside it is counted and its latency (request written ->
// answer read) recorded. At the end of the window no new request is sent; requests still in
// flight are awaited (up to request_timeout) so that their errors are not lost.
//
// Errors: a non-200 status, a malformed answer, a wrong uid or allowed value, a transport error
// (connect, handshake, read, write, timeout). A connection that fails reconnects after a short
// pause. The first max_error_samples error texts are kept.
//
// Threads: run_load() blocks the calling thread, which only sleeps and calls the window hooks;
// the connections run on `threads` client threads, one io_context each (connection i on thread
// i % threads). The hooks run on the calling thread.
//
// Polling: with busy_poll > 0 a client thread that runs out of ready handlers keeps polling its
// sockets for that long before it sleeps in epoll_wait (common/server/busy_poll.h, as in the
// webhook). With one request in flight the answer then finds the client awake: the round trip no
// longer includes waking the client's CPU, which on a VM costs as much as a small review and is the
// same for every server measured. Meant for a client pinned to a core of its own.

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "bench/webhook/latency_histogram.h"
#include "bench/webhook/review_template.h"

namespace vc::bench {

struct LoadTarget {
  std::string path;  // URL path, e.g. "/jobs/mutate"
  std::string name;  // for reports: the file the review came from
  ReviewTemplate review;
  bool expect_allowed = true;
};

struct LoadOptions {
  std::string host = "127.0.0.1";
  std::uint16_t port = 0;
  std::string ca_file;  // PEM bundle the server certificate must chain to
  std::vector<LoadTarget> targets;
  int concurrency = 1;
  int threads = 1;
  std::chrono::nanoseconds warmup{std::chrono::seconds(2)};
  std::chrono::nanoseconds duration{std::chrono::seconds(10)};
  std::chrono::milliseconds request_timeout{10'000};  // the API server's webhook timeout
  std::size_t max_error_samples = 5;
  std::chrono::microseconds busy_poll{0};  // 0: sleep as soon as nothing is ready
  // Called on the calling thread when the measured window opens and when it closes.
  std::function<void()> on_window_start;
  std::function<void()> on_window_end;
};

struct TargetStats {
  std::uint64_t requests = 0;  // answered correctly inside the window
  std::uint64_t errors = 0;    // failed during the window or while draining after it
  LatencyHistogram latency;
};

struct LoadResult {
  std::uint64_t requests = 0;
  std::uint64_t errors = 0;
  std::uint64_t warmup_requests = 0;
  std::uint64_t warmup_errors = 0;
  std::uint64_t connections_opened = 0;
  std::chrono::nanoseconds window{0};
  LatencyHistogram latency;
  std::vector<TargetStats> per_target;  // same order as LoadOptions::targets
  std::vector<std::string> error_samples;
  double client_cpu_seconds = 0;  // this process, user + system, inside the window
};

// Throws std::invalid_argument for unusable options (no targets, concurrency < 1, ...) and
// std::runtime_error when the CA file cannot be loaded or the host not resolved. Errors talking
// to the server are counted in the result, never thrown.
LoadResult run_load(const LoadOptions& options);

}  // namespace vc::bench

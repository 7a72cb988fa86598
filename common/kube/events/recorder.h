#pragma once
// EventRecorder: how controllers report what they did to an object, as core/v1 Events that
// `kubectl describe` shows.
//
//   recorder.event(reference_to(job_json), EventType::Warning, "PodGroupPending", message);
//
// AsyncEventRecorder is the real one: event() only queues, and one sender thread aggregates
// repeats (see event_cache.h) and writes them to the API server, so callers never wait for the
// network. When the queue is full the event is dropped and counted in
// event_recorder_dropped_total{reason="queue_full"}.
//
// Threads: event(), flush() and dropped() may be called from any thread; stop() from any thread
// but the sender's.

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "common/kube/client.h"
#include "common/kube/events/event.h"
#include "common/kube/events/event_cache.h"
#include "common/kube/events/event_json.h"

namespace vc::kube::events {

class EventRecorder {
 public:
  virtual ~EventRecorder() = default;
  virtual void event(const ObjectReference& object, EventType type, std::string reason,
                     std::string message) = 0;
};

struct RecorderOptions {
  EventSource source;                 // component is required
  std::size_t queue_capacity = 1000;  // events waiting for the sender
  std::size_t cache_capacity = 4096;  // recent events remembered for aggregation
  std::chrono::seconds aggregation_window{600};
  // Attempts per event for retryable failures (5xx, 429, transport), waiting retry_delay,
  // doubled each time, in between.
  int max_attempts = 3;
  std::chrono::milliseconds retry_delay{1000};
  // How long stop() keeps sending what is queued before dropping the rest.
  std::chrono::milliseconds stop_drain_timeout{5000};
  std::function<WallTime()> now = [] { return std::chrono::system_clock::now(); };
};

class AsyncEventRecorder final : public EventRecorder {
 public:
  // Starts the sender thread. Throws std::invalid_argument without a source component.
  AsyncEventRecorder(Client& client, RecorderOptions options);
  ~AsyncEventRecorder() override;  // stop()
  AsyncEventRecorder(const AsyncEventRecorder&) = delete;
  AsyncEventRecorder& operator=(const AsyncEventRecorder&) = delete;

  // Queues one occurrence, stamped with the current time (nudged by a nanosecond if needed so
  // stamps strictly increase). Never blocks on the API server.
  void event(const ObjectReference& object, EventType type, std::string reason,
             std::string message) override;

  // Waits until every event queued so far has been sent or dropped; false on timeout.
  bool flush(std::chrono::milliseconds timeout);
  // Sends what is queued (up to stop_drain_timeout), then ends the sender thread. Events
  // recorded afterwards are dropped. Idempotent.
  void stop();

  // Events this recorder dropped (queue full, rejected, out of retries, or shut down).
  std::uint64_t dropped() const;

 private:
  void run();
  void send(const Event& e);
  // Sleeps for d unless stop() is called first; false if stopping.
  bool sleep(std::chrono::milliseconds d);
  void drop(const Event& e, const char* reason, const std::string& detail);

  Client& client_;
  const RecorderOptions options_;
  EventCache cache_;  // sender thread only

  mutable std::mutex mu_;            // guards the members below
  std::condition_variable cv_;       // queue_ gained an event, or stopping_ was set
  std::condition_variable idle_cv_;  // queue_ drained and nothing in flight
  std::deque<Event> queue_;
  bool busy_ = false;  // the sender is handling an event it took off queue_
  bool stopping_ = false;
  std::chrono::steady_clock::time_point drain_deadline_;
  std::uint64_t dropped_ = 0;
  WallTime last_stamp_{};  // the time given to the last event queued

  std::mutex stop_mu_;  // serialises stop()
  std::thread sender_;
};

}  // namespace vc::kube::events

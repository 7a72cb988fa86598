#pragma once
// FaultScope: what went wrong, not through the object's fault, while one reconcile ran. The
// worker loop opens one around each reconcile; the Client notes in it every call that finally
// failed with a transient error (errors.h is_transient), and code that catches an exception below
// the worker loop notes that. The loop then knows whether a failed sync was the API server's
// trouble or our bug, which must not count toward --max-requeue-num
// (controllers/framework/retry_policy.h), without every reconciler having to carry the
// classification through its own error strings.
//
//   FaultScope scope;                 // this thread's calls now note into scope
//   auto r = reconcile(key);
//   if (!r.ok() && scope.transient_errors() > 0) ...   // the API server was unwell
//
// A reconcile that hands calls to helper threads makes them note into its scope with Adopt.
//
// Threads: a scope belongs to the thread that opened it (scopes nest, innermost wins); its
// counters may be bumped from adopting threads at once. note_*() may be called from any thread;
// with no scope open on it they do nothing (informer threads, event senders).

#include <atomic>

#include "common/kube/result.h"

namespace vc::kube {

class FaultScope {
 public:
  FaultScope();   // becomes the calling thread's current scope
  ~FaultScope();  // restores the one it replaced
  FaultScope(const FaultScope&) = delete;
  FaultScope& operator=(const FaultScope&) = delete;

  int transient_errors() const { return transient_.load(std::memory_order_relaxed); }
  int exceptions() const { return exceptions_.load(std::memory_order_relaxed); }

  // The calling thread's current scope, or null.
  static FaultScope* current();
  // Counts e in the current scope when it is transient.
  static void note_api_error(const ApiError& e);
  // Counts an exception caught and turned into an error below the worker loop.
  static void note_exception();

  // Makes `scope` (may be null) current on this thread while the Adopt lives: for a helper thread
  // doing part of a reconcile's work.
  class Adopt {
   public:
    explicit Adopt(FaultScope* scope);
    ~Adopt();
    Adopt(const Adopt&) = delete;
    Adopt& operator=(const Adopt&) = delete;

   private:
    FaultScope* previous_;
  };

 private:
  std::atomic<int> transient_{0};
  std::atomic<int> exceptions_{0};
  FaultScope* previous_;
};

}  // namespace vc::kube

#pragma once
// ByteBudget: the bytes every connection of one HttpServer may hold for requests in flight
// (headers and bodies as they are buffered, and what the service builds while serving one),
// shared by all of them. A connection reserves before it buffers; a reservation that would go
// over the limit fails and the request is refused (429), so the total never grows past it.
//
// Large requests (over large_request bytes) may together hold at most half of the limit: a few
// clients uploading big bodies slowly cannot take every byte from the small reviews an API server
// sends. Small requests may use the whole limit.
//
//   ByteBudget budget(96 << 20, 256 << 10);
//   if (!budget.try_reserve(n, large)) refuse();   // ... budget.release(n, large) when done
//
// A limit of 0 means unbounded: every reservation succeeds (and is still counted).
//
// Thread-safety: every method may be called from any thread (atomics, no lock).

#include <atomic>
#include <cstddef>

namespace vc::server {

class ByteBudget {
 public:
  ByteBudget(std::size_t limit, std::size_t large_request) noexcept
      : limit_(limit), large_request_(large_request) {}
  ByteBudget(const ByteBudget&) = delete;
  ByteBudget& operator=(const ByteBudget&) = delete;

  // Reserves n bytes, counted as a large request's when large; false (nothing reserved) when
  // that would take the total over the limit, or large requests over half of it.
  bool try_reserve(std::size_t n, bool large) noexcept;
  // Gives back bytes reserved with the same `large`.
  void release(std::size_t n, bool large) noexcept;

  // Whether a request of this many bytes counts as large.
  bool is_large(std::size_t request_bytes) const noexcept { return request_bytes > large_request_; }
  std::size_t limit() const noexcept { return limit_; }
  std::size_t in_use() const noexcept { return used_.load(std::memory_order_relaxed); }

 private:
  const std::size_t limit_;
  const std::size_t large_request_;
  // Invariant (between calls): used_ <= limit_ and used_large_ <= limit_ / 2 when limit_ > 0;
  // used_large_ <= used_. A failed try_reserve may push them over for an instant, then takes
  // its bytes back.
  std::atomic<std::size_t> used_{0};
  std::atomic<std::size_t> used_large_{0};
};

}  // namespace vc::server

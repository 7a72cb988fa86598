#include "common/server/byte_budget.h"

namespace vc::server {

bool ByteBudget::try_reserve(std::size_t n, bool large) noexcept {
  if (limit_ == 0) {
    used_.fetch_add(n, std::memory_order_relaxed);
    if (large) used_large_.fetch_add(n, std::memory_order_relaxed);
    return true;
  }
  // Add first, then check: two racing reservations cannot both pass where one alone would fit.
  // Either failing gives its bytes back, so a near-full budget may refuse both (never admit both).
  if (large && used_large_.fetch_add(n, std::memory_order_relaxed) + n > limit_ / 2) {
    used_large_.fetch_sub(n, std::memory_order_relaxed);
    return false;
  }
  if (used_.fetch_add(n, std::memory_order_relaxed) + n > limit_) {
    used_.fetch_sub(n, std::memory_order_relaxed);
    if (large) used_large_.fetch_sub(n, std::memory_order_relaxed);
    return false;
  }
  return true;
}

void ByteBudget::release(std::size_t n, bool large) noexcept {
  used_.fetch_sub(n, std::memory_order_relaxed);
  if (large) used_large_.fetch_sub(n, std::memory_order_relaxed);
}

}  // namespace vc::server

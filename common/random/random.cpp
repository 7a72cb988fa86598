#include "common/random/random.h"

#include <random>

namespace vc::random {

SmallRng SmallRng::from_entropy() {
  std::random_device device;
  const std::uint64_t high = device();
  return SmallRng((high << 32) ^ device());
}

SmallRng& thread_rng() {
  thread_local SmallRng rng = SmallRng::from_entropy();
  return rng;
}

}  // namespace vc::random

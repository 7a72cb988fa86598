#pragma once
// Random numbers where only "different each time" matters: retry jitter, watch timeouts, the
// random suffix of generated names. Nothing here is for secrets.
//
// Why not std::mt19937: its 2.5 KiB of state (5 KiB for the 64-bit one) in a thread_local is
// part of every thread's static TLS block, which glibc zeroes at the top of each thread's stack:
// with ~100 threads in the controller-manager that is ~0.7 MiB of RSS for two generators. This
// one (SplitMix64) keeps 8 bytes and meets UniformRandomBitGenerator, so the standard
// distributions draw from it.

#include <cstdint>

namespace vc::random {

class SmallRng {
 public:
  using result_type = std::uint64_t;

  explicit SmallRng(std::uint64_t seed) : state_(seed) {}
  // Seeded from std::random_device.
  static SmallRng from_entropy();

  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return ~result_type{0}; }

  result_type operator()() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

 private:
  std::uint64_t state_;
};

// This thread's generator, seeded from std::random_device at its first use.
SmallRng& thread_rng();

}  // namespace vc::random

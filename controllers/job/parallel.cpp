#include "controllers/job/parallel.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace vc::controllers::job {

void parallel_for(std::size_t n, std::size_t width, const std::function<void(std::size_t)>& fn) {
  if (n == 0) return;
  std::atomic<std::size_t> next{0};
  auto drain = [&] {
    for (std::size_t i = next.fetch_add(1); i < n; i = next.fetch_add(1)) fn(i);
  };
  const std::size_t helpers = std::min(n, std::max<std::size_t>(width, 1)) - 1;
  std::vector<std::thread> threads;
  threads.reserve(helpers);
  for (std::size_t t = 0; t < helpers; ++t) threads.emplace_back(drain);
  drain();
  for (auto& t : threads) t.join();
}

}  // namespace vc::controllers::job

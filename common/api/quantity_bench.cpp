// Parse and print a mix of quantities as they appear in pod specs and Volcano objects.

#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "common/api/quantity.h"

namespace {

const std::vector<std::string>& inputs() {
  static const std::vector<std::string> kInputs = {
      "100m",   "1",    "1.5",   "500Mi", "1Gi", "4Gi",          "2",    "250m",
      "8",      "64Gi", "1.5Gi", "0.1",   "1e3", "12e6",         "100G", "1000m",
      "1024Mi", "3.75", "-1",    "0",     "7Ei", "0.0000000001", "16",   "128974848",
  };
  return kInputs;
}

void BM_ParseAndFormatMillion(benchmark::State& state) {
  const auto& in = inputs();
  for (auto _ : state) {
    std::size_t total = 0;
    for (int i = 0; i < 1000000; ++i) {
      auto q = vc::api::Quantity::parse(in[static_cast<std::size_t>(i) % in.size()]);
      total += q->canonical_string().size();
    }
    benchmark::DoNotOptimize(total);
  }
  state.SetItemsProcessed(state.iterations() * 1000000);
}
BENCHMARK(BM_ParseAndFormatMillion)->Unit(benchmark::kMillisecond);

void BM_Parse(benchmark::State& state) {
  const auto& in = inputs();
  std::size_t i = 0;
  for (auto _ : state) {
    auto q = vc::api::Quantity::parse(in[i++ % in.size()]);
    benchmark::DoNotOptimize(q);
  }
}
BENCHMARK(BM_Parse);

void BM_CanonicalString(benchmark::State& state) {
  std::vector<vc::api::Quantity> quantities;
  for (const auto& text : inputs()) quantities.push_back(vc::api::Quantity::must_parse(text));
  std::size_t i = 0;
  for (auto _ : state) {
    auto s = quantities[i++ % quantities.size()].canonical_string();
    benchmark::DoNotOptimize(s);
  }
}
BENCHMARK(BM_CanonicalString);

void BM_Add(benchmark::State& state) {
  const auto a = vc::api::Quantity::must_parse("1536Mi");
  const auto b = vc::api::Quantity::must_parse("250m");
  vc::api::Quantity sum;
  for (auto _ : state) {
    sum += a;
    sum -= b;
    benchmark::DoNotOptimize(sum);
  }
}
BENCHMARK(BM_Add);

}  // namespace

// Differential fuzzer for common/json/fast_parse: whenever the fast path answers, its tree must
// be nlohmann's, and parse_or_discarded (fast path or fallback) must agree with nlohmann on
// every input, with and without a dropped member. Any disagreement aborts.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/json/fast_parse.h"

namespace {

using nlohmann::json;
using vc::fastjson::identical;

void check(bool ok) {
  if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const json reference = json::parse(text.begin(), text.end(), nullptr, false);
  if (auto fast = vc::fastjson::try_parse(text)) {
    check(!reference.is_discarded() && identical(*fast, reference));
  }
  const json combined = vc::fastjson::parse_or_discarded(text);
  check(combined.is_discarded() == reference.is_discarded());
  check(reference.is_discarded() || identical(combined, reference));

  const json reference_dropped = json::parse(
      text.begin(), text.end(),
      [](int, json::parse_event_t event, json& parsed) {
        return !(event == json::parse_event_t::key && parsed == "name");
      },
      false);
  const json dropped = vc::fastjson::parse_or_discarded(text, "name");
  check(dropped.is_discarded() == reference_dropped.is_discarded());
  check(reference_dropped.is_discarded() || identical(dropped, reference_dropped));
  return 0;
}

// libFuzzer over the JSON watch-stream decoder (common/kube/watch_decoder): the bytes of one
// watch response body, as the API server's chunks may split it anywhere.
//
// Checked: the decoder never crashes and always answers; cutting the same bytes into other
// chunks (sizes drawn from the input) gives the same events and the same verdict; a decoder
// with an object filter and a known_version that holds every object accepts and rejects the
// same stream, and its head-only events name the same object and version as the full ones.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/json/member_filter.h"
#include "common/kube/watch_decoder.h"

namespace {

using nlohmann::json;
using vc::kube::WatchDecoder;
using vc::kube::WatchEvent;

void check(bool ok) {
  if (!ok) std::abort();
}

struct Outcome {
  std::vector<WatchEvent> events;
  bool ok = true;
  bool at_boundary = true;
};

// Feeds text in pieces whose sizes come from a small generator seeded by the input, so one
// input always splits the same way (reproducible) and different inputs split differently.
Outcome run(WatchDecoder& decoder, std::string_view text, uint32_t seed) {
  Outcome out;
  auto on_event = [&](WatchEvent&& ev) { out.events.push_back(std::move(ev)); };
  size_t pos = 0;
  while (pos < text.size()) {
    size_t n = text.size() - pos;
    if (seed != 0) {
      seed = seed * 1103515245u + 12345u;
      n = std::min<size_t>(n, 1 + (seed >> 16) % 17);
    }
    if (!decoder.feed(text.substr(pos, n), on_event)) {
      out.ok = false;
      return out;
    }
    pos += n;
  }
  out.at_boundary = decoder.at_boundary();
  return out;
}

std::string meta(const json& object, const char* key) {
  if (!object.is_object()) return {};
  auto m = object.find("metadata");
  if (m == object.end() || !m->is_object()) return {};
  auto v = m->find(key);
  return v != m->end() && v->is_string() ? v->get<std::string>() : std::string();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 64 * 1024) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  uint32_t seed = 2166136261u;  // FNV-1a of the input: the chunk sizes
  for (unsigned char c : text) seed = (seed ^ c) * 16777619u;
  seed |= 1;

  WatchDecoder whole;
  const Outcome a = run(whole, text, 0);
  WatchDecoder pieces;
  const Outcome b = run(pieces, text, seed);
  check(a.ok == b.ok);
  check(a.events.size() == b.events.size());
  for (size_t i = 0; i < a.events.size(); ++i) {
    check(a.events[i].type == b.events[i].type);
    check(a.events[i].object == b.events[i].object);
    check(!a.events[i].head_only && !b.events[i].head_only);
  }
  if (a.ok) check(a.at_boundary == b.at_boundary);

  // An informer's decoder: only some members built, and every object already known at the
  // version the event carries, so ADDED and MODIFIED events with a name and version arrive
  // head-only.
  const auto filter = vc::fastjson::MemberFilter::only({"metadata", "spec.nodeName", "status"});
  const std::function<bool(const vc::kube::WatchEventHead&)> known =
      [](const vc::kube::WatchEventHead&) { return true; };
  const std::function<bool()> anything = [] { return true; };
  WatchDecoder informer(&filter, &known, &anything);
  const Outcome c = run(informer, text, seed);
  check(a.ok == c.ok);
  check(a.events.size() == c.events.size());
  for (size_t i = 0; i < a.events.size(); ++i) {
    check(a.events[i].type == c.events[i].type);
    if (!c.events[i].head_only) continue;
    check(c.events[i].type == WatchEvent::Type::Added ||
          c.events[i].type == WatchEvent::Type::Modified);
    for (const char* key : {"namespace", "name", "resourceVersion"}) {
      check(meta(a.events[i].object, key) == meta(c.events[i].object, key));
    }
  }
  return 0;
}

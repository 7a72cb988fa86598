#pragma once
// WatchDecoder: splits a watch response body into events. The API server writes one JSON object
// per event (newline-terminated), but chunk boundaries fall anywhere: an event may span many
// chunks and a chunk may hold many events. Framing follows JSON structure (braces outside
// strings), so it needs no newlines and never parses a partial event.
//
// Thread-safety: one instance per stream, used by one thread.

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "common/json/member_filter.h"
#include "common/kube/client.h"
#include "common/kube/result.h"

namespace vc::kube {

class WatchDecoder {
 public:
  // object_filter: the members of each event's object to build (see WatchOptions); null = all
  // but metadata.managedFields. Not owned; must outlive the decoder.
  // known_version, anything_known: see WatchOptions; null or empty = build every event, ask
  // known_version about every event. Not owned; must outlive the decoder.
  explicit WatchDecoder(const fastjson::MemberFilter* object_filter = nullptr,
                        const std::function<bool(const WatchEventHead&)>* known_version = nullptr,
                        const std::function<bool()>* anything_known = nullptr);

  // Feeds the next bytes and calls on_event for each complete event in order. Returns an error
  // (and stops) on bytes that are not a JSON object or an event that cannot be decoded.
  Status feed(std::string_view data, const std::function<void(WatchEvent&&)>& on_event);
  // True when no partial event is buffered (a clean place for the stream to end).
  bool at_boundary() const { return depth_ == 0 && pending_.empty(); }
  std::size_t buffered_bytes() const { return pending_.size(); }

 private:
  Status emit(std::string_view frame, const std::function<void(WatchEvent&&)>& on_event);

  // The event's type and its object's namespace, name and resourceVersion, as a head_only event
  // if known_version_ says so. False (and out untouched) when the event is to be built whole.
  bool decode_known_head(std::string_view frame, WatchEvent& out) const;

  fastjson::MemberFilter event_filter_;  // from object_filter; by default keeps everything
  const std::function<bool(const WatchEventHead&)>* known_version_ = nullptr;
  const std::function<bool()>* anything_known_ = nullptr;  // null when known_version_ is
  std::string pending_;  // bytes of the event in progress that arrived in earlier chunks
  int depth_ = 0;        // nesting depth of the event in progress; 0 between events
  bool in_string_ = false;
  bool escape_ = false;
};

// Decodes one event object {"type": "...", "object": {...}}, building only what event_filter
// keeps (by default all), never metadata.managedFields.
Result<WatchEvent> decode_watch_event(std::string_view frame,
                                      const fastjson::MemberFilter& event_filter = {});

// The filter of a whole event for a filter of its object: the type, the filtered object, and of
// an ERROR event's Status object the members that say what went wrong.
fastjson::MemberFilter watch_event_filter(const fastjson::MemberFilter& object_filter);

}  // namespace vc::kube

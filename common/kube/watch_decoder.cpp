#include "common/kube/watch_decoder.h"

#include <cstring>

#include "common/json/fast_parse.h"
#include "common/kube/errors.h"

namespace vc::kube {
namespace {

std::string excerpt(std::string_view s) {
  constexpr std::size_t kMax = 120;
  return s.size() <= kMax ? std::string(s) : std::string(s.substr(0, kMax)) + "...";
}

}  // namespace

fastjson::MemberFilter watch_event_filter(const fastjson::MemberFilter& object_filter) {
  auto f = fastjson::MemberFilter::only({"type"});
  f.member("object") = object_filter;
  // A Status's "metadata" and "status" are on the object filter's paths or left out: its
  // "status" is a string ("Failure"), kept as it is wherever the filter reaches it.
  for (const char* status_member : {"kind", "apiVersion", "code", "reason", "message", "details"}) {
    f.keep(std::string("object.") + status_member);
  }
  return f;
}

WatchDecoder::WatchDecoder(const fastjson::MemberFilter* object_filter,
                           const std::function<bool(const WatchEventHead&)>* known_version,
                           const std::function<bool()>* anything_known)
    : known_version_(known_version && *known_version ? known_version : nullptr),
      anything_known_(known_version_ && anything_known && *anything_known ? anything_known
                                                                          : nullptr) {
  if (object_filter && !object_filter->keeps_all())
    event_filter_ = watch_event_filter(*object_filter);
}

Result<WatchEvent> decode_watch_event(std::string_view frame,
                                      const fastjson::MemberFilter& event_filter) {
  // No informer keeps managedFields (a third of a pod's JSON): never build it.
  json j = fastjson::parse_or_discarded(frame, event_filter, "managedFields");
  if (j.is_discarded() || !j.is_object()) {
    return transport_error("watch: invalid JSON event: " + excerpt(frame));
  }
  auto type = j.find("type");
  auto object = j.find("object");
  if (type == j.end() || !type->is_string() || object == j.end()) {
    return transport_error("watch: event without type or object: " + excerpt(frame));
  }
  const auto& t = type->get_ref<const std::string&>();
  WatchEvent ev;
  if (t == "ADDED") {
    ev.type = WatchEvent::Type::Added;
  } else if (t == "MODIFIED") {
    ev.type = WatchEvent::Type::Modified;
  } else if (t == "DELETED") {
    ev.type = WatchEvent::Type::Deleted;
  } else if (t == "BOOKMARK") {
    ev.type = WatchEvent::Type::Bookmark;
  } else if (t == "ERROR") {
    ev.type = WatchEvent::Type::Error;
  } else {
    return transport_error("watch: unknown event type \"" + t + "\"");
  }
  ev.object = std::move(*object);
  return ev;
}

bool WatchDecoder::decode_known_head(std::string_view frame, WatchEvent& out) const {
  // Skimming the event for four strings costs a fraction of building it: nothing else is
  // allocated. A frame that does not skim cleanly is left to the full decode to report.
  static const auto head_filter =
      fastjson::MemberFilter::only({"type", "object.metadata.namespace", "object.metadata.name",
                                    "object.metadata.resourceVersion"});
  json head = fastjson::parse_or_discarded(frame, head_filter, "managedFields");
  if (head.is_discarded() || !head.is_object()) return false;
  const auto type = head.find("type");
  if (type == head.end() || !type->is_string()) return false;
  WatchEventHead h;
  if (*type == "ADDED") {
    h.type = WatchEvent::Type::Added;
  } else if (*type == "MODIFIED") {
    h.type = WatchEvent::Type::Modified;
  } else {
    return false;
  }
  const auto object = head.find("object");
  if (object == head.end() || !object->is_object()) return false;
  const auto meta = object->find("metadata");
  if (meta == object->end() || !meta->is_object()) return false;
  auto text = [&](const char* key) -> std::string_view {
    auto it = meta->find(key);
    return it != meta->end() && it->is_string()
               ? std::string_view(it->get_ref<const std::string&>())
               : std::string_view();
  };
  h.namespace_ = text("namespace");
  h.name = text("name");
  h.resource_version = text("resourceVersion");
  if (h.name.empty() || h.resource_version.empty() || !(*known_version_)(h)) return false;
  out.type = h.type;
  out.head_only = true;
  out.object = std::move(*object);
  return true;
}

Status WatchDecoder::emit(std::string_view frame,
                          const std::function<void(WatchEvent&&)>& on_event) {
  if (known_version_ && (!anything_known_ || (*anything_known_)())) {
    WatchEvent known;
    if (decode_known_head(frame, known)) {
      on_event(std::move(known));
      return ok_status();
    }
  }
  auto ev = decode_watch_event(frame, event_filter_);
  if (!ev) return ev.error();
  on_event(std::move(ev).value());
  return ok_status();
}

Status WatchDecoder::feed(std::string_view data,
                          const std::function<void(WatchEvent&&)>& on_event) {
  // Start of the event in progress within data; npos when it began in an earlier chunk.
  std::size_t start = depth_ > 0 ? std::string_view::npos : 0;
  for (std::size_t i = 0; i < data.size(); ++i) {
    const char c = data[i];
    if (depth_ == 0) {
      if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
      if (c != '{') {
        return transport_error("watch: unexpected data between events: " + excerpt(data.substr(i)));
      }
      start = i;
      depth_ = 1;
      continue;
    }
    if (in_string_) {
      if (escape_) {
        escape_ = false;
        continue;
      }
      // Most of an object's bytes are inside strings: jump to the string's next quote or
      // backslash with memchr (vectorised) instead of looking at every byte.
      const char* base = data.data();
      const auto* quote = static_cast<const char*>(std::memchr(base + i, '"', data.size() - i));
      const std::size_t until =
          quote != nullptr ? static_cast<std::size_t>(quote - base) : data.size();
      if (const void* bs = std::memchr(base + i, '\\', until - i)) {
        i = static_cast<std::size_t>(static_cast<const char*>(bs) - base);
        escape_ = true;  // the next byte, maybe in the next chunk, is escaped
      } else if (quote != nullptr) {
        i = until;
        in_string_ = false;
      } else {
        i = data.size();  // the string goes on in the next chunk
      }
      continue;
    }
    if (c == '"') {
      in_string_ = true;
    } else if (c == '{' || c == '[') {
      ++depth_;
    } else if (c == '}' || c == ']') {
      if (--depth_ > 0) continue;
      Status st = ok_status();
      if (start == std::string_view::npos) {
        // The event began in an earlier chunk: complete the buffered copy.
        pending_.append(data.substr(0, i + 1));
        st = emit(pending_, on_event);
        pending_.clear();
      } else {
        st = emit(data.substr(start, i + 1 - start), on_event);  // no copy
      }
      if (!st) return st;
      start = std::string_view::npos;
    }
  }
  if (depth_ > 0) pending_.append(start == std::string_view::npos ? data : data.substr(start));
  return ok_status();
}

}  // namespace vc::kube

#include "controllers/job/request_codec.h"

#include <charconv>
#include <string_view>
#include <vector>

namespace vc::controllers::job {

namespace {

// The unit separator cannot appear in Kubernetes names, UIDs, task names or event/action
// strings (all are DNS labels or identifiers), so it splits fields unambiguously.
constexpr char kSep = '\x1f';
constexpr std::size_t kFields = 11;

std::optional<std::int32_t> parse_int(std::string_view s) {
  std::int32_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace

std::string encode_request(const Request& r) {
  std::string out;
  out.reserve(r.namespace_.size() + r.job_name.size() + r.job_uid.size() + r.task_name.size() +
              r.pod_name.size() + r.pod_uid.size() + r.partition_id.size() + r.event.size() +
              r.action.size() + 32);
  for (const std::string* s : {&r.namespace_, &r.job_name, &r.job_uid, &r.task_name, &r.pod_name,
                               &r.pod_uid, &r.partition_id, &r.event, &r.action}) {
    out += *s;
    out += kSep;
  }
  out += std::to_string(r.exit_code);
  out += kSep;
  out += std::to_string(r.job_version);
  return out;
}

std::optional<Request> decode_request(const std::string& key) {
  std::vector<std::string_view> parts;
  std::string_view rest = key;
  while (true) {
    const auto pos = rest.find(kSep);
    if (pos == std::string_view::npos) {
      parts.push_back(rest);
      break;
    }
    parts.push_back(rest.substr(0, pos));
    rest.remove_prefix(pos + 1);
  }
  if (parts.size() != kFields) return std::nullopt;
  Request r;
  std::string* fields[] = {&r.namespace_, &r.job_name,     &r.job_uid, &r.task_name, &r.pod_name,
                           &r.pod_uid,    &r.partition_id, &r.event,   &r.action};
  for (std::size_t i = 0; i < 9; ++i) fields[i]->assign(parts[i]);
  auto exit_code = parse_int(parts[9]);
  auto version = parse_int(parts[10]);
  if (!exit_code || !version) return std::nullopt;
  r.exit_code = *exit_code;
  r.job_version = *version;
  return r;
}

}  // namespace vc::controllers::job

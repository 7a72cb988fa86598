#include "bench/webhook/review_template.h"

#include <algorithm>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace vc::bench {
namespace {

// Never appears in a JSON text written by nlohmann unless we put it there: '@' is not escaped
// and no Kubernetes field produces this run of characters.
constexpr std::string_view kMarker = "@@vc-bench-uid-placeholder-36-chars@";
static_assert(kMarker.size() == kUidLength);

constexpr std::string_view kZeroUid = "00000000-0000-0000-0000-000000000000";
static_assert(kZeroUid.size() == kUidLength);

void write_hex(std::uint64_t value, int digits, char* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  for (int i = digits - 1; i >= 0; --i) {
    out[i] = kHex[value & 0xf];
    value >>= 4;
  }
}

const nlohmann::json* find_path(const nlohmann::json& j, std::initializer_list<const char*> keys) {
  const nlohmann::json* cur = &j;
  for (const char* key : keys) {
    if (!cur->is_object()) return nullptr;
    auto it = cur->find(key);
    if (it == cur->end()) return nullptr;
    cur = &*it;
  }
  return cur;
}

}  // namespace

BodySpec parse_body_spec(std::string_view spec) {
  BodySpec out;
  const auto last_colon = spec.rfind(':');
  if (last_colon != std::string_view::npos) {
    const std::string_view tail = spec.substr(last_colon + 1);
    if (tail == "allowed" || tail == "denied") {
      out.expect_allowed = tail == "allowed";
      spec = spec.substr(0, last_colon);
    }
  }
  const auto split = spec.rfind(":/");
  if (split == std::string_view::npos || split == 0) {
    throw std::invalid_argument("--body '" + std::string(spec) +
                                "': expected FILE:PATH[:allowed|denied] with PATH starting "
                                "with '/'");
  }
  out.file = std::string(spec.substr(0, split));
  out.path = std::string(spec.substr(split + 1));
  if (out.path.find_first_of(" \r\n:") != std::string::npos) {
    throw std::invalid_argument("--body: bad URL path '" + out.path + "'");
  }
  return out;
}

void format_uid(std::uint32_t run, std::uint32_t connection, std::uint64_t sequence,
                std::span<char, kUidLength> out) {
  char* p = out.data();
  write_hex(run, 8, p);
  p[8] = '-';
  write_hex(connection & 0xffff, 4, p + 9);
  std::copy_n("-4000-8000-", 11, p + 13);
  write_hex(sequence & 0xffff'ffff'ffffULL, 12, p + 24);
}

ReviewTemplate ReviewTemplate::parse(std::string_view json_text) {
  nlohmann::json review = nlohmann::json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (review.is_discarded()) throw std::invalid_argument("review: not valid JSON");
  if (!review.is_object()) throw std::invalid_argument("review: not a JSON object");
  if (review.value("kind", "") != "AdmissionReview" ||
      review.value("apiVersion", "") != "admission.k8s.io/v1") {
    throw std::invalid_argument(
        "review: expected kind AdmissionReview and apiVersion admission.k8s.io/v1");
  }
  const nlohmann::json* uid = find_path(review, {"request", "uid"});
  if (uid == nullptr || !uid->is_string()) {
    throw std::invalid_argument("review: request.uid (a string) is missing");
  }
  ReviewTemplate t;
  const nlohmann::json* kind = find_path(review, {"request", "kind", "kind"});
  const nlohmann::json* op = find_path(review, {"request", "operation"});
  t.description_ = (kind && kind->is_string() ? kind->get<std::string>() : std::string("?")) + " " +
                   (op && op->is_string() ? op->get<std::string>() : std::string("?"));

  review["request"]["uid"] = std::string(kMarker);
  t.body_ = review.dump();
  t.uid_offset_ = t.body_.find(kMarker);
  if (t.uid_offset_ == std::string::npos ||
      t.body_.find(kMarker, t.uid_offset_ + 1) != std::string::npos) {
    throw std::invalid_argument("review: the uid placeholder must occur exactly once");
  }
  t.body_.replace(t.uid_offset_, kUidLength, kZeroUid);
  return t;
}

void ReviewTemplate::write_uid(std::string& body, std::span<const char, kUidLength> uid) const {
  if (body.size() != body_.size()) {
    throw std::logic_error("ReviewTemplate::write_uid: body is not a copy of this template");
  }
  std::copy(uid.begin(), uid.end(), body.begin() + static_cast<std::ptrdiff_t>(uid_offset_));
}

}  // namespace vc::bench

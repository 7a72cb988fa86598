#include "webhook/server/review_codec.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <utility>

#include <nlohmann/json.hpp>

#include "common/go/json_types/json_types.h"
#include "common/json/fast_parse.h"
#include "common/json/member_filter.h"
#include "common/json/release.h"
#include "webhook/admission/field_error.h"

namespace vc::webhook::server {
namespace {

using api::ok_status;
using api::Unexpected;
using nlohmann::json;

// Go's decoder treats a `null` value like an absent field.
json* present(json& object, const char* key) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return nullptr;
  return &*it;
}

// Copies object[key] into out when present; an error naming the field when it is no string.
api::Status read_string(json& object, const char* key, std::string_view where, std::string& out) {
  json* v = present(object, key);
  if (v == nullptr) return ok_status();
  if (!v->is_string()) return Unexpected{std::string(where) + key + " must be a string"};
  out = std::move(v->get_ref<std::string&>());
  return ok_status();
}

// The value must be an object when present (a Go struct field); its content is not kept.
api::Status check_object(json& object, const char* key, std::string_view where) {
  json* v = present(object, key);
  if (v != nullptr && !v->is_object())
    return Unexpected{std::string(where) + key + " must be an object"};
  return ok_status();
}

// Nesting depth before parsing, so that hostile input cannot make the parser, or an admit
// function walking the tree, recurse without bound: Go's limit, go::kMaxJsonDepth. Only brackets
// outside strings count. Signed: a stray closing bracket takes it below zero.
bool too_deep(std::string_view body) {
  constexpr auto kMaxDepth = static_cast<std::ptrdiff_t>(go::kMaxJsonDepth);
  std::ptrdiff_t depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < body.size(); ++i) {
    const char c = body[i];
    if (in_string) {
      if (c == '\\') {
        ++i;  // the escaped character cannot end the string
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxDepth) return true;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return false;
}

// Counts the values of a document without building it, and stops past max: the slow path's
// check before nlohmann builds the tree. (A parser callback could count while building, but
// nlohmann's callback parser rescans an array on each object that ends in it: quadratic on
// [{},{},...].) A syntax error stops the count too; the parse that follows reports it.
class ValueCounter final : public json::json_sax_t {
 public:
  explicit ValueCounter(std::size_t max) : max_(max) {}
  bool over() const { return values_ > max_; }

  bool null() override { return count(); }
  bool boolean(bool) override { return count(); }
  bool number_integer(number_integer_t) override { return count(); }
  bool number_unsigned(number_unsigned_t) override { return count(); }
  bool number_float(number_float_t, const string_t&) override { return count(); }
  bool string(string_t&) override { return count(); }
  bool binary(binary_t&) override { return count(); }
  bool start_object(std::size_t) override { return count(); }
  bool key(string_t&) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return count(); }
  bool end_array() override { return true; }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;
  }

 private:
  bool count() { return ++values_ <= max_; }
  const std::size_t max_;
  std::size_t values_ = 0;
};

bool too_many_values(std::string_view body, std::size_t max_values) {
  ValueCounter counter(max_values);
  json::sax_parse(body.begin(), body.end(), &counter);
  return counter.over();
}

// A value in the tree: 16 bytes in its parent, and for an object its map (about 80 bytes with
// the allocator's overhead) and for each member a map node (about 100): 128 bounds the costliest
// kind. A tree holds at most 48 bytes per body byte: "{}," is 3 bytes for one of the costliest
// values (whose 16 bytes in an array may double with the vector's growth).
constexpr std::size_t kTreeBytesPerValue = 128;
constexpr std::size_t kTreeBytesPerBodyByte = 48;

// nlohmann's what() is "[json.exception.parse_error.101] parse error at line 1, column 2: <why>";
// the position is reported separately, so keep only <why>.
std::string parse_reason(const char* what) {
  const std::string_view text(what);
  const auto at = text.find("parse error");
  const auto colon = at == std::string_view::npos ? at : text.find(": ", at);
  return std::string(colon == std::string_view::npos ? text : text.substr(colon + 2));
}

// nlohmann's what() for other errors is "[json.exception.<kind>.<id>] <why>"; keep only <why>.
std::string exception_reason(const char* what) {
  const std::string_view text(what);
  const auto end = text.find("] ");
  return std::string(end == std::string_view::npos ? text : text.substr(end + 2));
}

api::Status decode_resource(json& request, GroupVersionResource& out) {
  json* resource = present(request, "resource");
  if (resource == nullptr) return ok_status();
  if (!resource->is_object()) return Unexpected{"request.resource must be an object"};
  for (auto [key, field] : {std::pair{"group", &out.group}, std::pair{"version", &out.version},
                            std::pair{"resource", &out.resource}}) {
    if (auto read = read_string(*resource, key, "request.resource.", *field); !read) return read;
  }
  return ok_status();
}

api::Status decode_request(json& request, AdmissionRequest& out) {
  constexpr std::string_view kWhere = "request.";
  const std::pair<const char*, std::string*> strings[] = {
      {"uid", &out.uid},
      {"subResource", &out.sub_resource},
      {"name", &out.name},
      {"namespace", &out.namespace_},
      {"operation", &out.operation},
  };
  for (auto [key, field] : strings) {
    if (auto read = read_string(request, key, kWhere, *field); !read) return read;
  }
  if (out.uid.empty()) return Unexpected{"request.uid is missing"};
  if (auto resource = decode_resource(request, out.resource); !resource) return resource;
  for (const char* key : {"kind", "requestKind", "requestResource", "userInfo"}) {
    if (auto checked = check_object(request, key, kWhere); !checked) return checked;
  }
  std::string ignored;
  if (auto read = read_string(request, "requestSubResource", kWhere, ignored); !read) return read;
  if (json* dry_run = present(request, "dryRun")) {
    if (!dry_run->is_boolean()) return Unexpected{"request.dryRun must be a boolean"};
    out.dry_run = dry_run->get<bool>();
  }
  if (json* object = present(request, "object")) out.object = std::move(*object);
  if (json* old_object = present(request, "oldObject")) out.old_object = std::move(*old_object);
  return ok_status();
}

// A top-level apiVersion or kind may be absent; when present it must be the expected one.
api::Status check_type_field(json& review, const char* key, std::string_view want) {
  json* v = present(review, key);
  if (v == nullptr || (v->is_string() && v->get_ref<const std::string&>() == want))
    return ok_status();
  return Unexpected{std::string(key) + " must be " + std::string(want) + ", got " +
                    go::marshal_json(*v)};
}

// What the parser checks but does not build, since no admit rule reads it:
// - the object's managedFields, the API server's bookkeeping, which Volcano's Go types leave out
//   too (and our ObjectMeta, common/go/json_types/object_meta.cpp): a tenth of a job review's
//   members and a fifth of a queue review's;
// - who asked (userInfo's members; userInfo itself stays, to be checked as an object).
const fastjson::MemberFilter& review_filter() {
  static const auto filter = fastjson::MemberFilter::all_but(
      {"request.object.metadata.managedFields", "request.oldObject.metadata.managedFields",
       "request.userInfo.username", "request.userInfo.uid", "request.userInfo.groups",
       "request.userInfo.extra"});
  return filter;
}

}  // namespace

std::size_t decode_working_set(std::size_t body_size, const ReviewLimits& limits) {
  const std::size_t by_values =
      limits.max_values > (std::numeric_limits<std::size_t>::max() - body_size) / kTreeBytesPerValue
          ? std::numeric_limits<std::size_t>::max()
          : limits.max_values * kTreeBytesPerValue + body_size;
  return std::min(body_size * kTreeBytesPerBodyByte, by_values);
}

api::Expected<AdmissionRequest> decode_review(std::string_view body, const ReviewLimits& limits) {
  // What the fast parser takes nests at most fastjson::kMaxFastDepth deep, within the limit, so
  // the depth scan (a pass over the whole body) is only for the rest, before nlohmann's parser.
  static_assert(fastjson::kMaxFastDepth <= go::kMaxJsonDepth);
  json review;
  if (auto fast = fastjson::try_parse(body, review_filter(), {}, limits.max_values)) {
    review = std::move(*fast);
  } else if (too_deep(body)) {
    return Unexpected{std::string(kTooDeepError) + " of " + std::to_string(go::kMaxJsonDepth)};
  } else {
    if (too_many_values(body, limits.max_values)) {
      return Unexpected{std::string(kTooManyValuesError) + ": more than " +
                        std::to_string(limits.max_values) + " (--max-review-values)"};
    }
    try {
      review = json::parse(body);
      fastjson::prune(review, review_filter());  // the same document as the fast path's
    } catch (const json::parse_error& e) {
      // Untrusted input: a parse failure is an answer for the client, not an exception for ours.
      return Unexpected{"invalid JSON at offset " + std::to_string(e.byte) + ": " +
                        parse_reason(e.what())};
    } catch (const json::out_of_range& e) {
      // Valid JSON that nlohmann cannot hold: a number beyond double's range, such as 1e309.
      return Unexpected{"JSON number out of range: " + exception_reason(e.what())};
    }
  }
  if (!review.is_object()) return Unexpected{"AdmissionReview must be a JSON object"};
  if (auto checked = check_type_field(review, "apiVersion", kReviewApiVersion); !checked) {
    return Unexpected{checked.error()};
  }
  if (auto checked = check_type_field(review, "kind", kReviewKind); !checked) {
    return Unexpected{checked.error()};
  }
  json* request = present(review, "request");
  if (request == nullptr) return Unexpected{"request is missing"};
  if (!request->is_object()) return Unexpected{"request must be an object"};
  AdmissionRequest out;
  // Every path above refused a review nested deeper than go::kMaxJsonDepth; object and oldObject
  // sit two levels down in it.
  out.nesting_bounded = true;
  if (auto decoded = decode_request(*request, out); !decoded) return Unexpected{decoded.error()};
  // What was not moved into `out` (kinds, resources, options), freed without the destructor's
  // heap stack (release.h): 3 % fewer instructions per queue review.
  fastjson::release(review);
  return out;
}

std::string encode_review(std::string_view uid, const AdmissionResponse& response) {
  const json& patch = response.patch;
  if (!patch.is_null() && !patch.is_array()) {
    throw std::logic_error("admission response patch must be a JSON array, got " +
                           std::string(patch.type_name()));
  }
  std::string out;
  out.reserve(256 + response.message.size());
  out += R"({"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1","response":{"uid":)";
  out += go::marshal_json(json(std::string(uid)));
  out += response.allowed ? R"(,"allowed":true)" : R"(,"allowed":false)";
  if (!response.allowed) {
    // metav1.Status: ListMeta is a non-pointer struct, so "metadata":{} is always written;
    // message is omitempty.
    out += R"(,"status":{"metadata":{})";
    if (!response.message.empty()) {
      out += R"(,"message":)";
      out += go::marshal_json(json(response.message));
    }
    out += '}';
  }
  if (patch.is_array() && !patch.empty()) {
    out += R"(,"patch":")";
    out += base64_encode(go::marshal_json(patch));
    out += R"(","patchType":"JSONPatch")";
  }
  if (!response.warnings.empty()) {
    out += R"(,"warnings":)";
    out += go::marshal_json(json(response.warnings));
  }
  out += "}}";
  return out;
}

}  // namespace vc::webhook::server

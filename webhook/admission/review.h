#pragma once
// The admission request and response as the admit functions see them: plain data, decoded from
// and encoded to an admission.k8s.io/v1 AdmissionReview by review_codec.h.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace vc::webhook {

using nlohmann::json;

struct GroupVersionResource {
  std::string group;
  std::string version;
  std::string resource;
  bool operator==(const GroupVersionResource&) const = default;
};

struct AdmissionRequest {
  std::string uid;
  GroupVersionResource resource;
  std::string sub_resource;
  std::string name;
  std::string namespace_;
  std::string operation;  // "CREATE", "UPDATE", "DELETE" or "CONNECT"
  json object;            // null when absent (DELETE)
  json old_object;        // null when absent (CREATE)
  bool dry_run = false;
  // request.userInfo is checked to be an object but not kept: no admit rule reads who asked
  // (review_codec.cpp). A rule that needs it adds a field here and to the decoder's filter.
  // True when the decoder has already refused documents nested deeper than Go accepts (10000
  // levels, review_codec.h), so an admit function need not measure object and old_object again.
  bool nesting_bounded = false;
};

struct AdmissionResponse {
  bool allowed = true;
  std::string message;  // status.message of a denial
  // JSON Patch operations. Volcano answers some mutations that change nothing with the literal
  // patch `null`; we send no patch instead (docs/compat.md), so an empty array means "no patch".
  json patch = json::array();
  std::vector<std::string> warnings;

  static AdmissionResponse allow() { return {}; }
  static AdmissionResponse deny(std::string message) {
    AdmissionResponse r;
    r.allowed = false;
    r.message = std::move(message);
    return r;
  }
  static AdmissionResponse mutate(json operations) {
    AdmissionResponse r;
    r.patch = std::move(operations);
    return r;
  }
};

}  // namespace vc::webhook

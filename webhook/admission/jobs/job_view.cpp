#include "webhook/admission/jobs/job_view.h"

#include "common/volcano/go_types.h"

#include "common/volcano/job_decode.h"

namespace vc::webhook::jobs {

api::Expected<const json*> checked_object(const json& object, const go::GoType& type,
                                          bool nesting_bounded) {
  static const json kEmptyObject = json::object();
  if (object.is_null()) return &kEmptyObject;
  // Go's decoder gives up beyond 10000 levels; refusing early also keeps every recursive
  // walk below (comparison, serialisation) within a small stack.
  if (!nesting_bounded && go::json_depth(object) > go::kMaxJsonDepth) {
    return api::Unexpected{"exceeded max depth"};
  }
  if (auto err = go::check_go_types(object, type)) return api::Unexpected{*err};
  if (!object.is_object()) return &kEmptyObject;
  return &object;
}

namespace {

// A null value with static lifetime, for references to absent JSON members.
const json& null_json() {
  static const json kNull;
  return kNull;
}

}  // namespace

const json& child_at(const json& obj, const char* key) {
  if (!obj.is_object()) return null_json();
  // As a string_view: a const char* key would be strlen()ed at every comparison of the search.
  auto it = obj.find(std::string_view(key));
  return it == obj.end() ? null_json() : *it;
}

std::string str_at(const json& obj, const char* key) {
  const json& v = child_at(obj, key);
  return v.is_string() ? v.get<std::string>() : std::string();
}

std::int64_t int_at(const json& obj, const char* key) {
  const json& v = child_at(obj, key);
  if (v.is_number_integer()) return v.get<std::int64_t>();
  return 0;
}

bool bool_at(const json& obj, const char* key) {
  const json& v = child_at(obj, key);
  return v.is_boolean() && v.get<bool>();
}

std::vector<std::string> strings_at(const json& obj, const char* key) {
  std::vector<std::string> out;
  const json& v = child_at(obj, key);
  if (!v.is_array()) return out;
  for (const auto& e : v) out.push_back(e.is_string() ? e.get<std::string>() : std::string());
  return out;
}

api::Expected<Job> decode_job(const json& object, bool nesting_bounded) {
  auto checked = checked_object(object, volcano::go_types::job(), nesting_bounded);
  if (!checked) return api::Unexpected{checked.error()};
  return volcano::decode_or_error<Job>([&] {
    Job job;
    volcano::decode_job(**checked, job, volcano::TemplateMode::kBorrow);
    return job;
  });
}

}  // namespace vc::webhook::jobs

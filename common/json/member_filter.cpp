#include "common/json/member_filter.h"

#include <stdexcept>

namespace vc::fastjson {

MemberFilter MemberFilter::only(std::initializer_list<std::string_view> paths) {
  MemberFilter f;
  f.all_ = false;
  for (std::string_view p : paths) f.keep(p);
  return f;
}

void MemberFilter::keep(std::string_view path) {
  if (path.empty()) throw std::invalid_argument("member filter: empty path");
  MemberFilter* node = this;
  std::string_view rest = path;
  for (;;) {
    // A node that keeps everything already covers all paths beneath it.
    if (node->all_) return;
    const std::size_t dot = rest.find('.');
    const std::string_view name = rest.substr(0, dot);
    if (name.empty()) {
      throw std::invalid_argument("member filter: empty member name in path \"" +
                                  std::string(path) + "\"");
    }
    if (dot == std::string_view::npos) {
      node->member(name) = MemberFilter();  // the whole member: drop narrower paths beneath it
      return;
    }
    node = &node->member(name);
    rest = rest.substr(dot + 1);
  }
}

MemberFilter& MemberFilter::member(std::string_view name) {
  if (name.empty()) throw std::invalid_argument("member filter: empty member name");
  all_ = false;
  auto it = members_.find(name);
  if (it == members_.end()) {
    MemberFilter narrow;
    narrow.all_ = false;
    it = members_.emplace(std::string(name), std::move(narrow)).first;
  }
  return it->second;
}

void prune(nlohmann::json& value, const MemberFilter& filter) {
  if (filter.keeps_all()) return;
  if (value.is_array()) {
    for (auto& element : value) prune(element, filter);
    return;
  }
  if (!value.is_object()) return;
  auto& members = value.get_ref<nlohmann::json::object_t&>();
  for (auto it = members.begin(); it != members.end();) {
    const MemberFilter* sub = filter.find(it->first);
    if (!sub) {
      it = members.erase(it);
      continue;
    }
    prune(it->second, *sub);
    ++it;
  }
}

}  // namespace vc::fastjson

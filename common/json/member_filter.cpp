#include "common/json/member_filter.h"

#include <stdexcept>

namespace vc::fastjson {

MemberFilter MemberFilter::only(std::initializer_list<std::string_view> paths) {
  MemberFilter f;
  f.all_ = false;
  for (std::string_view p : paths) f.keep(p);
  return f;
}

MemberFilter MemberFilter::all_but(std::initializer_list<std::string_view> paths) {
  MemberFilter f;
  f.all_ = false;
  f.open_ = true;
  for (std::string_view path : paths) {
    if (path.empty()) throw std::invalid_argument("member filter: empty path");
    MemberFilter* node = &f;
    std::string_view rest = path;
    for (;;) {
      const std::size_t dot = rest.find('.');
      const std::string_view name = rest.substr(0, dot);
      if (name.empty()) {
        throw std::invalid_argument("member filter: empty member name in path \"" +
                                    std::string(path) + "\"");
      }
      auto it = node->members_.find(name);
      if (it == node->members_.end()) {
        MemberFilter open;
        open.all_ = false;
        open.open_ = true;
        it = node->members_.emplace(std::string(name), std::move(open)).first;
      }
      MemberFilter& child = it->second;
      if (child.dropped_) break;  // a shorter path already leaves out the whole member
      if (dot == std::string_view::npos) {
        child.dropped_ = true;
        child.members_.clear();
        break;
      }
      node = &child;
      rest = rest.substr(dot + 1);
    }
  }
  return f;
}

const MemberFilter& MemberFilter::keep_everything() {
  static const MemberFilter everything;
  return everything;
}

void MemberFilter::keep(std::string_view path) {
  if (open_) throw std::logic_error("member filter: keep() on a filter made by all_but()");
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

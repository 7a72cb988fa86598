#include "common/json/member_filter.h"

#include <stdexcept>

namespace vc::fastjson {

namespace {

// The member names of a dotted path, one at a time, so that a caller that stops early (a node
// that keeps everything) checks no further. Throws std::invalid_argument for an empty path or
// an empty member name.
class PathNames {
 public:
  explicit PathNames(std::string_view path) : path_(path), rest_(path) {
    if (path.empty()) throw std::invalid_argument("member filter: empty path");
  }

  // The next name; `last` is set when it ends the path.
  std::string_view next(bool& last) {
    const std::size_t dot = rest_.find('.');
    const std::string_view name = rest_.substr(0, dot);
    if (name.empty()) {
      throw std::invalid_argument("member filter: empty member name in path \"" +
                                  std::string(path_) + "\"");
    }
    last = dot == std::string_view::npos;
    rest_ = last ? std::string_view() : rest_.substr(dot + 1);
    return name;
  }

 private:
  std::string_view path_;
  std::string_view rest_;
};

}  // namespace

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
    PathNames names(path);
    MemberFilter* node = &f;
    for (bool last = false; !last;) {
      const std::string_view name = names.next(last);
      auto it = node->members_.find(name);
      if (it == node->members_.end()) {
        MemberFilter open;
        open.all_ = false;
        open.open_ = true;
        it = node->members_.emplace(std::string(name), std::move(open)).first;
      }
      node = &it->second;
      if (node->dropped_) break;  // a shorter path already leaves out the whole member
    }
    if (!node->dropped_) {
      node->dropped_ = true;
      node->members_.clear();
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
  PathNames names(path);
  MemberFilter* node = this;
  for (bool last = false; !last;) {
    // A node that keeps everything already covers all paths beneath it.
    if (node->all_) return;
    node = &node->member(names.next(last));
  }
  *node = MemberFilter();  // the whole member: drop narrower paths beneath it
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

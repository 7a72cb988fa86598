#pragma once
// MemberFilter: which object members a JSON parse builds; the rest are checked and skipped.
//
// Why: an informer whose transform reads a dozen fields of a pod (its view) still had the parser
// build the whole pod (containers' images, env, volumes, probes, conditions...) as an nlohmann
// tree, only to free it a moment later. Most of the controller-manager's parse time and a large
// part of its malloc traffic went to members nothing reads. The transform now names the members
// it reads and the parser builds only those.
//
//   auto f = MemberFilter::only({"metadata.name", "spec.containers.resources", "status.phase"});
//   json pod = fastjson::parse(text, f);   // {"metadata":{"name":..},"spec":{"containers":
//                                          //  [{"resources":..}, ..]},"status":{"phase":..}}
//
// A path is member names separated by dots. Arrays are transparent: the filter that applies to
// an array applies to each of its elements, so "spec.containers.resources" keeps the resources
// of every container. A kept path keeps everything beneath it. A member on a path whose value is
// not an object (or an array of objects) is kept as it is: a filter can only leave out members
// of objects, never change a value's type, so a transform sees the same types and the same
// mistakes (a string where an object belongs) as with the whole document.
//
// The default-constructed filter keeps everything. Immutable after construction: share one
// instance between threads freely.

#include <initializer_list>
#include <map>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace vc::fastjson {

class MemberFilter {
 public:
  MemberFilter() = default;  // keeps everything

  // Keeps only the members on these paths (and everything beneath them). Throws
  // std::invalid_argument for an empty path or an empty member name ("a..b").
  static MemberFilter only(std::initializer_list<std::string_view> paths);

  // Keeps everything except the members on these paths (arrays transparent, as for only()):
  //   all_but({"request.object.metadata.managedFields"})
  // leaves out that one member and keeps every other member at every level. Throws
  // std::invalid_argument for an empty path or member name.
  static MemberFilter all_but(std::initializer_list<std::string_view> paths);

  // Adds a path to keep (see only()); on a filter that keeps everything it does nothing.
  // Throws std::logic_error on a filter made by all_but().
  void keep(std::string_view path);
  // The filter of member `name`, created (keeping nothing yet) if absent; turns this filter into
  // one that keeps only listed members if it kept everything. For composing filters.
  MemberFilter& member(std::string_view name);

  // Whether every member is kept (no filtering from here down).
  bool keeps_all() const { return all_; }
  // The filter for member `name` of an object this filter applies to, or null when the member
  // is left out. Only meaningful when !keeps_all().
  const MemberFilter* find(std::string_view name) const {
    auto it = members_.find(name);
    if (it == members_.end()) return open_ ? &keep_everything() : nullptr;
    return it->second.dropped_ ? nullptr : &it->second;
  }

 private:
  static const MemberFilter& keep_everything();

  bool all_ = true;
  // all_but(): members not listed are kept whole; a listed member is either left out
  // (dropped_) or filtered further.
  bool open_ = false;
  bool dropped_ = false;
  std::map<std::string, MemberFilter, std::less<>> members_;
};

// Removes from `value` every member the filter leaves out, in place (for documents parsed by
// another parser, so both paths give the same tree).
void prune(nlohmann::json& value, const MemberFilter& filter);

}  // namespace vc::fastjson

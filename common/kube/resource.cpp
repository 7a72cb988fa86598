#include "common/kube/resource.h"

#include "common/kube/url.h"

namespace vc::kube {

std::string Resource::api_version() const {
  if (group.empty()) return std::string(version);
  std::string out;
  out.reserve(group.size() + 1 + version.size());
  out.append(group).append("/").append(version);
  return out;
}

std::string Resource::base_path() const {
  std::string out = group.empty() ? "/api/" : "/apis/";
  if (!group.empty()) out.append(group).append("/");
  out.append(version);
  return out;
}

std::string Resource::path(std::string_view ns, std::string_view name,
                           std::string_view subresource) const {
  std::string out = base_path();
  if (namespaced && !ns.empty()) out.append("/namespaces/").append(escape_path_segment(ns));
  out.append("/").append(plural);
  if (!name.empty()) {
    out.append("/").append(escape_path_segment(name));
    if (!subresource.empty()) out.append("/").append(escape_path_segment(subresource));
  }
  return out;
}

std::string Resource::qualified() const {
  if (group.empty()) return std::string(plural);
  std::string out;
  out.append(plural).append(".").append(group);
  return out;
}

}  // namespace vc::kube

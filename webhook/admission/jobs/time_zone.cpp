#include "webhook/admission/jobs/time_zone.h"

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace vc::webhook::jobs {
namespace {

bool is_tzif(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char magic[4] = {};
  return in.read(magic, sizeof(magic)) && std::string_view(magic, 4) == "TZif";
}

}  // namespace

bool load_location_ok(std::string_view name) {
  if (name.empty() || name == "UTC" || name == "Local") return true;
  // Go refuses names that could escape the zoneinfo directory.
  if (name.find("..") != std::string_view::npos || name.front() == '/' || name.front() == '\\') {
    return false;
  }
  // A NUL would truncate the path we open; no zone name contains one.
  if (name.find('\0') != std::string_view::npos) return false;
  std::vector<std::string> dirs;
  if (const char* env = std::getenv("ZONEINFO"); env != nullptr && *env != '\0') {
    dirs.emplace_back(env);
  }
  for (const char* d :
       {"/usr/share/zoneinfo", "/usr/share/lib/zoneinfo", "/usr/lib/locale/TZ", "/etc/zoneinfo"}) {
    dirs.emplace_back(d);
  }
  for (const auto& dir : dirs) {
    if (is_tzif(dir + "/" + std::string(name))) return true;
  }
  return false;
}

}  // namespace vc::webhook::jobs

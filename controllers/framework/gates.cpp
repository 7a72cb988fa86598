#include "controllers/framework/gates.h"

#include <set>

namespace vc::controllers {

std::vector<std::string> default_controller_gates() {
  return {"*", "-sharding-controller"};
}

bool controller_enabled(std::string_view name, const std::vector<std::string>& gates) {
  if (gates.empty()) return true;
  bool star = false;
  for (const std::string& entry : gates) {
    const std::string_view e = entry;
    if (e == "*") {
      star = true;
      continue;
    }
    if (e == name) return true;
    if (e.size() == name.size() + 1 && e.substr(1) == name) {
      if (e.front() == '+') return true;
      if (e.front() == '-') return false;
    }
  }
  return star;
}

std::vector<std::string> validate_controller_gates(const std::vector<std::string>& gates) {
  std::vector<std::string> errors;
  std::set<std::string, std::less<>> seen;
  for (const std::string& entry : gates) {
    if (entry == "*") continue;
    std::string_view bare = entry;
    if (!bare.empty() && (bare.front() == '+' || bare.front() == '-')) bare.remove_prefix(1);
    if (!seen.emplace(bare).second) {
      errors.push_back("controllers option " + entry + " cannot have both '-' and '+' prefixes");
    }
  }
  return errors;
}

}  // namespace vc::controllers

#include "controllers/views/intern.h"

#include <mutex>
#include <shared_mutex>
#include <string>
#include <unordered_set>

namespace vc::controllers::views {

namespace {

struct Hash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

struct Pool {
  std::shared_mutex mu;
  // Node-based: an element (and the characters of a short string stored inside it) never moves,
  // so views into it stay valid while the set grows.
  std::unordered_set<std::string, Hash, std::equal_to<>> strings;
};

Pool& pool() {
  // Leaked on purpose: views handed out must outlive every static destructor that may read them.
  static Pool* p = new Pool;
  return *p;
}

}  // namespace

std::string_view intern(std::string_view s) {
  if (s.empty()) return {};
  Pool& p = pool();
  {
    std::shared_lock lock(p.mu);
    if (auto it = p.strings.find(s); it != p.strings.end()) return *it;
  }
  std::unique_lock lock(p.mu);
  return *p.strings.emplace(s).first;
}

std::size_t interned_count() {
  Pool& p = pool();
  std::shared_lock lock(p.mu);
  return p.strings.size();
}

}  // namespace vc::controllers::views

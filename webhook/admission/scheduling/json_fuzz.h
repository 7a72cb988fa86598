#pragma once
// Test-only: deterministic random mutations of JSON objects, for feeding admit functions
// malformed input (wrong types, huge numbers, deep nesting, odd strings, missing fields).

#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace vc::webhook::scheduling::testing {

class JsonMutator {
 public:
  explicit JsonMutator(std::uint64_t seed) : rng_(seed) {}

  // Applies 1 to 4 random edits to `object` in place.
  void mutate(nlohmann::json& object) {
    const int edits = 1 + pick(4);
    for (int i = 0; i < edits; ++i) edit(object);
  }

  nlohmann::json random_value() {
    using nlohmann::json;
    switch (pick(16)) {
      case 0:
        return nullptr;
      case 1:
        return pick(2) == 0;
      case 2:
        return std::numeric_limits<std::int64_t>::max();
      case 3:
        return std::numeric_limits<std::int64_t>::min();
      case 4:
        return std::numeric_limits<std::uint64_t>::max();
      case 5:
        return 1e300;
      case 6:
        return -0.5;
      case 7:
        return static_cast<std::int64_t>(pick(2000)) - 1000;
      case 8:
        return json::array({random_string(), 1, nullptr});
      case 9:
        return json::object({{random_string(), random_string()}});
      case 10:
        return deep(1 + pick(3000));
      case 11:
        return std::string(10000 + pick(1000), 'x');
      default:
        return random_string();
    }
  }

 private:
  int pick(int n) { return static_cast<int>(rng_() % static_cast<std::uint64_t>(n)); }

  std::string random_string() {
    static const std::vector<std::string> kStrings = {
        "",         "x",      "-1",       "1e100",
        "1Gi",      "-500m",  "NaN",      "Inf",
        "((((",     "[a-",    "\\p{",     "Open",
        "Closed",   "root",   "root/",    "/",
        "a/b/c",    "0/1",    "default",  "volcano",
        "true",     "50%",    "%%",       "99999999999999999999",
        "1_0",      "0x1p-2", "CREATE",   "key: value",
        "{a: [b]}", "- x",    "\xc3\xa9", "scheduling.volcano.sh/queue-name"};
    return kStrings[static_cast<std::size_t>(pick(static_cast<int>(kStrings.size())))];
  }

  // [[[...[1]...]]] built iteratively (no recursion).
  static nlohmann::json deep(int depth) {
    nlohmann::json v = 1;
    for (int i = 0; i < depth; ++i) v = nlohmann::json::array({std::move(v)});
    return v;
  }

  // The nodes of `root` down to a modest depth, found without recursion.
  static std::vector<nlohmann::json*> nodes(nlohmann::json& root) {
    std::vector<std::pair<nlohmann::json*, int>> stack{{&root, 0}};
    std::vector<nlohmann::json*> out;
    while (!stack.empty()) {
      auto [node, depth] = stack.back();
      stack.pop_back();
      out.push_back(node);
      if (depth >= 12 || !node->is_structured()) continue;
      for (auto& child : *node) stack.emplace_back(&child, depth + 1);
    }
    return out;
  }

  void edit(nlohmann::json& root) {
    auto all = nodes(root);
    nlohmann::json* target = all[static_cast<std::size_t>(pick(static_cast<int>(all.size())))];
    switch (pick(4)) {
      case 0:  // replace the value
        if (target != &root || pick(8) == 0) *target = random_value();
        break;
      case 1:  // add or overwrite a key of an object
        if (target->is_object()) (*target)[random_string()] = random_value();
        break;
      case 2:  // remove a key or element
        if (target->is_object() && !target->empty()) {
          target->erase(target->begin());
        } else if (target->is_array() && !target->empty()) {
          target->erase(target->begin());
        }
        break;
      default:  // append to an array, or turn a scalar into an array holding it
        if (target->is_array()) {
          target->push_back(random_value());
        } else if (!target->is_object()) {
          *target = nlohmann::json::array({*target});
        }
        break;
    }
  }

  std::mt19937_64 rng_;
};

}  // namespace vc::webhook::scheduling::testing

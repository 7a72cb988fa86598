#pragma once
// Plugin arguments parsed the way Go's standard `flag` package parses them
// (spec job-controller.md §5), so `spec.plugins` entries written for Volcano mean the same here:
//   -x / --x            a bool flag set to true;
//   -x=v / --x=v        any flag; bools take Go's strconv.ParseBool spellings (1, t, true, ...);
//   -x v / --x v        non-bool flags take the next argument as their value;
//   --                  ends the flags (consumed); the first non-flag ("-" or "abc") ends them too.
// An unknown flag, a malformed one, a missing or unparsable value ends parsing with Go's error
// text; flags parsed before it keep their values. As in Go, an unparsable int or bool value still
// overwrites the flag (with 0/false, or the clamped bound when out of range) before failing.
//
// Threads: a GoFlagSet is a plain value owned by one thread; the free functions are pure.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/api/expected.h"

namespace vc::controllers::job::plugins {

class GoFlagSet {
 public:
  // Registers a flag writing into target, which must outlive parse(). The target's current value
  // is the default. Registering a name twice is a programmer error (std::logic_error).
  void add_string(std::string name, std::string* target);
  void add_int(std::string name, std::int64_t* target);
  void add_bool(std::string name, bool* target);

  // Parses args; the error is Go's text, e.g. "flag provided but not defined: -foo".
  api::Status parse(const std::vector<std::string>& args);
  // The arguments left after parsing stopped (the first non-flag onwards).
  const std::vector<std::string>& remaining() const { return remaining_; }

 private:
  enum class Kind { String, Int, Bool };
  struct Flag {
    std::string name;
    Kind kind;
    void* target;
  };
  const Flag* find(std::string_view name) const;
  void add(std::string name, Kind kind, void* target);
  // One flag at args[i]; advances i past what it read. True to go on, false to stop (a non-flag,
  // or "--"), or the error that stops parsing.
  api::Expected<bool> parse_one(const std::vector<std::string>& args, std::size_t& i);

  std::vector<Flag> flags_;
  std::vector<std::string> remaining_;
};

// strconv.Atoi: optional sign and decimal digits only; nullopt on a syntax or range error.
std::optional<std::int64_t> go_atoi(std::string_view s);

}  // namespace vc::controllers::job::plugins

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
  // One flag at args[i]; advances i. Returns false (with error possibly set) to stop.
  bool parse_one(const std::vector<std::string>& args, std::size_t& i, std::string& error);

  std::vector<Flag> flags_;
  std::vector<std::string> remaining_;
};

// The strconv parsers below are thin wrappers over common/go/strconv.h that keep the
// flag package's view of them: its error words and the value it stores on a bad value.
//
// strconv.ParseInt(s, 0, 64): sign, base prefixes 0b/0o/0x and a leading 0 for octal,
// underscores between digits. error is "" or "parse error" / "value out of range" (Go's flag
// wording); value is what Go would store (0 on a syntax error, the clamped bound on overflow).
struct GoInt {
  std::int64_t value = 0;
  std::string error;
};
GoInt go_parse_int(std::string_view s);
// strconv.ParseBool.
std::optional<bool> go_parse_bool(std::string_view s);
// strconv.Atoi: optional sign and decimal digits only; nullopt on a syntax or range error.
std::optional<std::int64_t> go_atoi(std::string_view s);

}  // namespace vc::controllers::job::plugins
